import { hashToken } from '../../lib/tokens.ts';
import type { DB } from '../database.ts';

/**
 * How long a revocation is kept: longer than a Firebase ID token lives (one hour), so every token
 * issued before the erasure has expired by the time its row goes.
 */
export const REVOCATION_KEPT_MS = 2 * 60 * 60 * 1000;

/** What is stored of a revoked uid (api/auth/revocations.ts hashes the same way to compare). */
export const revokedUidHash = (uid: string) => hashToken(uid);

/** Revokes a uid's sign-ins on every instance (in the erasure's transaction), and forgets old ones. */
export async function revokeSignIns(db: DB, uid: string, now: Date): Promise<void> {
  await db
    .deleteFrom('revoked_sign_ins')
    .where('revoked_at', '<', new Date(now.getTime() - REVOCATION_KEPT_MS).toISOString())
    .execute();
  await db
    .insertInto('revoked_sign_ins')
    .values({ uid_hash: revokedUidHash(uid), revoked_at: now.toISOString() })
    .execute();
}

/** Revocations after the one with this id (0: all), oldest first. */
export function revocationsAfter(db: DB, revocationId: number) {
  return db
    .selectFrom('revoked_sign_ins')
    .select(['revocation_id', 'uid_hash'])
    .where('revocation_id', '>', revocationId)
    .orderBy('revocation_id')
    .execute();
}

/** Whether an erasure revoked this uid, read from the database itself (no instance's cache). */
export async function isRevoked(db: DB, uid: string): Promise<boolean> {
  const row = await db
    .selectFrom('revoked_sign_ins')
    .select('revocation_id')
    .where('uid_hash', '=', revokedUidHash(uid))
    .executeTakeFirst();
  return row !== undefined;
}
