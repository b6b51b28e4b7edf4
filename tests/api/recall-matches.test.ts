// Recall screening through the real app (docs/product.md, "Recall screening"): a feed the test
// writes in the CPSC format is imported into a real database (SQLite here, PostgreSQL in api-pg),
// every item is checked, and moderators (emulator parents) confirm or dismiss what was raised. A
// confirmed item leaves every list at once, kept answers of the read cache too, and a publish starts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuditEntry,
  type CategoryCounts,
  type Item,
  type Recall,
  RECALLS_LIMIT_DEFAULT,
  RECALLS_LIMIT_MAX,
  RECALL_MATCH_MIN_SCORE,
  type RecallMatch,
  type RecallMatchResolved,
  type RecallStatus,
} from '../../api/contract.ts';
import { checkAllItems } from '../../api/db/queries/recall-matches.ts';
import { importRecalls } from '../../api/db/queries/recall-imports.ts';
import { readCache } from '../../api/middleware/read-cache.ts';
import type { PublishService } from '../../api/types.ts';
import { createPublisher, type Publisher } from '../../scripts/lib/publisher.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { call, createCommunityApp, expectJson, newParent, type Parent } from '../helpers/parents.ts';
import { CONTENT_DIR, TEST_NOW } from '../helpers/test-db.ts';

type Setup = Awaited<ReturnType<typeof createCommunityApp>>;
let app: Setup['app'];
let db: Setup['db'];
let publisher: Publisher;
let moderator: Parent;
let parent: Parent;
let now = new Date(TEST_NOW.getTime() + 3_600_000);
/** When the test's database last imported a feed. */
let lastImport = now;
const later = () => (now = new Date(now.getTime() + 60_000));

// Items of content/items.json that the sample feed (content/recalls.json) does not flag.
const TILES = 'item-010'; // "Magnetic Tile Set (60 pieces)" by BrightBuild, featured, in toys
const MONITOR = 'item-020'; // "Video Baby Monitor" by NightOwl
const WARMER = 'item-022'; // "Bottle Warmer" by WarmWell

/** A recall as the CPSC service publishes it (fields it does not need are simply missing). */
function record(recallId: number, title: string, product: { Name: string; Model?: string }, maker: string) {
  return {
    RecallID: recallId,
    RecallNumber: `T${recallId}`,
    RecallDate: '2026-11-20T00:00:00',
    Title: title,
    URL: `https://www.cpsc.gov/Recalls/test-${recallId}`,
    LastPublishDate: '2026-11-20T00:00:00',
    Products: [{ Name: product.Name, Model: product.Model ?? '', Type: 'Toys', NumberOfUnits: 'About 900' }],
    Manufacturers: [{ Name: maker, CompanyID: '' }],
    Retailers: [],
    Hazards: [{ Name: 'The product can overheat, posing a burn hazard to children.', HazardTypeID: '' }],
    Remedies: [{ Name: 'Stop using it and contact the firm for a refund.' }],
  };
}

const FEED = [
  // Brand inside the maker's name, and product words: raised.
  record(
    880001,
    'BrightBuild Recalls Magnetic Tiles for Children',
    { Name: 'BrightBuild Magnetic Tiles', Model: 'BB-60' },
    'BrightBuild Toys Co.',
  ),
  // Brand is the maker (suffix aside) and the model is the item's product: raised.
  record(
    880002,
    'NightOwl Recalls Video Baby Monitors Due to Burn Hazard',
    { Name: 'NightOwl Video Baby Monitor', Model: 'NO-VM2' },
    'NightOwl, LLC',
  ),
  // Same brand, different product: a near-miss.
  record(
    880003,
    'WarmWell Recalls Electric Kettles Due to Burn Hazard to Children',
    { Name: 'WarmWell Electric Kettle', Model: 'WW-K1' },
    'WarmWell Inc.',
  ),
];

const SAMPLE: unknown[] = JSON.parse(fs.readFileSync(path.join(CONTENT_DIR, 'recalls.json'), 'utf8'));

const moderation = (method: string, url: string, as: Parent | null, body?: unknown) =>
  call(app, method, `/api/moderation${url}`, { token: as?.token, body });
