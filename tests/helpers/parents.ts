// Parents and moderators for API tests: real Auth emulator accounts, signed in once through the
// real app (which creates their profiles), with a role set the way `npm run user:role` sets it.
import { inject } from 'vitest';
import type { createApp } from '../../api/app.ts';
import { createFirebaseAccounts } from '../../api/auth/accounts.ts';
import { createFirebaseVerifier } from '../../api/auth/verifier.ts';
import type { DB } from '../../api/db/database.ts';
import type { Role } from '../../api/contract.ts';
import { setRoleByEmail } from '../../api/db/queries/profiles.ts';
import { createRateLimiter } from '../../api/middleware/rate-limit.ts';
import type { AppDeps } from '../../api/types.ts';
import { createEmulatorUser, EMULATOR_PROJECT_ID } from '../../scripts/lib/auth-emulator.ts';
import { createTestApp } from './test-db.ts';

type App = ReturnType<typeof createApp>;

export interface Parent {
  uid: string;
  email: string;
  name: string;
  token: string;
}

/** The emulator-backed token verifier (FIREBASE_AUTH_EMULATOR_HOST set for this test file). */
export function emulatorVerifier() {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
  return createFirebaseVerifier(EMULATOR_PROJECT_ID);
}

/** The emulator's accounts through the Admin SDK, as account erasure uses them. */
export function emulatorAccounts() {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
  return createFirebaseAccounts(EMULATOR_PROJECT_ID);
}

/**
 * The test app with emulator sign-in and write limits out of the way (tests of the limits make
 * their own), for tests that walk through many comments and reports.
 */
export function createCommunityApp(deps: Partial<AppDeps> = {}) {
  const generous = (db: DB, scope: string) =>
    createRateLimiter(db, { scope, limit: 10_000, windowMs: 60_000 });
  return createTestApp((db) => ({
    verifyToken: emulatorVerifier(),
    accounts: emulatorAccounts(),
    commentLimiter: generous(db, 'comments'),
    reportLimiter: generous(db, 'reports'),
    ...deps,
  }));
}

/** A new parent (or moderator, or admin) who has signed in once. */
export async function newParent(app: App, db: DB, name: string, role: Role = 'user'): Promise<Parent> {
  const user = await createEmulatorUser(inject('authEmulatorHost'), { displayName: name });
  const res = await app.request('/api/profile', { headers: { Authorization: `Bearer ${user.idToken}` } });
  if (res.status !== 200) throw new Error(`profile: ${res.status} ${await res.text()}`);
  if (role !== 'user') await setRoleByEmail(db, user.email, role, new Date());
  return { uid: user.uid, email: user.email, name, token: user.idToken };
}

/** A JSON request through the app, as a parent when a token is given. */
export function call(
  app: App,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Response | Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  return app.request(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

/** The answer's JSON, failing with the body when the status is not the expected one. */
export async function expectJson<T>(res: Response | Promise<Response>, status: number): Promise<T> {
  const answer = await res;
  const text = await answer.text();
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${text}`);
  return JSON.parse(text) as T;
}
