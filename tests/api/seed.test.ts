import fs from 'node:fs';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../api/db/content.ts';
import type { DB } from '../../api/db/database.ts';
import { syncContent } from '../../api/db/sync.ts';
import { createContentDir, writePost } from '../helpers/content-fixture.ts';
import { CONTENT_DIR, TEST_NOW, createTestDb } from '../helpers/test-db.ts';

const TABLES = [
  'items',
  'blog_categories',
  'blog_posts',
  'post_categories',
  'comments',
  'comment_likes',
  'post_likes',
  'post_view_days',
  'users_profile',
];

async function dump(db: DB): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    out[table] = (await sql`select * from ${sql.table(table)} order by 1, 2`.execute(db)).rows;
  }
  return out;
}

describe('seeding from content/', () => {
  it('has the volume the screens need', async () => {
    const content = loadContent(CONTENT_DIR);
    expect(content.items.length).toBeGreaterThanOrEqual(30);
    const itemCategories = new Set(content.items.map((i) => i.category));
    expect(itemCategories.size).toBe(5);
    expect(itemCategories.has('health')).toBe(false);
    expect(content.posts.length).toBeGreaterThanOrEqual(25);
    expect(content.posts.filter((p) => p.featured)).toHaveLength(1);
    expect(content.posts.some((p) => p.kind === 'discussion')).toBe(true);
    expect(content.posts.filter((p) => p.body === '')).toHaveLength(1);
    const used = new Set(content.posts.flatMap((p) => p.categories));
    expect(content.categories.some((c) => !used.has(c.slug))).toBe(true);
    expect(content.categories.some((c) => c.colorHex !== null)).toBe(true);
    expect(content.comments.some((c) => c.replies.length > 0)).toBe(true);
  });

  it('uses only local images that exist under public/', () => {
    const content = loadContent(CONTENT_DIR);
    const images = [
      ...content.items.map((i) => i.imageUrl),
      ...content.posts.map((p) => p.featuredImage),
      ...content.comments.flatMap((c) => [c.authorAvatarUrl, ...c.replies.map((r) => r.authorAvatarUrl)]),
    ].filter((src): src is string => src !== null);
    for (const src of images) {
      expect(src.startsWith('/'), src).toBe(true);
      expect(fs.existsSync(`public${src}`), src).toBe(true);
    }
  });

  it('is idempotent: a second run changes nothing', async () => {
    const { db } = await createTestDb();
    const before = await dump(db);
    const result = await syncContent(db, loadContent(CONTENT_DIR), new Date(TEST_NOW.getTime() + 60_000));
    expect(result.inserted).toEqual([]);
    expect(result.updated).toEqual([]);
    expect(result.unpublished).toEqual([]);
    expect(await dump(db)).toEqual(before);
    await db.destroy();
  });

  it('keeps the denormalised counts equal to the rows', async () => {
    const { db } = await createTestDb();
    const mismatched = await sql<{ post_id: number }>`
      select post_id from blog_posts p where
        like_count != (select count(*) from post_likes l where l.post_id = p.post_id) or
        comment_count != (select count(*) from comments c where c.post_id = p.post_id)`.execute(db);
    expect(mismatched.rows).toEqual([]);
    const comments = await sql<{ n: number }>`select count(*) as n from comments`.execute(db);
    expect(comments.rows[0]!.n).toBeGreaterThan(0);
    const replies = await sql<{
      n: number;
    }>`select count(*) as n from comments where parent_comment_id is not null`.execute(db);
    expect(replies.rows[0]!.n).toBeGreaterThan(0);
    await db.destroy();
  });

  it('updates changed posts, unpublishes removed and drafted ones, and keeps their counts', async () => {
    const dir = createContentDir([{ slug: 'alpha' }, { slug: 'beta' }, { slug: 'gamma' }]);
    const { db } = await createTestDb({ seed: false });
    const first = await syncContent(db, loadContent(dir), TEST_NOW);
    expect(first.inserted.sort()).toEqual(['alpha', 'beta', 'gamma']);

    writePost(dir, { slug: 'alpha', title: 'Alpha, revised', categories: ['tips'] });
    writePost(dir, { slug: 'beta', draft: true });
    fs.rmSync(`${dir}/posts/gamma.md`);
    const second = await syncContent(db, loadContent(dir), TEST_NOW);
    expect(second.updated.sort()).toEqual(['alpha', 'beta']);
    expect(second.unpublished.sort()).toEqual(['beta', 'gamma']);

    const rows = await db
      .selectFrom('blog_posts')
      .select(['slug', 'title', 'is_published'])
      .orderBy('slug')
      .execute();
    expect(rows).toEqual([
      { slug: 'alpha', title: 'Alpha, revised', is_published: 1 },
      { slug: 'beta', title: 'Post beta', is_published: 0 },
      { slug: 'gamma', title: 'Post gamma', is_published: 0 },
    ]);

    // Putting a withdrawn post back publishes it again.
    writePost(dir, { slug: 'gamma' });
    const third = await syncContent(db, loadContent(dir), TEST_NOW);
    expect(third.updated).toEqual(['gamma']);
    await db.destroy();
  });

  it('names the file when a post is broken', () => {
    const dir = createContentDir([{ slug: 'fine' }]);
    writePost(dir, { slug: 'broken', extra: 'featured: "maybe"' });
    expect(() => loadContent(dir)).toThrow(/broken\.md: /);
  });
});