const matches = (on = app) =>
  expectJson<RecallMatch[]>(
    call(on, 'GET', '/api/moderation/recall-matches', { token: moderator.token }),
    200,
  );
const mine = (list: RecallMatch[]) =>
  list.filter((m) => m.recall.recallId >= 880001 && m.recall.recallId <= 880099);
const matchOf = async (itemId: string, recallId: number) =>
  (await matches()).find((m) => m.item.itemId === itemId && m.recall.recallId === recallId);
const resolve = (matchId: number, body: unknown, as: Parent | null = moderator, on = app) =>
  call(on, 'POST', `/api/moderation/recall-matches/${matchId}/resolve`, { token: as?.token, body });

beforeAll(async () => {
  // The publisher needs the database the app makes, so the app gets a service that calls it.
  const publishing: PublishService = {
    request: (trigger) => publisher.request(trigger),
    rollback: (actor, reason) => publisher.rollback(actor, reason),
  };
  ({ app, db } = await createCommunityApp({ now: () => now, publisher: publishing }));
  const siteDir = path.join(tempDir(), 'site');
  publisher = createPublisher({
    db,
    contentDir: CONTENT_DIR,
    siteDir,
    buildEnv: {},
    log: () => {},
    build: async (dir) => {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'built'), 'test');
    },
  });
  moderator = await newParent(app, db, 'Mo Moderator', 'moderator');
  parent = await newParent(app, db, 'Pia Parent');
  // With the sample's recalls: the first import of other data replaces the sample, and its open
  // matches are what the list puts ahead of the decided ones.
  await importRecalls(db, [...SAMPLE, ...FEED], 'test feed', now);
});

afterAll(async () => {
  await publisher?.idle();
});

describe('raising matches', () => {
  it('raises an item that matches, with its score, the terms that matched, the item and the recall', async () => {
    const tiles = await matchOf(TILES, 880001);
    expect(tiles).toMatchObject({
      status: 'open',
      item: { itemId: TILES, itemName: 'Magnetic Tile Set (60 pieces)', brand: 'BrightBuild' },
      recall: {
        recallId: 880001,
        title: 'BrightBuild Recalls Magnetic Tiles for Children',
        hazards: ['The product can overheat, posing a burn hazard to children.'],
        url: 'https://www.cpsc.gov/Recalls/test-880001',
      },
      decision: null,
    });
    expect(tiles!.score).toBeGreaterThanOrEqual(RECALL_MATCH_MIN_SCORE);
    expect(tiles!.terms).toEqual([
      'brand “BrightBuild” in manufacturer “BrightBuild Toys Co.”',
      'name shares “magnetic tile” with product “BrightBuild Magnetic Tiles”',
    ]);
    expect(tiles!.item.imageUrl).toEqual(expect.any(String));
    expect((await matchOf(MONITOR, 880002))?.terms[0]).toBe(
      'brand “NightOwl” = manufacturer “NightOwl, LLC”',
    );
  });

  it('does not raise a near-miss: the same brand with another product', async () => {
    expect((await matches()).some((m) => m.item.itemId === WARMER)).toBe(false);
    const raisedFor = await db
      .selectFrom('recall_matches')
      .select('item_id')
      .where('recall_id', '=', 880003)
      .execute();
    expect(raisedFor).toEqual([]);
  });

  it('raises nothing twice when every item is checked again', async () => {
    const before = await db.selectFrom('recall_matches').selectAll().orderBy('match_id').execute();
    expect(await checkAllItems(db, later())).toEqual({ raised: 0 });
    expect(await db.selectFrom('recall_matches').selectAll().orderBy('match_id').execute()).toEqual(before);
  });

  it('updates an open match whose score changed when the recall is updated', async () => {
    const before = (await matchOf(MONITOR, 880002))!;
    const updated = record(
      880002,
      'NightOwl Recalls Video Baby Monitors Due to Burn Hazard',
      { Name: 'NightOwl Monitor', Model: 'NO-VM2' },
      'NightOwl, LLC',
    );
    await importRecalls(db, [updated], 'test feed', later());
    const after = (await matchOf(MONITOR, 880002))!;
    expect(after.matchId).toBe(before.matchId);
    expect(after.score).toBeLessThan(before.score);
    expect(after.terms).toContain('name shares “monitor” with product “NightOwl Monitor”');
    // Back as it was, for the tests that follow.
    await importRecalls(db, [FEED[1]], 'test feed', later());
    expect((await matchOf(MONITOR, 880002))!.score).toBe(before.score);
  });
});

