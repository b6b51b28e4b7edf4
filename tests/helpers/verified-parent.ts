// A parent whose sign-in says their email address is verified, as Firebase says once the
// verification link is followed: the Auth emulator's account is marked verified through the Admin
// SDK, and a new sign-in gives a token with the claim (favourites and alerts tests).
import { inject } from 'vitest';
import type { createApp } from '../../api/app.ts';
import { firebaseAuth } from '../../api/auth/verifier.ts';
import { createEmulatorUser, EMULATOR_PROJECT_ID } from '../../scripts/lib/auth-emulator.ts';
import type { Parent } from './parents.ts';

const PASSWORD = 'correct-horse-9';

/** Marks an emulator account verified and signs it in again: the new token says so. */
export async function verifiedToken(host: string, uid: string, email: string): Promise<string> {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = host;
  await firebaseAuth(EMULATOR_PROJECT_ID).updateUser(uid, { emailVerified: true });
  const res = await fetch(
    `http://${host}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
    },
  );
  if (!res.ok) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { idToken: string }).idToken;
}

/** A new verified parent who has signed in once through the app (which made their profile). */
export async function newVerifiedParent(app: ReturnType<typeof createApp>, name: string): Promise<Parent> {
  const host = inject('authEmulatorHost');
  const user = await createEmulatorUser(host, { displayName: name, password: PASSWORD });
  const token = await verifiedToken(host, user.uid, user.email);
  const profile = await app.request('/api/profile', { headers: { Authorization: `Bearer ${token}` } });
  if (profile.status !== 200) throw new Error(`profile: ${profile.status} ${await profile.text()}`);
  return { uid: user.uid, email: user.email, name, token };
}
