// The server's micro-cache of anonymous reads, on the real app over a real database.
import { describe, expect, inject, it } from 'vitest';
import { liveReleaseSource } from '../../api/lib/live-release.ts';
import { readCache } from '../../api/middleware/read-cache.ts';
import { createServedApi } from '../../api/node/served-api.ts';
import { createFirebaseVerifier } from '../../api/auth/verifier.ts';
import { createEmulatorUser, EMULATOR_PROJECT_ID } from '../../scripts/lib/auth-emulator.ts';
import { createTestApp, createTestDb, TEST_NOW } from '../helpers/test-db.ts';

describe('the read cache', () => {
  it('reuses an anonymous answer, and a write drops only the answers it changed', async () => {
    const host = inject('authEmulatorHost');
    process.env.FIREBASE_AUTH_EMULATOR_HOST = host;
    const { app, db } = await createTestApp({
      readCache: readCache({ ttlMs: 60_000 }),
      verifyToken: createFirebaseVerifier(EMULATOR_PROJECT_ID),
    });
    const parent = await createEmulatorUser(host);
    const [a, b] = (await (await app.request('/api/blog/posts')).json()) as {
      slug: string;
      postId: number;
    }[];
    const views = async (slug: string) =>
      ((await (await app.request(`/api/blog/posts/${slug}`)).json()) as { viewCount: number }).viewCount;
    const beforeA = await views(a!.slug);
    const beforeB = await views(b!.slug);

    // A change behind the API's back (another process) is not seen while the answer is fresh …
    await db
      .updateTable('blog_posts')
      .set((eb) => ({ view_count: eb('view_count', '+', 100) }))
      .execute();
    expect(await views(a!.slug)).toBe(beforeA);
    expect(await views(b!.slug)).toBe(beforeB);

    // … a like drops that post's answers and the lists, and nothing of other posts …
    const like = await app.request(`/api/blog/posts/${a!.slug}/like`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${parent.idToken}` },
    });
    expect(like.status).toBe(200);
    expect(await views(a!.slug)).toBe(beforeA + 100);
    expect(await views(b!.slug)).toBe(beforeB);

    // … and a view beacon drops nothing: its count is answered from the view buffer.
    const view = await app.request(`/api/blog/posts/${b!.slug}/view`, { method: 'POST' });
    expect(await view.json()).toEqual({ viewCount: beforeB + 101 });
    expect(await views(b!.slug)).toBe(beforeB);

    // A comment drops the kept first pages of threads (what a build reads) with its post's own.
    const firstPage = async () =>
      (
        (await (await app.request(`/api/blog/threads?posts=${a!.postId}`)).json()) as {
          comments: unknown[];
        }[]
      )[0]!.comments.length;
    const shown = await firstPage();
    const comment = await app.request(`/api/blog/posts/${a!.postId}/comments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${parent.idToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'A comment the kept first page must show.' }),
    });
    expect(comment.status).toBe(201);
    expect(await firstPage()).toBe(shown + 1);
  });

  it('gives a kept answer to an anonymous GET before the app runs, the same as the app gave', async () => {
    const { db } = await createTestDb();
    const app = createServedApi({
      db,
      now: () => TEST_NOW,
      // The release read stays fresh on a stopped clock: a kept answer is given before the app runs
      // only while it is (on a busy machine a second passed between two requests here).
      release: liveReleaseSource(db, { now: () => 0 }),
      readCache: readCache({ ttlMs: 60_000 }),
    });
    const url = 'http://localhost/api/blog/posts';
    const brotli = { 'Accept-Encoding': 'br' };
    const made = await app.fetch(new Request(url, { headers: brotli }));
    const madeBody = Buffer.from(await made.arrayBuffer());

    // Kept: answered at once, not as a promise, with the same status, headers and bytes.
    const kept = app.fetch(new Request(url, { headers: brotli }));
    if (!(kept instanceof Response)) throw new Error('a kept answer came as a promise');
    expect(kept.status).toBe(made.status);
    expect([...kept.headers]).toEqual([...made.headers]);
    expect(made.headers.get('content-encoding')).toBe('br');
    expect(made.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await kept.arrayBuffer())).toEqual(madeBody);

    // Anything else goes through the app: a signed-in reader, a HEAD, another scheme, a write.
    const throughApp = [
      new Request(url, { headers: { ...brotli, Authorization: 'Bearer x' } }),
      new Request(url, { method: 'HEAD', headers: brotli }),
      new Request(url, { headers: { ...brotli, 'X-Forwarded-Proto': 'https' } }),
      new Request('http://localhost/api/blog/posts/no-such-post/view', { method: 'POST' }),
    ];
    for (const request of throughApp) {
      const answer = app.fetch(request);
      expect(answer).toBeInstanceOf(Promise);
      await answer;
    }
    // Over HTTPS the answer is kept apart, with HSTS, and then given at once too.
    const https = app.fetch(new Request(url, { headers: { ...brotli, 'X-Forwarded-Proto': 'https' } }));
    if (!(https instanceof Response)) throw new Error('a kept HTTPS answer came as a promise');
    expect(https.headers.get('strict-transport-security')).toMatch(/^max-age=/);
    expect(kept.headers.get('strict-transport-security')).toBeNull();
  });

  it('expires answers after its lifetime and never caches requests with a token', async () => {
    let clock = 0;
    const { app, db } = await createTestApp({ readCache: readCache({ ttlMs: 1_000 }) });
    // The middleware's clock is Date.now; steer it through the lifetime instead of sleeping.
    const realNow = Date.now;
    Date.now = () => realNow() + clock;
    try {
      const { slug } = await db
        .selectFrom('blog_posts')
        .select('slug')
        .where('post_id', '=', 1)
        .executeTakeFirstOrThrow();
      const likes = async (headers: Record<string, string> = {}) =>
        (
          (await (await app.request(`/api/blog/posts/${slug}/stats`, { headers })).json()) as {
            likeCount: number;
          }
        ).likeCount;
      const before = await likes();
      // Another process's write (another instance's like).
      await db
        .updateTable('blog_posts')
        .set({ like_count: before + 7 })
        .where('post_id', '=', 1)
        .execute();
      expect(await likes()).toBe(before);
      clock = 1_001;
      expect(await likes()).toBe(before + 7);
      await db
        .updateTable('blog_posts')
        .set({ like_count: before + 8 })
        .where('post_id', '=', 1)
        .execute();
      expect(await likes({ Authorization: 'Bearer x' })).toBe(before + 8);
    } finally {
      Date.now = realNow;
    }
  });
});