describe('who may see and decide', () => {
  it('refuses anonymous callers (401) and parents (403) on both moderation routes', async () => {
    const { matchId } = (await matchOf(TILES, 880001))!;
    expect((await moderation('GET', '/recall-matches', null)).status).toBe(401);
    expect((await moderation('GET', '/recall-matches', parent)).status).toBe(403);
    const body = { action: 'confirm', reason: null };
    expect((await resolve(matchId, body, null)).status).toBe(401);
    expect((await resolve(matchId, body, parent)).status).toBe(403);
    expect((await matchOf(TILES, 880001))!.status).toBe('open');
  });

  it('refuses a dismissal without a reason, and bad input, with 400 and a sentence', async () => {
    const { matchId } = (await matchOf(MONITOR, 880002))!;
    for (const body of [
      { action: 'dismiss' },
      { action: 'dismiss', reason: '   ' },
      { action: 'dismiss', reason: null },
    ]) {
      const refused = await expectJson<{ error: string }>(resolve(matchId, body), 400);
      expect(refused.error).toMatch(/^reason: must not be blank/);
    }
    expect(
      (await expectJson<{ error: string }>(resolve(matchId, { action: 'remove', reason: 'x' }), 400)).error,
    ).toBe('action: must be confirm or dismiss');
    expect((await resolve(0, { action: 'confirm' })).status).toBe(400);
    expect((await matchOf(MONITOR, 880002))!.status).toBe('open');
  });

  it('answers 404 for a match that does not exist', async () => {
    const missing = await expectJson<{ error: string }>(resolve(999_999, { action: 'confirm' }), 404);
    expect(missing.error).toBe('There is no possible recall with that id.');
  });
});

