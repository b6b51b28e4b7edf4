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
