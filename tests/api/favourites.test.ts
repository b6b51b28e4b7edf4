// Favourites (api/routes/favourites.ts, api/db/queries/favourites.ts) and the "Verified Parents"
// figure (api/routes/stats.ts) through the real app, the Auth emulator and a real database
// (SQLite here, PostgreSQL in api-pg): saving and removing (idempotent, racing), the states a saved
// item moves through, the limit, privacy, the export and erasure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountExport, Item } from '../../api/contract.ts';
import {
  FAVOURITES_MAX,
  type FavouriteCount,
  type FavouriteList,
  type SiteStats,
} from '../../api/contract/favourites.ts';
import type { DB } from '../../api/db/database.ts';
import { call, createCommunityApp, expectJson, newParent, type Parent } from '../helpers/parents.ts';
import { TEST_NOW } from '../helpers/test-db.ts';
import { newVerifiedParent } from '../helpers/verified-parent.ts';

type Setup = Awaited<ReturnType<typeof createCommunityApp>>;
let app: Setup['app'];
let db: DB;
let ann: Parent;
let ben: Parent;
let now = new Date(TEST_NOW);
const later = () => (now = new Date(now.getTime() + 60_000));

// Items of content/items.json.
const ROMPER = 'item-001'; // $18.00, clothing
const TILES = 'item-010';
const MONITOR = 'item-020';
const WARMER = 'item-022';

const save = (who: Parent, itemId: string) =>
  call(app, 'PUT', `/api/favourites/${itemId}`, { token: who.token });
const unsave = (who: Parent, itemId: string) =>
  call(app, 'DELETE', `/api/favourites/${itemId}`, { token: who.token });
const list = (who: Parent) =>
  expectJson<FavouriteList<Item>>(call(app, 'GET', '/api/favourites', { token: who.token }), 200);
const stateOf = async (who: Parent, itemId: string) =>
  (await list(who)).items.find((f) => f.itemId === itemId);

beforeAll(async () => {
  ({ app, db } = await createCommunityApp({ now: () => now }));
  ann = await newVerifiedParent(app, 'Ann Saver');
  ben = await newParent(app, db, 'Ben Browser');
});

afterAll(async () => {
  await db?.destroy();
});

describe('saving items', () => {
  it('needs a signed-in parent', async () => {
    for (const [method, path] of [
      ['GET', '/api/favourites'],
      ['GET', '/api/favourites/count'],
      ['PUT', `/api/favourites/${ROMPER}`],
      ['DELETE', `/api/favourites/${ROMPER}`],
    ] as const) {
      const res = await call(app, method, path);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect((await res.json()) as { error: string }).toHaveProperty('error');
    }
  });

  it('saves once however often it is asked, and removes the same way', async () => {
    expect(await expectJson<FavouriteCount>(save(ann, ROMPER), 200)).toEqual({ count: 1 });
    expect(await expectJson<FavouriteCount>(save(ann, ROMPER), 200)).toEqual({ count: 1 });
    expect(
      await expectJson<FavouriteCount>(call(app, 'GET', '/api/favourites/count', { token: ann.token }), 200),
    ).toEqual({
      count: 1,
    });
    const [saved] = (await list(ann)).items;
    expect(saved).toMatchObject({
      itemId: ROMPER,
      priceWhenSaved: '18.00',
      state: 'available',
      removedForSafety: false,
    });
    expect(saved!.item).toMatchObject({ itemId: ROMPER, listingPrice: '18.00' });
    // The item exactly as /api/items gives it.
    const items = await expectJson<Item[]>(app.request('/api/items'), 200);
    expect(saved!.item).toEqual(items.find((i) => i.itemId === ROMPER));
    expect(await expectJson<FavouriteCount>(unsave(ann, ROMPER), 200)).toEqual({ count: 0 });
    expect(await expectJson<FavouriteCount>(unsave(ann, ROMPER), 200)).toEqual({ count: 0 });
  });

  it('lists the newest first, and never another parent’s', async () => {
    await expectJson(save(ann, TILES), 200);
    later();
    await expectJson(save(ann, MONITOR), 200);
    expect((await list(ann)).items.map((f) => f.itemId)).toEqual([MONITOR, TILES]);
    expect((await list(ben)).items).toEqual([]);
    expect(
      await expectJson<FavouriteCount>(call(app, 'GET', '/api/favourites/count', { token: ben.token }), 200),
    ).toEqual({
      count: 0,
    });
  });

  it('answers 404 naming an unknown item, and 400 naming a bad id', async () => {
    const unknown = await save(ann, 'no-such-item');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toContain('no-such-item');
    expect((await unsave(ann, 'no-such-item')).status).toBe(404);
    const long = await save(ann, 'x'.repeat(101));
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: string }).error).toMatch(/^itemId:/);
  });

  it('keeps one row when two tabs race to save and remove', async () => {
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => save(ben, WARMER)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await list(ben)).items.filter((f) => f.itemId === WARMER)).toHaveLength(1);
    const mixed = await Promise.all([save(ben, WARMER), unsave(ben, WARMER), save(ben, WARMER)]);
    expect(mixed.every((r) => r.status === 200)).toBe(true);
    const count = await expectJson<FavouriteCount>(
      call(app, 'GET', '/api/favourites/count', { token: ben.token }),
      200,
    );
    expect(count.count).toBe((await list(ben)).items.length);
  });

  it(`refuses more than ${FAVOURITES_MAX}, saying so`, async () => {
    const cat = await newParent(app, db, 'Cat Collector');
    await db
      .insertInto('favourites')
      .values(
        Array.from({ length: FAVOURITES_MAX }, (_, i) => ({
          user_uid: cat.uid,
          item_id: `gone-${i}`,
          saved_at: '2026-11-01T00:00:00.000Z',
          price_when_saved: '1.00',
        })).slice(0, 100),
      )
      .execute();
    for (let from = 100; from < FAVOURITES_MAX; from += 100) {
      await db
        .insertInto('favourites')
        .values(
          Array.from({ length: 100 }, (_, i) => ({
            user_uid: cat.uid,
            item_id: `gone-${from + i}`,
            saved_at: '2026-11-01T00:00:00.000Z',
            price_when_saved: '1.00',
          })),
        )
        .execute();
    }
    const refused = await save(cat, ROMPER);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toContain(`at most ${FAVOURITES_MAX}`);
    // Items that are gone read as removed, without their item.
    const gone = (await list(cat)).items[0]!;
    expect(gone).toMatchObject({ state: 'removed', item: null, itemName: null });
  });
});

