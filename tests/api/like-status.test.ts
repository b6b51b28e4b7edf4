// GET /api/blog/posts/:slug/like-status on the real app over a real SQLite file, with tokens from
// the real Auth emulator: no token is an anonymous reader; a token that is sent must be valid.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { readCache } from '../../api/middleware/read-cache.ts';
import { createFirebaseVerifier } from '../../api/auth/verifier.ts';
import {
  createEmulatorUser,
  EMULATOR_PROJECT_ID,
  type EmulatorUser,
} from '../../scripts/lib/auth-emulator.ts';
import { createTestApp } from '../helpers/test-db.ts';

type App = Awaited<ReturnType<typeof createTestApp>>['app'];
let app: App;
let parent: EmulatorUser;
let other: EmulatorUser;
let slug: string;

beforeAll(async () => {
  const host = inject('authEmulatorHost');
  process.env.FIREBASE_AUTH_EMULATOR_HOST = host;
  ({ app } = await createTestApp({ verifyToken: createFirebaseVerifier(EMULATOR_PROJECT_ID) }));
  [parent, other] = await Promise.all([createEmulatorUser(host), createEmulatorUser(host)]);
  slug = ((await (await app.request('/api/blog/posts')).json()) as { slug: string }[])[3]!.slug;
});

/** The emulator's unsigned token with some claims changed: real in every other respect. */
function withClaims(token: string, claims: Record<string, unknown>): string {
  const [header, payload] = token.split('.');
  const decoded = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
  return `${header}.${Buffer.from(JSON.stringify({ ...decoded, ...claims })).toString('base64url')}.`;
}

const status = (authorization?: string, on: App = app) =>
  on.request(`/api/blog/posts/${slug}/like-status`, {
    headers: authorization === undefined ? {} : { Authorization: authorization },
  });

async function likeCount(): Promise<number> {
  return ((await (await app.request(`/api/blog/posts/${slug}`)).json()) as { likeCount: number }).likeCount;
}

describe('like status', () => {
  it('answers an anonymous reader without a token', async () => {
    const res = await status();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ liked: false, likeCount: await likeCount() });
  });

  it.each([
    ['another scheme', 'Token abc'],
    ['no token after Bearer', 'Bearer'],
    ['two tokens', 'Bearer a b'],
    ['a token over 4,096 characters', `Bearer ${'x'.repeat(5000)}`],
  ])('answers 401 JSON for a malformed header: %s', async (_name, header) => {
    const res = await status(header);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: 'Authentication required: malformed Authorization header' });
  });

  it.each([
    ['garbage', () => 'not-a-jwt'],
    ['a token with its payload cut', () => parent.idToken.split('.').slice(0, 1).join('.')],
    [
      'an expired token',
      () => withClaims(parent.idToken, { iat: 1_600_000_000, auth_time: 1_600_000_000, exp: 1_600_003_600 }),
    ],
    [
      "another project's token",
      () =>
        withClaims(parent.idToken, {
          aud: 'someone-else',
          iss: 'https://securetoken.google.com/someone-else',
        }),
    ],
  ])('answers 401 JSON for %s, never the anonymous status', async (_name, token) => {
    const res = await status(`Bearer ${token()}`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: 'Invalid or expired token: sign in again' });
  });

  it("answers a signed-in parent with their own liked state and the post's count", async () => {
    const before = await likeCount();
    const notYet = await status(`Bearer ${parent.idToken}`);
    expect(notYet.status).toBe(200);
    expect(await notYet.json()).toEqual({ liked: false, likeCount: before });

    const liked = await app.request(`/api/blog/posts/${slug}/like`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${parent.idToken}`, 'Content-Type': 'application/json' },
    });
    expect(liked.status).toBe(200);
    try {
      expect(await (await status(`Bearer ${parent.idToken}`)).json()).toEqual({
        liked: true,
        likeCount: before + 1,
      });
      // Another parent and an anonymous reader see the count, not the like.
      expect(await (await status(`Bearer ${other.idToken}`)).json()).toEqual({
        liked: false,
        likeCount: before + 1,
      });
      expect(await (await status()).json()).toEqual({ liked: false, likeCount: before + 1 });
    } finally {
      await app.request(`/api/blog/posts/${slug}/like`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${parent.idToken}`, 'Content-Type': 'application/json' },
      });
    }
  });

  it('never answers a bad token from the read cache', async () => {
    const { app: cached } = await createTestApp({
      verifyToken: createFirebaseVerifier(EMULATOR_PROJECT_ID),
      readCache: readCache({ ttlMs: 60_000 }),
    });
    expect((await status(undefined, cached)).status).toBe(200);
    const res = await status('Bearer not-a-jwt', cached);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Invalid or expired token: sign in again' });
  });
});
