// The server's micro-cache of anonymous reads, on the real app over a real database.
import { describe, expect, it } from 'vitest';
import { createFirebaseVerifier } from '../../api/auth/verifier.ts';
import { EMULATOR_PROJECT_ID } from '../helpers/auth-emulator.ts';
import { createTestApp } from '../helpers/test-db.ts';

describe('the read cache', () => {
  it('reuses an anonymous answer within its lifetime, and drops it after a write', async () => {
    const { app, db } = await createTestApp({
      readCacheMs: 60_000,
      verifyToken: createFirebaseVerifier(EMULATOR_PROJECT_ID),
    });
    const [first] = (await (await app.request('/api/blog/posts')).json()) as {
      slug: string;
      viewCount: number;
    }[];
    const read = async () =>
      ((await (await app.request(`/api/blog/posts/${first!.slug}`)).json()) as { viewCount: number })
        .viewCount;
    const before = await read();

    // A change behind the API's back (another process) is not seen while the answer is fresh …
    await db
      .updateTable('blog_posts')
      .set({ view_count: before + 100 })
      .where('slug', '=', first!.slug)
      .execute();
    expect(await read()).toBe(before);

    // … but any write through the API empties the cache.
    const view = await app.request(`/api/blog/posts/${first!.slug}/view`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(view.status).toBe(200);
    expect(await read()).toBe(before + 101);
  });

  it('expires answers after its lifetime and never caches requests with a token', async () => {
    let clock = 0;
    const { app, db } = await createTestApp({ readCacheMs: 1_000 });
    // The middleware's clock is Date.now; steer it through the lifetime instead of sleeping.
    const realNow = Date.now;
    Date.now = () => realNow() + clock;
    try {
      const count = async (headers: Record<string, string> = {}) =>
        ((await (await app.request('/api/community/count', { headers })).json()) as { total: number }).total;
      const total = await count();
      await db.updateTable('blog_posts').set({ is_published: 0 }).where('post_id', '=', 1).execute();
      expect(await count()).toBe(total);
      clock = 1_001;
      expect(await count()).toBe(total - 1);
      await db.updateTable('blog_posts').set({ is_published: 1 }).where('post_id', '=', 1).execute();
      const withToken = await app.request('/api/community/count', { headers: { Authorization: 'Bearer x' } });
      expect(((await withToken.json()) as { total: number }).total).toBe(total);
    } finally {
      Date.now = realNow;
    }
  });
});
