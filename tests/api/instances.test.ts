// Two instances of the real server on one PostgreSQL database: two in-process apps behind two real
// @hono/node-server listeners, each with its own pool, production read cache and the product's
// limits. Everything that must hold across instances lives in the database (docs/architecture.md,
// "Several instances"): the comment limit, likes, suspensions, erasures; what one instance caches is
// at most a second behind the other's writes.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { LikeStatus, PostStats } from '../../api/contract.ts';
import { type DB, openDatabase } from '../../api/db/database.ts';
import { setRoleByEmail } from '../../api/db/queries/profiles.ts';
import { READ_CACHE_MS, readCache } from '../../api/middleware/read-cache.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import type { TokenVerifier } from '../../api/auth/verifier.ts';
import {
  createEmulatorUser,
  EMULATOR_PROJECT_ID,
  type EmulatorUser,
} from '../../scripts/lib/auth-emulator.ts';
import { emulatorAccounts, emulatorVerifier } from '../helpers/parents.ts';
import { createTestDb, onPostgres } from '../helpers/test-db.ts';
import { tempDir } from '../../scripts/lib/temp.ts';

let servers: RunningServer[] = [];
let location: string;
/** A connection of the test's own, as `npm run user:role` would have, beside the two instances. */
let db: DB;
let slug: string;
let postId: number;

/**
 * The verifier a second process would have. In this process both instances would share one module,
 * and with it one set of verified tokens; a fresh copy of the module keeps its own, as another
 * process does, so it knows nothing of what the first instance forgets.
 */
async function anotherProcessVerifier(): Promise<TokenVerifier> {
  emulatorVerifier(); // points firebase-admin at the emulator
  const copy = '../../api/auth/verifier.ts?another-process';
  const verifier = (await import(/* @vite-ignore */ copy)) as typeof import('../../api/auth/verifier.ts');
  return verifier.createFirebaseVerifier(EMULATOR_PROJECT_ID);
}

async function instance(verifyToken: TokenVerifier): Promise<RunningServer> {
  return startServer({
    db: openDatabase(location),
    siteDir: tempDir('nestling-empty-site-'),
    host: '127.0.0.1',
    port: 0,
    deps: {
      verifyToken,
      accounts: emulatorAccounts(),
      safety: { holdFirstComment: false, escalationUrl: null, siteUrl: 'http://nestling.test' },
      readCache: readCache({ ttlMs: READ_CACHE_MS }),
    },
  });
}

function send(server: RunningServer, method: string, path: string, token?: string, body?: unknown) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * Runs `read` as if the read cache's lifetime had passed since now. The cache's clock is Date.now
 * (the servers run in this process), so it is moved instead of waited for.
 */
async function afterCacheLifetime<T>(read: () => Promise<T>): Promise<T> {
  const realNow = Date.now;
  Date.now = () => realNow() + READ_CACHE_MS;
  try {
    return await read();
  } finally {
    Date.now = realNow;
  }
}

const stats = async (server: RunningServer) =>
  (await (await send(server, 'GET', `/api/blog/posts/${slug}/stats`)).json()) as PostStats;

const parent = (displayName = 'Parent') => createEmulatorUser(inject('authEmulatorHost'), { displayName });