describe('decisions', () => {
  it('dismisses with a reason, and the pair is not raised again after another import and check', async () => {
    const { matchId } = (await matchOf(MONITOR, 880002))!;
    // An open match holds its listing for a moderator (docs/product.md, "Listing screening").
    const listed = async () =>
      (await expectJson<Item[]>(app.request('/api/items'), 200)).map((i) => i.itemId);
    expect(await listed()).not.toContain(MONITOR);
    const done = await expectJson<RecallMatchResolved>(
      resolve(matchId, { action: 'dismiss', reason: 'Different model: ours is the NO-VM3.' }),
      200,
    );
    expect(done.publish).toBeNull();
    expect(done.match).toMatchObject({
      matchId,
      status: 'dismissed',
      decision: { action: 'dismiss', reason: 'Different model: ours is the NO-VM3.', byName: 'Mo Moderator' },
    });
    // The recall changes (a new title), so the import re-checks every item.
    const changed = { ...FEED[1], Title: 'NightOwl Recalls Video Baby Monitors (updated)' };
    lastImport = later();
    const imported = await importRecalls(db, [changed], 'test feed', lastImport);
    expect(imported.updated).toBe(1);
    await checkAllItems(db, later());
    const rows = await db
      .selectFrom('recall_matches')
      .select(['match_id', 'status'])
      .where('item_id', '=', MONITOR)
      .where('recall_id', '=', 880002)
      .execute();
    expect(rows).toEqual([{ match_id: matchId, status: 'dismissed' }]);
    // The dismissal cleared the listing, and the check after the import leaves it so.
    expect(await listed()).toContain(MONITOR);
  });

  it('confirms: the held item is blocked, off /api/items, featured and the category counts, and a publish starts', async () => {
    const featured = () => expectJson<Item[]>(app.request('/api/items/featured?limit=50'), 200);
    const counts = () => expectJson<CategoryCounts>(app.request('/api/items/categories'), 200);
    const items = () => expectJson<Item[]>(app.request('/api/items'), 200);
    // Held while its match is open: never shown to parents meanwhile.
    expect((await items()).some((i) => i.itemId === TILES)).toBe(false);
    expect((await featured()).some((i) => i.itemId === TILES)).toBe(false);
    const toysBefore = (await counts()).toys!;

    const { matchId } = (await matchOf(TILES, 880001))!;
    const done = await expectJson<RecallMatchResolved>(resolve(matchId, { action: 'confirm' }), 200);
    expect(done.match).toMatchObject({
      status: 'confirmed',
      decision: { action: 'confirm', reason: null, byName: 'Mo Moderator' },
    });
    expect(done.publish).toMatchObject({ trigger: expect.stringContaining(`match #${matchId}`) });

    const state = await db
      .selectFrom('items')
      .select('screening_state')
      .where('item_id', '=', TILES)
      .executeTakeFirstOrThrow();
    expect(state.screening_state).toBe('blocked');
    expect((await items()).some((i) => i.itemId === TILES)).toBe(false);
    expect((await featured()).some((i) => i.itemId === TILES)).toBe(false);
    expect((await counts()).toys).toBe(toysBefore);

    // The publish it started leaves the item out of the new release's lists too.
    const run = await publisher.finished(done.publish!.id);
    expect(run.state).toBe('succeeded');
    expect((await items()).some((i) => i.itemId === TILES)).toBe(false);
    expect((await counts()).toys).toBe(toysBefore);
  });

  it('refuses to decide a decided match again (409)', async () => {
    const confirmed = (await matchOf(TILES, 880001))!;
    const dismissed = (await matchOf(MONITOR, 880002))!;
    for (const [match, body] of [
      [confirmed, { action: 'dismiss', reason: 'Changed my mind' }],
      [dismissed, { action: 'confirm' }],
    ] as const) {
      const refused = await expectJson<{ error: string }>(resolve(match.matchId, body), 409);
      expect(refused.error).toBe(
        `This possible recall has already been ${match.status}: it cannot be decided again.`,
      );
    }
    expect((await matchOf(TILES, 880001))!.status).toBe('confirmed');
  });

  it('lists open matches first, then the decided ones, newest decision first', async () => {
    const list = await matches();
    const firstDecided = list.findIndex((m) => m.status !== 'open');
    expect(firstDecided).toBeGreaterThan(0);
    expect(list.slice(firstDecided).every((m) => m.status !== 'open')).toBe(true);
    const open = list.slice(0, firstDecided);
    expect(open.map((m) => m.score)).toEqual([...open.map((m) => m.score)].sort((a, b) => b - a));
    expect(mine(list.slice(firstDecided)).map((m) => [m.item.itemId, m.status])).toEqual([
      [TILES, 'confirmed'],
      [MONITOR, 'dismissed'],
    ]);
  });

  it('puts both decisions in the audit log, with the target in words', async () => {
    const entries = await expectJson<AuditEntry[]>(moderation('GET', '/audit?limit=20', moderator), 200);
    const confirm = entries.find((e) => e.action === 'recall.confirm')!;
    const dismiss = entries.find((e) => e.action === 'recall.dismiss')!;
    expect(confirm).toMatchObject({
      actorName: 'Mo Moderator',
      targetType: 'recall_match',
      reason: null,
      target: { name: 'a possible recall of “Magnetic Tile Set (60 pieces)”', href: '/moderation#recalls' },
    });
    expect(dismiss).toMatchObject({
      targetType: 'recall_match',
      reason: 'Different model: ours is the NO-VM3.',
      target: { name: 'a possible recall of “Video Baby Monitor”', href: '/moderation#recalls' },
    });
  });

  it("drops the read cache's kept items answers on a decision, and no others", async () => {
    const own = await createCommunityApp({ now: () => now, readCache: readCache({ ttlMs: 60_000 }) });
    const mo = await newParent(own.app, own.db, 'Ceci Moderator', 'moderator');
    await importRecalls(own.db, FEED, 'test feed', now);
    const ids = async (url: string) =>
      (await expectJson<Item[]>(own.app.request(url), 200)).map((i) => i.itemId);
    const [post] = await expectJson<{ slug: string }[]>(own.app.request('/api/blog/posts'), 200);
    const views = async () =>
      (await expectJson<{ viewCount: number }>(own.app.request(`/api/blog/posts/${post!.slug}`), 200))
        .viewCount;
    // Held while its match is open; a dismissal clears it.
    expect(await ids('/api/items')).not.toContain(TILES);
    expect(await ids('/api/items/featured?limit=50')).not.toContain(TILES);
    const toys = (await expectJson<CategoryCounts>(own.app.request('/api/items/categories'), 200)).toys!;
    const keptViews = await views();
    // Behind the API's back: a kept answer of the post would not show this.
    await own.db
      .updateTable('blog_posts')
      .set((eb) => ({ view_count: eb('view_count', '+', 100) }))
      .where('slug', '=', post!.slug)
      .execute();

    const match = (
      await expectJson<RecallMatch[]>(
        call(own.app, 'GET', '/api/moderation/recall-matches', { token: mo.token }),
        200,
      )
    ).find((m) => m.item.itemId === TILES && m.recall.recallId === 880001)!;
    await expectJson<RecallMatchResolved>(
      call(own.app, 'POST', `/api/moderation/recall-matches/${match.matchId}/resolve`, {
        token: mo.token,
        body: { action: 'dismiss', reason: 'Different maker.' },
      }),
      200,
    );
    expect(await ids('/api/items')).toContain(TILES);
    expect(await ids('/api/items/featured?limit=50')).toContain(TILES);
    expect((await expectJson<CategoryCounts>(own.app.request('/api/items/categories'), 200)).toys).toBe(
      toys + 1,
    );
    expect(await views()).toBe(keptViews);
  });
});

