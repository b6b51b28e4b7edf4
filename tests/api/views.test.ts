// Post views: counted at once, written in batches, never lost on a graceful stop.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../api/db/database.ts';
import { sql } from 'kysely';
import * as postViewDays from '../../api/db/migrations/2026-11-26-001-post-view-days.ts';
import { addViews } from '../../api/db/queries/posts.ts';
import { createViewBuffer } from '../../api/lib/view-buffer.ts';
import { startServer } from '../../api/server.ts';
import { createApp } from '../../api/app.ts';
import { createTestApp, createTestDb, TEST_NOW } from '../helpers/test-db.ts';
import { tempDir } from '../../scripts/lib/temp.ts';

async function stored(db: Awaited<ReturnType<typeof createTestDb>>['db'], slug: string) {
  const post = await db
    .selectFrom('blog_posts')
    .select(['post_id', 'view_count'])
    .where('slug', '=', slug)
    .executeTakeFirstOrThrow();
  const days = await db
    .selectFrom('post_view_days')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('views'), eb.lit(0)).as('n'))
    .where('post_id', '=', post.post_id)
    .executeTakeFirstOrThrow();
  return { viewCount: post.view_count, daily: Number(days.n) };
}

describe('the view beacon', () => {
  it('answers the count at once and writes a batch in one go', async () => {
    const { db } = await createTestDb();
    // A long interval, flushed by hand: what is pending is visible before it is written.
    const views = createViewBuffer(db, { flushAfterMs: 60_000 });
    const app = createApp({ db, views, now: () => TEST_NOW });
    const [post] = await db.selectFrom('blog_posts').select('slug').orderBy('post_id').limit(1).execute();
    const slug = post!.slug;
    const before = await stored(db, slug);

    const answers = [];
    for (let i = 0; i < 25; i++) {
      const res = await app.request(`/api/blog/posts/${slug}/view`, { method: 'POST' });
      expect(res.status).toBe(200);
      answers.push(((await res.json()) as { viewCount: number }).viewCount);
    }
    expect(answers).toEqual(Array.from({ length: 25 }, (_, i) => before.viewCount + i + 1));
    // Not written yet, but every answer that shows the count includes it.
    expect(await stored(db, slug)).toEqual(before);
    const stats = (await (await app.request(`/api/blog/posts/${slug}/stats`)).json()) as {
      viewCount: number;
    };
    expect(stats.viewCount).toBe(before.viewCount + 25);
    const full = (await (await app.request(`/api/blog/posts/${slug}`)).json()) as { viewCount: number };
    expect(full.viewCount).toBe(before.viewCount + 25);

    await views.flush();
    expect(await stored(db, slug)).toEqual({ viewCount: before.viewCount + 25, daily: before.daily + 25 });
    const { post_id } = await db
      .selectFrom('blog_posts')
      .select('post_id')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow();
    expect(views.pending(post_id)).toBe(0);
  });

  it("answers exact counts across writes, and another server's written views within the interval", async () => {
    const { db } = await createTestDb();
    let clock = TEST_NOW.getTime();
    // Written by hand; the clock moves the stored count's lifetime (one interval) along.
    const views = createViewBuffer(db, { flushAfterMs: 60_000, now: () => new Date(clock) });
    const app = createApp({ db, views, now: () => TEST_NOW });
    const [post] = await db
      .selectFrom('blog_posts')
      .select(['slug', 'post_id'])
      .orderBy('post_id')
      .limit(1)
      .execute();
    const before = await stored(db, post!.slug);
    const view = async () =>
      (
        (await (await app.request(`/api/blog/posts/${post!.slug}/view`, { method: 'POST' })).json()) as {
          viewCount: number;
        }
      ).viewCount;

    const answers = [await view(), await view(), await view()];
    // A write moves views from waiting to stored: the count goes on without a gap or a repeat.
    await views.flush();
    answers.push(await view(), await view());
    expect(answers).toEqual([1, 2, 3, 4, 5].map((n) => before.viewCount + n));
    // Another server writes 10 views of its own: this one's answers show them once its stored
    // count is an interval old (and at once after its own next write).
    await addViews(db, new Map([[post!.post_id, 10]]), TEST_NOW);
    expect(await view()).toBe(before.viewCount + 6);
    clock += 60_000;
    expect(await view()).toBe(before.viewCount + 17);
    await views.flush();
    expect(await stored(db, post!.slug)).toMatchObject({ viewCount: before.viewCount + 17 });
  });

  it('writes by itself after the interval', async () => {
    const { db } = await createTestDb();
    const views = createViewBuffer(db, { flushAfterMs: 20 });
    const app = createApp({ db, views, now: () => TEST_NOW });
    const [post] = await db.selectFrom('blog_posts').select('slug').orderBy('post_id').limit(1).execute();
    const before = await stored(db, post!.slug);
    await app.request(`/api/blog/posts/${post!.slug}/view`, { method: 'POST' });
    await expect
      .poll(() => stored(db, post!.slug))
      .toEqual({
        viewCount: before.viewCount + 1,
        daily: before.daily + 1,
      });
  });

  it('answers 404 for an unknown post and counts nothing', async () => {
    const { app } = await createTestApp();
    const res = await app.request('/api/blog/posts/no-such-post/view', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Post not found' });
  });

  it('writes pending views before the server closes the database', async () => {
    const { db, location } = await createTestDb();
    const [post] = await db.selectFrom('blog_posts').select('slug').orderBy('post_id').limit(1).execute();
    const before = await stored(db, post!.slug);
    const server = await startServer({
      db,
      siteDir: tempDir('nestling-empty-site-'),
      host: '127.0.0.1',
      port: 0,
      deps: { views: createViewBuffer(db, { flushAfterMs: 60_000 }) },
    });
    for (let i = 0; i < 3; i++) {
      expect(
        (await fetch(`${server.url}/api/blog/posts/${post!.slug}/view`, { method: 'POST' })).status,
      ).toBe(200);
    }
    await server.close();
    const reopened = openDatabase(location);
    expect(await stored(reopened, post!.slug)).toEqual({
      viewCount: before.viewCount + 3,
      daily: before.daily + 3,
    });
    // The beacons' per-address counts went with them (api/middleware/rate-limit.ts).
    const counted = await reopened
      .selectFrom('rate_limits')
      .select('hits')
      .where('scope', '=', 'views')
      .where('key', '=', '127.0.0.1')
      .executeTakeFirst();
    expect(counted).toEqual({ hits: 3 });
    await reopened.destroy();
  });
});

describe('views per post and day', () => {
  it('counts each post once a day, and keeps the views of a database from before the day counts', async () => {
    const { db } = await createTestDb();
    const [a, b] = await db.selectFrom('blog_posts').select('post_id').orderBy('post_id').limit(2).execute();
    const day1 = new Date('2026-11-20T23:59:00Z');
    const day2 = new Date('2026-11-21T00:01:00Z');
    await addViews(db, new Map([[a!.post_id, 3]]), day1);
    await addViews(
      db,
      new Map([
        [a!.post_id, 2],
        [b!.post_id, 1],
      ]),
      day2,
    );
    await addViews(db, new Map([[a!.post_id, 4]]), day2);
    const days = () =>
      db.selectFrom('post_view_days').selectAll().orderBy('post_id').orderBy('day').execute();
    const counted = [
      { post_id: a!.post_id, day: '2026-11-20', views: 3 },
      { post_id: a!.post_id, day: '2026-11-21', views: 6 },
      { post_id: b!.post_id, day: '2026-11-21', views: 1 },
    ];
    expect(await days()).toEqual(counted);

    // Back to one row per view (at the start of its day), one more from that time, and up again.
    await postViewDays.down(db);
    const rows = await sql<{ n: number }>`select count(*) as n from post_views`.execute(db);
    expect(Number(rows.rows[0]!.n)).toBe(10);
    await sql`insert into post_views (post_id, viewed_at) values (${b!.post_id}, '2026-11-19T15:30:00.000Z')`.execute(
      db,
    );
    await postViewDays.up(db);
    expect(await days()).toEqual([
      ...counted.slice(0, 2),
      { post_id: b!.post_id, day: '2026-11-19', views: 1 },
      counted[2],
    ]);
    await db.destroy();
  });
});
