import { beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../api/db/content.ts';
import { CONTENT_DIR, createTestApp } from '../helpers/test-db.ts';

const content = loadContent(CONTENT_DIR);
let app: Awaited<ReturnType<typeof createTestApp>>['app'];
/** The sample listings parents see: all but those the sample recall feed holds for a moderator. */
let visible: typeof content.items;

beforeAll(async () => {
  const setup = await createTestApp();
  app = setup.app;
  const open = await setup.db
    .selectFrom('recall_matches')
    .select('item_id')
    .where('status', '=', 'open')
    .execute();
  const held = new Set(open.map((m) => m.item_id));
  expect(held.size).toBeGreaterThan(0);
  visible = content.items.filter((i) => !held.has(i.itemId));
});

async function getJson(path: string) {
  const res = await app.request(path);
  return { status: res.status, body: (await res.json()) as unknown, type: res.headers.get('content-type') };
}

const ITEM_KEYS = [
  'ageGroup',
  'brand',
  'category',
  'checks',
  'condition',
  'imageUrl',
  'itemId',
  'itemName',
  'listingPrice',
  'safetyNotes',
];

describe('GET /api/items', () => {
  it('returns every item in the contract shape', async () => {
    const { status, body, type } = await getJson('/api/items');
    expect(status).toBe(200);
    expect(type).toContain('application/json');
    const items = body as Record<string, unknown>[];
    expect(items.map((i) => i.itemId).sort()).toEqual(visible.map((i) => i.itemId).sort());
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
      expect(item.checks).toEqual({ checkedAt: expect.any(String), ran: ['rules', 'recall'] });
      expect(typeof item.listingPrice).toBe('string');
      expect(typeof item.ageGroup).toBe('string');
    }
  });

  it('defaults a missing age group to All Ages', async () => {
    const items = (await getJson('/api/items')).body as { itemId: string; ageGroup: string }[];
    for (const source of visible) {
      const served = items.find((i) => i.itemId === source.itemId)!;
      expect(served.ageGroup).toBe(source.ageGroup ?? 'All Ages');
    }
  });
});

describe('GET /api/items/featured', () => {
  it('defaults to 4 featured items', async () => {
    const { status, body } = await getJson('/api/items/featured');
    expect(status).toBe(200);
    const featuredIds = new Set(visible.filter((i) => i.featured).map((i) => i.itemId));
    const items = body as { itemId: string }[];
    expect(items).toHaveLength(Math.min(4, featuredIds.size));
    for (const item of items) expect(featuredIds.has(item.itemId)).toBe(true);
  });

  it('honours limit from 1 to 50', async () => {
    expect(((await getJson('/api/items/featured?limit=1')).body as unknown[]).length).toBe(1);
    const featured = visible.filter((i) => i.featured).length;
    expect(((await getJson('/api/items/featured?limit=50')).body as unknown[]).length).toBe(
      Math.min(50, featured),
    );
  });

  it.each(['0', '51', '-1', '2.5', 'abc', '', '1e1', '4;drop table items'])(
    'rejects limit=%j with 400',
    async (limit) => {
      const { status, body } = await getJson(`/api/items/featured?limit=${encodeURIComponent(limit)}`);
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'limit: must be an integer from 1 to 50' });
    },
  );
});

describe('GET /api/items/categories', () => {
  it('maps each category with items to its count', async () => {
    const { status, body } = await getJson('/api/items/categories');
    expect(status).toBe(200);
    const expected: Record<string, number> = {};
    for (const item of visible) expected[item.category] = (expected[item.category] ?? 0) + 1;
    expect(body).toEqual(expected);
    expect(body).not.toHaveProperty('health');
  });
});
