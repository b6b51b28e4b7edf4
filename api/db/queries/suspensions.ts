import { ERASED_ACCOUNT_NAME, type Suspension } from '../../contract.ts';
import type { DB } from '../database.ts';
import { recordAudit } from './audit.ts';

export interface Actor {
  uid: string;
  name: string;
}

/** A suspension is in force from its creation until it is lifted or its time runs out. */
function inForce(now: Date) {
  const stamp = now.toISOString();
  return (q: ReturnType<typeof selectSuspensions>) =>
    q
      .where('suspensions.lifted_at', 'is', null)
      .where((eb) => eb.or([eb('suspensions.until', 'is', null), eb('suspensions.until', '>', stamp)]));
}

function selectSuspensions(db: DB) {
  return db
    .selectFrom('suspensions')
    .leftJoin('users_profile', 'users_profile.firebase_uid', 'suspensions.user_uid')
    .select([
      'suspensions.suspension_id',
      'suspensions.user_uid',
      'suspensions.until',
      'suspensions.reason',
      'suspensions.created_at',
      'suspensions.created_by_name',
      'users_profile.display_name',
    ]);
}

type SuspensionRow = Awaited<ReturnType<ReturnType<typeof selectSuspensions>['executeTakeFirstOrThrow']>>;

function toSuspension(row: SuspensionRow): Suspension {
  return {
    id: row.suspension_id,
    uid: row.user_uid,
    userName: row.display_name ?? row.user_uid,
    until: row.until,
    reason: row.reason,
    createdAt: row.created_at,
    createdByName: row.created_by_name,
  };
}

/** The parent's suspension in force now, if any (the latest, should there be several). */
export async function activeSuspension(db: DB, uid: string, now: Date): Promise<Suspension | null> {
  const row = await inForce(now)(selectSuspensions(db).where('suspensions.user_uid', '=', uid))
    .orderBy('suspensions.suspension_id', 'desc')
    .executeTakeFirst();
  return row ? toSuspension(row) : null;
}

/** activeSuspension for several parents in one query: each uid with a suspension in force. */
export async function activeSuspensionsOf(
  db: DB,
  uids: string[],
  now: Date,
): Promise<Map<string, Suspension>> {
  if (uids.length === 0) return new Map();
  const rows = await inForce(now)(selectSuspensions(db).where('suspensions.user_uid', 'in', uids))
    .orderBy('suspensions.suspension_id', 'desc')
    .execute();
  const found = new Map<string, Suspension>();
  // Newest first: the first row of a parent is the one activeSuspension answers.
  for (const row of rows) if (!found.has(row.user_uid)) found.set(row.user_uid, toSuspension(row));
  return found;
}

export async function listActiveSuspensions(db: DB, now: Date): Promise<Suspension[]> {
  const rows = await inForce(now)(selectSuspensions(db))
    .orderBy('suspensions.suspension_id', 'desc')
    .execute();
  return rows.map(toSuspension);
}

/** Ends a suspension now; the row stays, with who lifted it and why. */
async function lift(trx: DB, id: number, actor: Actor, reason: string, now: Date): Promise<void> {
  await trx
    .updateTable('suspensions')
    .set({
      lifted_at: now.toISOString(),
      lifted_by_uid: actor.uid,
      lifted_by_name: actor.name,
      lift_reason: reason,
    })
    .where('suspension_id', '=', id)
    .execute();
}

/**
 * Suspends a parent for `days` (or until lifted, with null). A suspension already in force is
 * replaced (lifted, with this one's reason), so a parent has one suspension at a time.
 */
export async function suspendUser(
  db: DB,
  input: { uid: string; days: number | null; reason: string; actor: Actor },
  now: Date,
): Promise<Suspension> {
  return db.transaction().execute(async (trx) => {
    const stamp = now.toISOString();
    const previous = await activeSuspension(trx, input.uid, now);
    if (previous)
      await lift(trx, previous.id, input.actor, `Replaced by a new suspension: ${input.reason}`, now);
    const until =
      input.days === null ? null : new Date(now.getTime() + input.days * 86_400_000).toISOString();
    const { suspension_id } = await trx
      .insertInto('suspensions')
      .values({
        user_uid: input.uid,
        until,
        reason: input.reason,
        created_at: stamp,
        created_by_uid: input.actor.uid,
        created_by_name: input.actor.name,
        lifted_at: null,
        lifted_by_uid: null,
        lifted_by_name: null,
        lift_reason: null,
      })
      .returning('suspension_id')
      .executeTakeFirstOrThrow();
    await recordAudit(
      trx,
      {
        actor: input.actor,
        action: 'user.suspend',
        target: { type: 'user', id: input.uid },
        reason: input.reason,
        details: { days: input.days, until, replaced: previous?.id ?? null },
      },
      now,
    );
    const row = await selectSuspensions(trx)
      .where('suspensions.suspension_id', '=', suspension_id)
      .executeTakeFirstOrThrow();
    return toSuspension(row);
  });
}

/** Lifts the parent's suspension in force; null when there is none. */
export async function liftSuspension(
  db: DB,
  input: { uid: string; reason: string; actor: Actor },
  now: Date,
): Promise<Suspension | null> {
  return db.transaction().execute(async (trx) => {
    const current = await activeSuspension(trx, input.uid, now);
    if (!current) return null;
    await lift(trx, current.id, input.actor, input.reason, now);
    await recordAudit(
      trx,
      {
        actor: input.actor,
        action: 'user.lift',
        target: { type: 'user', id: input.uid },
        reason: input.reason,
        details: { suspension: current.id, until: current.until },
      },
      now,
    );
    return current;
  });
}

/**
 * Account erasure: suspensions of the parent, and those they gave or lifted as a moderator, keep
 * their dates and reasons but carry the label and ERASED_ACCOUNT_NAME instead of them.
 */
export async function anonymizeSuspensions(trx: DB, uid: string, label: string): Promise<number> {
  const changes = [
    trx.updateTable('suspensions').set({ user_uid: label }).where('user_uid', '=', uid),
    trx
      .updateTable('suspensions')
      .set({ created_by_uid: label, created_by_name: ERASED_ACCOUNT_NAME })
      .where('created_by_uid', '=', uid),
    trx
      .updateTable('suspensions')
      .set({ lifted_by_uid: label, lifted_by_name: ERASED_ACCOUNT_NAME })
      .where('lifted_by_uid', '=', uid),
  ];
  let changed = 0;
  for (const change of changes) changed += Number((await change.executeTakeFirst()).numUpdatedRows);
  return changed;
}