describe('the state of a saved item', () => {
  const setItem = (itemId: string, values: Record<string, string>) =>
    db.updateTable('items').set(values).where('item_id', '=', itemId).execute();

  it('follows the listing: price changed, sold, held, removed after a check, removed, recalled', async () => {
    await expectJson(save(ann, ROMPER), 200);
    await setItem(ROMPER, { listing_price: '15.00' });
    expect(await stateOf(ann, ROMPER)).toMatchObject({ state: 'price_changed', priceWhenSaved: '18.00' });
    expect((await stateOf(ann, ROMPER))!.item).toMatchObject({ listingPrice: '15.00' });

    await setItem(ROMPER, { status: 'sold' });
    expect(await stateOf(ann, ROMPER)).toMatchObject({ state: 'sold' });
    await setItem(ROMPER, { status: 'active', screening_state: 'held' });
    expect(await stateOf(ann, ROMPER)).toMatchObject({
      state: 'held',
      item: null,
      itemName: expect.any(String),
    });
    await setItem(ROMPER, { screening_state: 'blocked' });
    expect(await stateOf(ann, ROMPER)).toMatchObject({
      state: 'removed',
      removedForSafety: true,
      item: null,
    });
    await setItem(ROMPER, { screening_state: 'cleared', status: 'removed' });
    expect(await stateOf(ann, ROMPER)).toMatchObject({ state: 'removed', removedForSafety: false });
    await setItem(ROMPER, { status: 'active', listing_price: '18.00' });
    expect(await stateOf(ann, ROMPER)).toMatchObject({ state: 'available' });

    const recall = await db.selectFrom('recalls').select('recall_id').executeTakeFirstOrThrow();
    await db
      .insertInto('recall_matches')
      .values({
        item_id: ROMPER,
        recall_id: recall.recall_id,
        score: 90,
        terms: '[]',
        status: 'confirmed',
        created_at: '2026-11-22T12:00:00.000Z',
        decided_at: '2026-11-22T12:00:00.000Z',
        decided_by_uid: null,
        decided_by_name: 'Mo',
        reason: null,
      })
      .execute();
    expect(await stateOf(ann, ROMPER)).toMatchObject({ state: 'recalled', item: null });
    // A recalled item cannot be saved again by anyone else.
    expect((await save(ben, ROMPER)).status).toBe(404);
    // Removing it still works.
    expect((await expectJson<FavouriteCount>(unsave(ann, ROMPER), 200)).count).toBeGreaterThanOrEqual(0);
  });

  it('cannot save an item that is held or sold', async () => {
    await setItem(WARMER, { screening_state: 'held' });
    await expectJson(unsave(ann, WARMER), 200);
    expect((await save(ann, WARMER)).status).toBe(404);
    await setItem(WARMER, { screening_state: 'cleared' });
  });
});

describe('privacy', () => {
  it('puts favourites in the export and takes them away with the account', async () => {
    const exported = await expectJson<AccountExport>(
      call(app, 'GET', '/api/account/export', { token: ann.token }),
      200,
    );
    expect(exported.alerts.favourites.map((f) => f.itemId)).toEqual(expect.arrayContaining([TILES, MONITOR]));
    expect(exported.alerts.settings).toEqual({ safety: true, priceDrops: true });
    // No answer anywhere says how many parents saved an item.
    const items = await expectJson<Item[]>(app.request('/api/items'), 200);
    expect(JSON.stringify(items)).not.toMatch(/favourite|saves|saved/i);
  });
});

describe('Verified Parents', () => {
  it('counts parents whose sign-in says their address is verified', async () => {
    const stats = await expectJson<SiteStats>(app.request('/api/stats'), 200);
    const verified = await db
      .selectFrom('users_profile')
      .select('firebase_uid')
      .where('email_verified', '=', 1)
      .execute();
    expect(verified.map((v) => v.firebase_uid)).toContain(ann.uid);
    expect(verified.map((v) => v.firebase_uid)).not.toContain(ben.uid);
    expect(stats.verifiedParents).toBe(verified.length);
    await newVerifiedParent(app, 'Dee Verified');
    expect((await expectJson<SiteStats>(app.request('/api/stats'), 200)).verifiedParents).toBe(
      stats.verifiedParents + 1,
    );
  });
});
