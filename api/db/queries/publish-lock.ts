import type { DB } from '../database.ts';

// The publish lock (docs/decisions/010): one row that says which instance may build, until when.
// Every change is one conditional UPDATE, so two instances can never both think they hold it.

const leaseEnd = (now: Date, leaseMs: number) => new Date(now.getTime() + leaseMs).toISOString();

/** Takes the lock when it is free, its lease has run out, or the caller holds it already. */
export async function acquirePublishLock(
  db: DB,
  holder: string,
  now: Date,
  leaseMs: number,
): Promise<boolean> {
  const result = await db
    .updateTable('publish_lock')
    .set({ holder, lease_until: leaseEnd(now, leaseMs) })
    .where('lock_id', '=', 1)
    .where((eb) =>
      eb.or([eb('holder', 'is', null), eb('lease_until', '<', now.toISOString()), eb('holder', '=', holder)]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Extends the caller's lease; false when another instance has taken the lock meanwhile. */
export async function renewPublishLock(db: DB, holder: string, now: Date, leaseMs: number): Promise<boolean> {
  const result = await db
    .updateTable('publish_lock')
    .set({ lease_until: leaseEnd(now, leaseMs) })
    .where('lock_id', '=', 1)
    .where('holder', '=', holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Lets go of the lock, if the caller still holds it. */
export async function releasePublishLock(db: DB, holder: string): Promise<void> {
  await db
    .updateTable('publish_lock')
    .set({ holder: null, lease_until: null })
    .where('lock_id', '=', 1)
    .where('holder', '=', holder)
    .execute();
}

// Warm publishers (docs/decisions/030-the-command-line-hands-over-a-publish.md): running servers
// say they are up; the command line hands its run to one of them.

/** Says this instance's publisher is up until `until`. */
export async function markWarmPublisher(db: DB, instance: string, until: Date): Promise<void> {
  await db
    .insertInto('warm_publishers')
    .values({ instance, seen_until: until.toISOString() })
    .onConflict((oc) => oc.column('instance').doUpdateSet({ seen_until: until.toISOString() }))
    .execute();
}

/** Forgets an instance that stops (and any whose time ran out long ago). */
export async function forgetWarmPublisher(db: DB, instance: string, now: Date): Promise<void> {
  await db
    .deleteFrom('warm_publishers')
    .where((eb) => eb.or([eb('instance', '=', instance), eb('seen_until', '<', now.toISOString())]))
    .execute();
}

/** A running server's publisher that is up now, or null. */
export async function findWarmPublisher(db: DB, now: Date): Promise<string | null> {
  const row = await db
    .selectFrom('warm_publishers')
    .select('instance')
    .where('seen_until', '>', now.toISOString())
    .orderBy('seen_until', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.instance ?? null;
}
