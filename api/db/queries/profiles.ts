import type { Identity } from '../../auth/verifier.ts';
import { basicDisplayName, type UserProfile } from '../../contract.ts';
import type { DB } from '../database.ts';
import type { UserProfileRow } from '../schema.ts';
import { isRevoked } from './revocations.ts';

function toProfile(row: UserProfileRow): UserProfile {
  let userType: string[] = ['buyer'];
  try {
    const parsed: unknown = JSON.parse(row.user_type);
    if (Array.isArray(parsed)) userType = parsed.filter((t): t is string => typeof t === 'string');
  } catch {
    // A hand-edited row with bad JSON falls back to the default rather than failing every request.
  }
  return { ...row, user_type: userType };
}

/**
 * Reads the user's profile, creating the basic one on their first authenticated request; null for
 * a uid an erasure revoked, so a token this instance still trusts cannot bring an erased parent
 * back in the second before it learns of the erasure (api/auth/revocations.ts).
 */
export async function getOrCreateProfile(db: DB, identity: Identity, now: Date): Promise<UserProfile | null> {
  const existing = await findProfile(db, identity.uid);
  if (existing) return existing;
  if (await isRevoked(db, identity.uid)) return null;
  const stamp = now.toISOString();
  await db
    .insertInto('users_profile')
    .values({
      firebase_uid: identity.uid,
      display_name: basicDisplayName(identity),
      email: identity.email ?? '',
      photo_url: identity.picture,
      role: 'user',
      user_type: JSON.stringify(['buyer']),
      created_at: stamp,
      updated_at: stamp,
    })
    .onConflict((oc) => oc.column('firebase_uid').doNothing())
    .execute();
  return findProfile(db, identity.uid);
}

/** Sets a user's role by email; returns how many profiles changed. */
export async function setRoleByEmail(db: DB, email: string, role: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('users_profile')
    .set({ role, updated_at: now.toISOString() })
    .where('email', '=', email)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A parent's role, or null when they have never signed in here. */
export async function findRole(db: DB, uid: string): Promise<string | null> {
  const row = await db
    .selectFrom('users_profile')
    .select('role')
    .where('firebase_uid', '=', uid)
    .executeTakeFirst();
  return row?.role ?? null;
}

/** A parent's profile by uid, or null. */
export async function findProfile(db: DB, uid: string): Promise<UserProfile | null> {
  const row = await db
    .selectFrom('users_profile')
    .selectAll()
    .where('firebase_uid', '=', uid)
    .executeTakeFirst();
  return row ? toProfile(row) : null;
}

/**
 * Creates (or updates) a profile with a given role before its first sign-in: `npm run dev:auth`
 * makes its demo moderator this way.
 */
export async function upsertProfile(
  db: DB,
  input: { uid: string; email: string; name: string; role: string },
  now: Date,
): Promise<void> {
  const stamp = now.toISOString();
  await db
    .insertInto('users_profile')
    .values({
      firebase_uid: input.uid,
      display_name: input.name,
      email: input.email,
      photo_url: null,
      role: input.role,
      user_type: JSON.stringify(['buyer']),
      created_at: stamp,
      updated_at: stamp,
    })
    .onConflict((oc) =>
      oc
        .column('firebase_uid')
        .doUpdateSet({ role: input.role, display_name: input.name, updated_at: stamp }),
    )
    .execute();
}

/** Account erasure: the profile goes. Returns the address it had, if any. */
export async function deleteProfile(trx: DB, uid: string): Promise<string | null> {
  const row = await trx
    .deleteFrom('users_profile')
    .where('firebase_uid', '=', uid)
    .returning('email')
    .executeTakeFirst();
  return row?.email || null;
}

/** The uid of the profile with this address, if one has signed in here. */
export async function findUidByEmail(db: DB, email: string): Promise<string | null> {
  const row = await db
    .selectFrom('users_profile')
    .select('firebase_uid')
    .where('email', '=', email)
    .executeTakeFirst();
  return row?.firebase_uid ?? null;
}
