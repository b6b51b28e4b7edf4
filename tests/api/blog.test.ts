import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { loadContent } from '../../api/db/content.ts';
import { openDatabase } from '../../api/db/database.ts';
import { migrateToLatest } from '../../api/db/migrate.ts';
import { syncContent } from '../../api/db/sync.ts';
import { createContentDir } from '../helpers/content-fixture.ts';
import { CONTENT_DIR, TEST_NOW, createTestApp, newDatabaseLocation, releaseNow } from '../helpers/test-db.ts';

const content = loadContent(CONTENT_DIR);
const live = content.posts.filter((p) => !p.draft);
let app: Awaited<ReturnType<typeof createTestApp>>['app'];

beforeAll(async () => {
  ({ app } = await createTestApp());
});

interface Post {
  postId: number;
  slug: string;
  title: string;
  content: string;
  publishedAt: string | null;
  createdAt: string;
  viewCount: number;
  likeCount: number;
  commentCount: number;
  readingTimeMinutes: number;
  isFeatured: boolean;
  relatedCategories: string[];
}

const POST_KEYS = [
  'authorName',
  'commentCount',
  'content',
  'createdAt',
  'excerpt',
  'featuredImageAlt',
  'featuredImageUrl',
  'isFeatured',
  'likeCount',
  'postId',
  'publishedAt',
  'readingTimeMinutes',
  'relatedCategories',
  'slug',
  'title',
  'viewCount',
];

async function get<T>(path: string): Promise<{ status: number; body: T }> {
  const res = await app.request(path);
  return { status: res.status, body: (await res.json()) as T };
}

describe('GET /api/blog/posts', () => {
  it('lists exactly the published posts, newest first, in the contract shape', async () => {
    const { status, body } = await get<Post[]>('/api/blog/posts');
    expect(status).toBe(200);
    expect(body).toHaveLength(live.length);
    for (const post of body) expect(Object.keys(post).sort()).toEqual(POST_KEYS);
    const dates = body.map((p) => p.publishedAt ?? p.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('gives category slugs, a reading time and exactly one featured post', async () => {
    const { body } = await get<Post[]>('/api/blog/posts');
    expect(body.filter((p) => p.isFeatured)).toHaveLength(1);
    for (const post of body) {
      const source = content.posts.find((p) => p.slug === post.slug)!;
      expect(post.relatedCategories).toEqual([...source.categories].sort());
      const words = source.body.split(/\s+/).filter(Boolean).length;
      expect(post.readingTimeMinutes).toBeGreaterThanOrEqual(1);
      expect(post.readingTimeMinutes).toBeLessThanOrEqual(Math.max(1, Math.ceil(words / 200)));
    }
  });

  it('serves each body as sanitized HTML', async () => {
    const { body } = await get<Post[]>('/api/blog/posts');
    const withBody = body.filter((p) => p.content);
    expect(withBody.length).toBeGreaterThan(0);
    for (const post of withBody) {
      expect(post.content).toMatch(/^<(p|h2|h3|ul|ol|blockquote)/);
      expect(post.content).not.toMatch(/<script|on\w+=|javascript:/i);
    }
  });
});

describe('GET /api/blog/categories', () => {
  it('lists every category in the contract shape', async () => {
    const { status, body } = await get<Record<string, unknown>[]>('/api/blog/categories');
    expect(status).toBe(200);
    expect(body).toHaveLength(content.categories.length);
    for (const category of body) {
      expect(Object.keys(category).sort()).toEqual(['categoryId', 'categoryName', 'colorHex', 'slug']);
    }
  });
});

describe('GET /api/blog/posts/:slug', () => {
  it('returns one post', async () => {
    const slug = live[0]!.slug;
    const { status, body } = await get<Post>(`/api/blog/posts/${slug}`);
    expect(status).toBe(200);
    expect(body.slug).toBe(slug);
    expect(Object.keys(body).sort()).toEqual(POST_KEYS);
  });

  it.each(['no-such-post', 'UPPER', "x' or '1'='1", '..%2F..%2Fetc'])(
    'answers 404 JSON for %j',
    async (slug) => {
      const { status, body } = await get(`/api/blog/posts/${encodeURIComponent(slug)}`);
      expect(status).toBe(404);
      expect(body).toEqual({ error: 'Post not found' });
    },
  );

  it('rejects an absurdly long slug with 400', async () => {
    const { status, body } = await get<{ error: string }>(`/api/blog/posts/${'a'.repeat(300)}`);
    expect(status).toBe(400);
    expect(body.error).toMatch(/^slug: /);
  });
});

describe('POST /api/blog/posts/:slug/view', () => {
  it('counts each view once and returns the new count', async () => {
    const slug = live[1]!.slug;
    const before = (await get<Post>(`/api/blog/posts/${slug}`)).body.viewCount;
    const res = await app.request(`/api/blog/posts/${slug}/view`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ viewCount: before + 1 });
    expect((await get<Post>(`/api/blog/posts/${slug}`)).body.viewCount).toBe(before + 1);
  });

  it('answers 404 for an unknown post', async () => {
    const res = await app.request('/api/blog/posts/nope/view', { method: 'POST' });
    expect(res.status).toBe(404);
  });
});

describe('unknown endpoints', () => {
  it('answer JSON 404', async () => {
    const { status, body } = await get<{ error: string }>('/api/nothing-here');
    expect(status).toBe(404);
    expect(body.error).toContain('/api/nothing-here');
  });
});

describe('publication rules', () => {
  it('hides drafts and posts scheduled for later, and falls back to createdAt order', async () => {
    const dir = createContentDir([
      { slug: 'older', publishedAt: '2026-01-01T00:00:00Z' },
      { slug: 'newer', publishedAt: '2026-06-01T00:00:00Z' },
      { slug: 'draft-post', publishedAt: '2026-07-01T00:00:00Z', draft: true },
      { slug: 'scheduled', publishedAt: '2027-01-01T00:00:00Z' },
      {
        slug: 'unsafe',
        publishedAt: '2026-03-01T00:00:00Z',
        body: '<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1))',
      },
    ]);
    const db = openDatabase(await newDatabaseLocation());
    await migrateToLatest(db);
    await syncContent(db, loadContent(dir), TEST_NOW);
    await releaseNow(db, TEST_NOW);
    const rulesApp = createApp({ db, now: () => TEST_NOW });
    const posts = (await (await rulesApp.request('/api/blog/posts')).json()) as Post[];
    expect(posts.map((p) => p.slug)).toEqual(['newer', 'unsafe', 'older']);
    expect((await rulesApp.request('/api/blog/posts/scheduled')).status).toBe(404);
    expect((await rulesApp.request('/api/blog/posts/draft-post')).status).toBe(404);
    expect(await (await rulesApp.request('/api/community/count')).json()).toEqual({ total: 3 });

    const unsafe = posts.find((p) => p.slug === 'unsafe')!;
    expect(unsafe.content).not.toMatch(/<script|onerror|href="javascript:/i);
    expect(unsafe.content).toContain('<a>x</a>');

    // The scheduled post goes live with the first release made after its time has come.
    const time = new Date('2027-01-02T00:00:00Z');
    const unreleased = createApp({ db, now: () => time });
    expect((await unreleased.request('/api/blog/posts/scheduled')).status).toBe(404);
    await releaseNow(db, time);
    const later = createApp({ db, now: () => time });
    expect((await later.request('/api/blog/posts/scheduled')).status).toBe(200);
    await db.destroy();
  });
});
