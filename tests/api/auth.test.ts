import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createFirebaseVerifier } from '../../api/auth/verifier.ts';
import { createEmulatorUser, EMULATOR_PROJECT_ID } from '../../scripts/lib/auth-emulator.ts';
import { createTestApp } from '../helpers/test-db.ts';

type App = Awaited<ReturnType<typeof createTestApp>>['app'];
let app: App;
let host: string;
let realUid: string;

beforeAll(async () => {
  host = inject('authEmulatorHost');
  process.env.FIREBASE_AUTH_EMULATOR_HOST = host;
  ({ app } = await createTestApp({ verifyToken: createFirebaseVerifier(EMULATOR_PROJECT_ID) }));
  realUid = (await createEmulatorUser(host)).uid;
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned token in the emulator's own format, with claims of our choosing. */
function forge(claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: `https://securetoken.google.com/${EMULATOR_PROJECT_ID}`,
    aud: EMULATOR_PROJECT_ID,
    auth_time: now,
    user_id: 'forged-user',
    sub: 'forged-user',
    iat: now,
    exp: now + 3600,
    email: 'forged@example.com',
    firebase: { identities: {}, sign_in_provider: 'password' },
    ...claims,
  };
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`;
}

function profile(token?: string, header?: string) {
  return app.request('/api/profile', {
    headers: header ? { Authorization: header } : token ? { Authorization: `Bearer ${token}` } : {},
  });
}

describe('ID token verification', () => {
  it('accepts a valid emulator token', async () => {
    const user = await createEmulatorUser(host);
    const res = await profile(user.idToken);
    expect(res.status).toBe(200);
  });

  it('accepts the scheme in any case, and refuses a header that is not a bearer token', async () => {
    const user = await createEmulatorUser(host);
    expect((await profile(undefined, `bearer ${user.idToken}`)).status).toBe(200);
    expect((await profile(undefined, `BEARER ${user.idToken}`)).status).toBe(200);
    expect((await profile(undefined, `Basic ${user.idToken}`)).status).toBe(401);
  });

  it('accepts a token with correct claims in the emulator format (so the forgeries below test one claim each)', async () => {
    expect((await profile(forge({ sub: realUid, user_id: realUid }))).status).toBe(200);
  });

  it('refuses a correct-looking token for a user that does not exist', async () => {
    expect((await profile(forge({}))).status).toBe(401);
  });

  it.each([
    ['no token', undefined, undefined],
    ['a malformed header', undefined, 'Token abc'],
    ['garbage', 'not-a-jwt', undefined],
    ['a wrong audience', { aud: 'someone-else' }, undefined],
    ['a wrong issuer', { iss: 'https://securetoken.google.com/someone-else' }, undefined],
    ['an expired token', { iat: 1_600_000_000, auth_time: 1_600_000_000, exp: 1_600_003_600 }, undefined],
    ['an empty subject', { sub: '', user_id: '' }, undefined],
  ])('answers 401 for %s', async (_name, claims, header) => {
    const token =
      claims === undefined
        ? undefined
        : typeof claims === 'string'
          ? claims
          : forge({ sub: realUid, user_id: realUid, ...claims });
    const res = await profile(token, header);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /Authentication required|Invalid or expired token/,
    );
  });

  it('never accepts unsigned tokens when no emulator is configured', async () => {
    const user = await createEmulatorUser(host);
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    try {
      const strict = await createTestApp({ verifyToken: createFirebaseVerifier('demo-nestling-strict') });
      const res = await strict.app.request('/api/profile', {
        headers: { Authorization: `Bearer ${user.idToken}` },
      });
      expect(res.status).toBe(401);
    } finally {
      process.env.FIREBASE_AUTH_EMULATOR_HOST = host;
    }
  });
});

describe('GET /api/profile', () => {
  it('creates the basic profile from the provider name on the first call', async () => {
    const user = await createEmulatorUser(host, { displayName: 'Dana Doe' });
    const res = await profile(user.idToken);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([
      'created_at',
      'display_name',
      'email',
      'firebase_uid',
      'photo_url',
      'role',
      'suspension',
      'updated_at',
      'user_type',
    ]);
    expect(body).toMatchObject({
      firebase_uid: user.uid,
      display_name: 'Dana Doe',
      email: user.email,
      role: 'user',
      user_type: ['buyer'],
      suspension: null,
    });
    // A second call reads the same row.
    expect(await (await profile(user.idToken)).json()).toEqual(body);
  });

  it("falls back to the email's local part", async () => {
    const user = await createEmulatorUser(host, {
      email: `sam.smith@${crypto.randomUUID().slice(0, 8)}.example.com`,
    });
    expect(await (await profile(user.idToken)).json()).toMatchObject({ display_name: 'sam.smith' });
  });

  it("falls back to 'User' with neither name nor email", async () => {
    const res = await profile((await createEmulatorUser(host, { anonymous: true })).idToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ display_name: 'User', email: '' });
  });
});
