import type { Identity } from '../../auth/verifier.ts';
import {
  basicDisplayName,
  type PersonWithRole,
  type Role,
  ROLES,
  type StaffList,
  toRole,
  type UserProfile,
} from '../../contract.ts';
import type { DB } from '../database.ts';
import type { UserProfileRow } from '../schema.ts';
import { type NewAuditEntry, recordAudit } from './audit.ts';
import { isRevoked } from './revocations.ts';

function toProfile({ email_verified: _emailVerified, ...row }: UserProfileRow): UserProfile {
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
  const existing = await db
    .selectFrom('users_profile')
    .selectAll()
    .where('firebase_uid', '=', identity.uid)
    .executeTakeFirst();
  if (existing) {
    // The "Verified Parents" figure counts this: written only when the token's claim changed.
    const verified = identity.emailVerified ? 1 : 0;
    if (identity.emailVerified !== undefined && Number(existing.email_verified) !== verified) {
      await db
        .updateTable('users_profile')
        .set({ email_verified: verified })
        .where('firebase_uid', '=', identity.uid)
        .execute();
    }
    return toProfile(existing);
  }
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
      email_verified: identity.emailVerified ? 1 : 0,
    })
    .onConflict((oc) => oc.column('firebase_uid').doNothing())
    .execute();
  return findProfile(db, identity.uid);
}

/**
 * Sets a user's role by email without an audit entry; returns how many profiles changed. For
 * tests' set-up only: people's roles change through changeRoleByEmail, which records it.
 */
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

// ---- People and roles (docs/product.md, "Roles") ------------------------------------------------

/** The profiles that signed in with this address, newest first; the case of the address is ignored. */
export async function findProfilesByEmail(db: DB, email: string): Promise<UserProfile[]> {
  const rows = await db
    .selectFrom('users_profile')
    .selectAll()
    .where((eb) => eb(eb.fn<string>('lower', ['email']), '=', email.trim().toLowerCase()))
    .orderBy('created_at', 'desc')
    .orderBy('firebase_uid')
    .execute();
  return rows.map(toProfile);
}

/** A profile as admins see it under "People and roles"; `viewerUid` is the admin asking. */
export function toPerson(profile: UserProfile, viewerUid: string | null): PersonWithRole {
  return {
    name: profile.display_name.trim() || 'A parent',
    email: profile.email,
    role: toRole(profile.role),
    roleChangedAt: profile.updated_at,
    isYou: profile.firebase_uid === viewerUid,
  };
}

/**
 * Gives every profile with this address `role`, each change with its 'user.role' audit entry
 * (details: from, to) in the same transaction; a profile that already has the role is left as it
 * is, with no entry. Returns the profiles as they are now, newest first: none when nobody has
 * signed in with the address.
 */
export async function changeRoleByEmail(
  db: DB,
  input: { email: string; role: Role; actor: NewAuditEntry['actor'] },
  now: Date,
): Promise<UserProfile[]> {
  return db.transaction().execute(async (trx) => {
    const profiles = await findProfilesByEmail(trx, input.email);
    const stamp = now.toISOString();
    for (const profile of profiles) {
      if (profile.role === input.role) continue;
      const from = toRole(profile.role);
      await trx
        .updateTable('users_profile')
        .set({ role: input.role, updated_at: stamp })
        .where('firebase_uid', '=', profile.firebase_uid)
        .execute();
      await recordAudit(
        trx,
        {
          actor: input.actor,
          action: 'user.role',
          target: { type: 'user', id: profile.firebase_uid },
          reason: null,
          details: { from, to: input.role },
        },
        now,
      );
      profile.role = input.role;
      profile.updated_at = stamp;
    }
    return profiles;
  });
}

/** Everyone with a role other than `user`: admins first, then moderators, editors, authors; by name. */
export async function listStaff(db: DB, viewerUid: string | null): Promise<StaffList> {
  const rows = await db
    .selectFrom('users_profile')
    .selectAll()
    .where(
      'role',
      'in',
      ROLES.filter((role) => role !== 'user'),
    )
    .execute();
  const rank = (person: PersonWithRole) => ROLES.indexOf(person.role);
  return rows
    .map((row) => toPerson(toProfile(row), viewerUid))
    .sort((a, b) => rank(b) - rank(a) || a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
}

/** The "Verified Parents" figure: parents whose sign-in said their email address is verified. */
export async function countVerifiedParents(db: DB): Promise<number> {
  const row = await db
    .selectFrom('users_profile')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('email_verified', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