describe.runIf(onPostgres())('two server instances on one PostgreSQL database', () => {
  beforeAll(async () => {
    ({ db, location } = await createTestDb());
    const post = await db
      .selectFrom('blog_posts')
      .select(['post_id', 'slug'])
      .where('is_published', '=', 1)
      .orderBy('post_id')
      .executeTakeFirstOrThrow();
    [slug, postId] = [post.slug, post.post_id];
    servers = [await instance(emulatorVerifier()), await instance(await anotherProcessVerifier())];
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await db?.destroy();
  });

  it("counts a parent's comments against one limit on both", async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const carol = await parent('Carol');
    const comment = (server: RunningServer, n: number) =>
      send(server, 'POST', `/api/blog/posts/${postId}/comments`, carol.idToken, { content: `Note ${n}` });
    // The product's 5 a minute: three here, two there …
    for (const [n, server] of [a, b, a, b, a].entries()) expect((await comment(server, n)).status).toBe(201);
    // … and the sixth is refused by either.
    for (const server of [a, b]) {
      const refused = await comment(server, 6);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    }
  });

  it('shows a like made on one on the other within a second', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const before = await stats(b); // now in b's read cache
    const dana = await parent('Dana');
    const liked = (await (
      await send(a, 'POST', `/api/blog/posts/${slug}/like`, dana.idToken)
    ).json()) as LikeStatus;
    expect(liked).toEqual({ liked: true, likeCount: before.likeCount + 1 });
    // a's own answers change at once (its write dropped them); b may answer from its cache for at
    // most the cache's second.
    expect((await stats(a)).likeCount).toBe(before.likeCount + 1);
    expect((await afterCacheLifetime(() => stats(b))).likeCount).toBe(before.likeCount + 1);
  });

  it('counts 50 likes from 50 parents at once, split across both, exactly', async () => {
    const parents: EmulatorUser[] = await Promise.all(Array.from({ length: 50 }, () => parent()));
    const { like_count: before } = await db
      .selectFrom('blog_posts')
      .select('like_count')
      .where('post_id', '=', postId)
      .executeTakeFirstOrThrow();
    const answers = await Promise.all(
      parents.map((p, i) => send(servers[i % 2]!, 'POST', `/api/blog/posts/${slug}/like`, p.idToken)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    const counts = (await Promise.all(answers.map((r) => r.json()))) as LikeStatus[];
    // Each answer is the count its own transaction left: 50 different numbers, the last the total.
    expect(new Set(counts.map((c) => c.likeCount)).size).toBe(50);
    expect(Math.max(...counts.map((c) => c.likeCount))).toBe(before + 50);
    for (const server of servers) {
      expect((await afterCacheLifetime(() => stats(server))).likeCount).toBe(before + 50);
    }
  });

  it('refuses a suspended parent on the instance that did not suspend them', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const moderator = await parent('Mo');
    const erin = await parent('Erin');
    for (const user of [moderator, erin])
      expect((await send(a, 'GET', '/api/profile', user.idToken)).status).toBe(200);
    await setRoleByEmail(db, moderator.email, 'moderator', new Date());
    const suspended = await send(a, 'POST', `/api/moderation/users/${erin.uid}/suspend`, moderator.idToken, {
      days: 1,
      reason: 'Cooling off',
    });
    expect(suspended.status).toBe(201);
    const refused = await send(b, 'POST', `/api/blog/posts/${slug}/like`, erin.idToken);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(/suspended .*Cooling off/);
  });

  it('refuses an erased parent on the other instance within seconds, and does not bring them back', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const fay = await parent('Fay');
    // Both instances verify her token and keep it as verified.
    for (const server of [a, b])
      expect((await send(server, 'GET', '/api/profile', fay.idToken)).status).toBe(200);
    const erased = await send(a, 'DELETE', '/api/account', fay.idToken, { confirmEmail: fay.email });
    expect(erased.status).toBe(200);
    // A read that also takes anonymous callers refuses her token too, within seconds: b still
    // holds it as verified, and only the revocation row tells it otherwise.
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 5000) {
      status = (await send(b, 'GET', `/api/blog/posts/${slug}/like-status`, fay.idToken)).status;
    }
    expect(status).toBe(401);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await send(b, 'GET', '/api/profile', fay.idToken)).status).toBe(401);
    // The answers in between must not have made her a profile again.
    const profile = await db
      .selectFrom('users_profile')
      .select('firebase_uid')
      .where('firebase_uid', '=', fay.uid)
      .executeTakeFirst();
    expect(profile).toBeUndefined();
    expect((await send(b, 'POST', `/api/blog/posts/${slug}/like`, fay.idToken)).status).toBe(401);
  });
});