describe('the public recall data', () => {
  it("lists the newest recalls of children's products in the contract's shape", async () => {
    const recalls = await expectJson<Recall[]>(app.request('/api/recalls'), 200);
    expect(recalls.length).toBeGreaterThan(0);
    expect(recalls.length).toBeLessThanOrEqual(RECALLS_LIMIT_DEFAULT);
    const tiles = recalls.find((r) => r.recallId === 880001);
    expect(tiles).toEqual({
      recallId: 880001,
      recallNumber: 'T880001',
      recallDate: expect.stringMatching(/^2026-11-20/),
      title: 'BrightBuild Recalls Magnetic Tiles for Children',
      description: null,
      hazards: ['The product can overheat, posing a burn hazard to children.'],
      remedies: ['Stop using it and contact the firm for a refund.'],
      url: 'https://www.cpsc.gov/Recalls/test-880001',
      products: [{ name: 'BrightBuild Magnetic Tiles', model: 'BB-60', units: 'About 900' }],
      manufacturers: ['BrightBuild Toys Co.'],
    });
    const dates = recalls.map((r) => r.recallDate ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
    expect(await expectJson<Recall[]>(app.request('/api/recalls?limit=1'), 200)).toHaveLength(1);
    expect(
      (await expectJson<Recall[]>(app.request(`/api/recalls?limit=${RECALLS_LIMIT_MAX}`), 200)).length,
    ).toBeGreaterThanOrEqual(recalls.length);
  });

  it('enforces the bounds of limit with a 400 that says why', async () => {
    for (const limit of ['0', String(RECALLS_LIMIT_MAX + 1), 'ten', '-1', '1.5', '']) {
      const refused = await expectJson<{ error: string }>(app.request(`/api/recalls?limit=${limit}`), 400);
      expect(refused.error).toBe(`limit: must be an integer from 1 to ${RECALLS_LIMIT_MAX}`);
    }
  });

  it('says where the data came from, when, and how much there is', async () => {
    const status = await expectJson<RecallStatus>(app.request('/api/recalls/status'), 200);
    const count = await db
      .selectFrom('recalls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(status).toEqual({
      source: 'test feed',
      lastImportedAt: lastImport.toISOString(),
      count: Number(count.n),
      childrenCount: expect.any(Number),
    });
    expect(status.childrenCount).toBeGreaterThanOrEqual(3);
  });

  it('answers anonymous reads as the other public reads do, through the read cache', async () => {
    const own = await createCommunityApp({ readCache: readCache({ ttlMs: 60_000 }) });
    const first = await own.app.request('/api/recalls/status');
    expect(first.status).toBe(200);
    expect(first.headers.get('X-Nestling-Release')).not.toBeNull();
    const kept = (await first.json()) as RecallStatus;
    await importRecalls(own.db, FEED, 'behind the cache', TEST_NOW);
    // Kept: the same answer within the cache's time, however the data changed meanwhile.
    expect(await expectJson<RecallStatus>(own.app.request('/api/recalls/status'), 200)).toEqual(kept);
  });
});
