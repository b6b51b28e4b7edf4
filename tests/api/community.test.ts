import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_DIR, createTestApp } from '../helpers/test-db.ts';
import { loadContent } from '../../api/db/content.ts';

const content = loadContent(CONTENT_DIR);
const live = content.posts.filter((p) => !p.draft);
let app: Awaited<ReturnType<typeof createTestApp>>['app'];

beforeAll(async () => {
  ({ app } = await createTestApp());
});

const ENTRY_KEYS = [
  'author',
  'commentCount',
  'excerpt',
  'featuredImageAlt',
  'featuredImageUrl',
  'id',
  'likeCount',
  'slug',
  'title',
  'type',
  'viewCount',
];

describe('GET /api/community/feed', () => {
  it('returns the newest posts of both kinds in the contract shape', async () => {
    const res = await app.request('/api/community/feed?limit=3');
    expect(res.status).toBe(200);
    const entries = (await res.json()) as Record<string, unknown>[];
    expect(entries).toHaveLength(3);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(ENTRY_KEYS);
      expect(['article', 'discussion']).toContain(entry.type);
    }
    const newest = [...live].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt)).slice(0, 3);
    expect(entries.map((e) => e.slug)).toEqual(newest.map((p) => p.slug));
  });

  it('includes discussions and articles alike', async () => {
    const entries = (await (await app.request('/api/community/feed?limit=50')).json()) as { type: string }[];
    expect(entries.some((e) => e.type === 'discussion')).toBe(true);
    expect(entries.some((e) => e.type === 'article')).toBe(true);
  });

  it('rejects a bad limit', async () => {
    const res = await app.request('/api/community/feed?limit=100');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'limit: must be an integer from 1 to 50' });
  });
});

describe('GET /api/community/count', () => {
  it('counts every published post', async () => {
    const res = await app.request('/api/community/count');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ total: live.length });
  });
});
