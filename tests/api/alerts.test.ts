// Alerts (api/db/queries/alerts.ts, api/lib/alert-tick.ts) from the listing change to the mailbox:
// the real app, its deliveries worker and a real SMTP server in this process, over a real database
// (SQLite here, PostgreSQL in api-pg). The tick runs by the test's clock, which the test moves:
// an instant search's first match at once and the next ones batched per 15 minutes, the daily
// digest, price drops of 10% or more, the safety alert of a confirmed recall, who is never emailed,
// two instances ticking on one database, and erasure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountErased } from '../../api/contract.ts';
import type { SavedSearch } from '../../api/contract/favourites.ts';
import { type DB, openDatabase } from '../../api/db/database.ts';
import { listingsChanged, sendDueAlerts } from '../../api/db/queries/alerts.ts';
import { createAlertTicker } from '../../api/lib/alert-tick.ts';
import { createMailApp } from '../helpers/mail-app.ts';
import { call, expectJson, newParent, type Parent } from '../helpers/parents.ts';
import { linksIn, type TestSmtpServer } from '../helpers/smtp.ts';
import { onPostgres, TEST_MAIL, TEST_NOW } from '../helpers/test-db.ts';
import { newVerifiedParent } from '../helpers/verified-parent.ts';

type Setup = Awaited<ReturnType<typeof createMailApp>>;
let setup: Setup;
let app: Setup['app'];
let db: DB;
let smtp: TestSmtpServer;
let now = new Date(TEST_NOW);
let ann: Parent;
let ben: Parent;
let mod: Parent;

const laterBy = (minutes: number) => (now = new Date(now.getTime() + minutes * 60_000));
/** One tick by the test's clock; the worker is poked as the server's ticker pokes it. */
async function tick(): Promise<number> {
  const queuedNow = await sendDueAlerts(db, TEST_MAIL, now);
  setup.worker.poke();
  return queuedNow;
}
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

// Items of content/items.json.
const TILES = 'item-010'; // toys
const MONITOR = 'item-020';
const WARMER = 'item-022';

async function item(itemId: string) {
  return db
    .selectFrom('items')
    .select(['item_id', 'item_name', 'category', 'listing_price'])
    .where('item_id', '=', itemId)
    .executeTakeFirstOrThrow();
}

/** An item that has just become visible, as the listing intake reports it. */
async function appeared(itemId: string) {
  const row = await item(itemId);
  await listingsChanged(
    db,
    [{ itemId, wasVisible: false, isVisible: true, oldPrice: null, newPrice: row.listing_price }],
    now,
  );
}

/** How many emails of this purpose were queued to a parent. */
async function queued(who: Parent, purpose: string): Promise<number> {
  const rows = await db
    .selectFrom('deliveries')
    .select('delivery_id')
    .where('purpose', '=', purpose)
    .where('target', '=', who.email)
    .execute();
  return rows.length;
}

/** Follows the confirmation link of the parent's first alert search. */
async function confirmAlerts(who: Parent) {
  const confirmation = await smtp.message(who.email, 'Confirm alert emails from Nestling');
  await expectJson(
    call(app, 'POST', '/api/notifications/confirm', { body: { token: tokenOf(linksIn(confirmation)[0]!) } }),
    200,
  );
}

const follow = (who: Parent, body: object) =>
  expectJson<SavedSearch>(call(app, 'POST', '/api/saved-searches', { token: who.token, body }), 201);

beforeAll(async () => {
  setup = await createMailApp({ now: () => now });
  ({ app, db, smtp } = setup);
  ann = await newVerifiedParent(app, 'Ann Alerted');
  ben = await newVerifiedParent(app, 'Ben Digest');
  mod = await newParent(app, db, 'Mo Moderator', 'moderator');
});

afterAll(async () => {
  await setup?.stop();
});

describe('saved-search alerts', () => {
  let search: SavedSearch;
  let toys: string[];

  beforeAll(async () => {
    search = await follow(ann, { category: 'toys', frequency: 'instant' });
    await confirmAlerts(ann);
    toys = (await db.selectFrom('items').select('item_id').where('category', '=', 'toys').execute()).map(
      (r) => r.item_id,
    );
    expect(toys.length).toBeGreaterThanOrEqual(3);
  });

  it('sends the first match of an instant search at once, saying why and how to stop it', async () => {
    await appeared(TILES);
    // Another category does not match.
    await appeared(MONITOR);
    expect(await tick()).toBe(1);
    const mail = await smtp.message(ann.email, /^New on Nestling: /);
    const tiles = await item(TILES);
    expect(mail.subject).toBe(`New on Nestling: ${tiles.item_name}`);
    expect(mail.text).toContain(`- ${tiles.item_name}, $${Number(tiles.listing_price).toFixed(2)}`);
    expect(mail.text).toContain('You get this because you saved this search');
    expect(mail.text).toContain('http://nestling.test/favourites');
    const { token } = await db
      .selectFrom('saved_searches')
      .select('token')
      .where('search_id', '=', search.searchId)
      .executeTakeFirstOrThrow();
    expect(mail.header('list-unsubscribe')).toBe(
      `<http://nestling.test/api/saved-searches/one-click?token=${token}>`,
    );
    expect(mail.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // /favourites shows it as the search's last match.
    const listed = await expectJson<{ searches: SavedSearch[] }>(
      call(app, 'GET', '/api/saved-searches', { token: ann.token }),
      200,
    );
    expect(listed.searches[0]!.lastMatch).toMatchObject({ itemId: TILES, itemName: tiles.item_name });
  });

  it('batches later matches: at most one email per search every 15 minutes, and never the same item twice', async () => {
    await appeared(toys.find((id) => id !== TILES)!);
    await appeared(TILES);
    expect(await tick()).toBe(0);
    laterBy(14);
    expect(await tick()).toBe(0);
    laterBy(1);
    await appeared(toys.filter((id) => id !== TILES)[1]!);
    expect(await tick()).toBe(1);
    const batched = await smtp.message(ann.email, /^2 new items like "toys"/);
    expect(batched.text).not.toContain((await item(TILES)).item_name);
    expect(await queued(ann, 'saved_search_alert')).toBe(2);
  });

  it('sends a daily search’s matches in one digest a day', async () => {
    await follow(ben, { category: 'toys', words: 'tile', frequency: 'daily' });
    await follow(ben, { frequency: 'daily', maxPrice: 1000 });
    await confirmAlerts(ben);
    await appeared(TILES);
    await appeared(MONITOR);
    expect(await tick()).toBe(1);
    const digest = await smtp.message(ben.email, /^Your daily Nestling digest/);
    expect(digest.text).toContain('one digest a day at most');
    laterBy(60);
    await appeared(WARMER);
    expect(await tick()).toBe(0);
    laterBy(24 * 60);
    expect(await tick()).toBe(1);
    expect(await queued(ben, 'saved_search_digest')).toBe(2);
  });

  it('drops the matches of a paused search', async () => {
    await expectJson(
      call(app, 'PATCH', `/api/saved-searches/${search.searchId}`, {
        token: ann.token,
        body: { paused: true },
      }),
      200,
    );
    laterBy(30);
    const before = await queued(ann, 'saved_search_alert');
    await appeared(toys.filter((id) => id !== TILES)[2] ?? WARMER);
    expect(await tick()).toBe(0);
    expect(await queued(ann, 'saved_search_alert')).toBe(before);
  });
});

describe('price drops', () => {
  it('emails a drop of 10% or more below the price saved, once', async () => {
    await expectJson(call(app, 'PUT', `/api/favourites/${MONITOR}`, { token: ann.token }), 200);
    const price = Number((await item(MONITOR)).listing_price);
    const change = (from: number, to: number) =>
      listingsChanged(
        db,
        [
          {
            itemId: MONITOR,
            wasVisible: true,
            isVisible: true,
            oldPrice: from.toFixed(2),
            newPrice: to.toFixed(2),
          },
        ],
        now,
      );
    await change(price, price * 0.95);
    expect(await tick()).toBe(0);
    const cheaper = Math.floor(price * 0.85 * 100) / 100;
    await change(price * 0.95, cheaper);
    await change(price * 0.95, cheaper);
    expect(await tick()).toBe(1);
    const mail = await smtp.message(ann.email, /^Price drop: /);
    expect(mail.text).toContain(`now $${cheaper.toFixed(2)} (was $${price.toFixed(2)})`);
    expect(mail.text).toContain('Turn off price-drop emails: http://nestling.test/account');
    expect(mail.header('list-unsubscribe')).toMatch(
      /\/api\/favourites\/alerts\/one-click\?token=[0-9a-f]{64}&alert=price>$/,
    );
    expect(await tick()).toBe(0);
  });
});

describe('safety alerts', () => {
  it('tells every parent who saved an item when a moderator confirms its recall', async () => {
    await expectJson(call(app, 'PUT', `/api/favourites/${WARMER}`, { token: ann.token }), 200);
    // An unverified parent saved it too: nothing goes to an unverified address.
    const cat = await newParent(app, db, 'Cat Unverified');
    await expectJson(call(app, 'PUT', `/api/favourites/${WARMER}`, { token: cat.token }), 200);
    const recall = await db
      .selectFrom('recalls')
      .select(['recall_id', 'title', 'url'])
      .executeTakeFirstOrThrow();
    const { match_id } = await db
      .insertInto('recall_matches')
      .values({
        item_id: WARMER,
        recall_id: recall.recall_id,
        score: 90,
        terms: '["warmer"]',
        status: 'open',
        created_at: now.toISOString(),
        decided_at: null,
        decided_by_uid: null,
        decided_by_name: null,
        reason: null,
      })
      .returning('match_id')
      .executeTakeFirstOrThrow();
    await expectJson(
      call(app, 'POST', `/api/moderation/recall-matches/${match_id}/resolve`, {
        token: mod.token,
        body: { action: 'confirm' },
      }),
      200,
    );
    const noted = await db.selectFrom('alerts').select('user_uid').where('kind', '=', 'safety').execute();
    expect(noted.map((a) => a.user_uid).sort()).toEqual([ann.uid, cat.uid].sort());
    expect(await tick()).toBe(1);
    const mail = await smtp.message(ann.email, 'An item you saved may be recalled');
    expect(mail.text).toContain(recall.title);
    if (recall.url) expect(mail.text).toContain(`The official recall notice: ${recall.url}`);
    expect(mail.text).toContain('What to do:');
    expect(mail.text).toContain('Turn off safety alerts: http://nestling.test/account');
    expect(await queued(cat, 'safety_alert')).toBe(0);
    // The saved item now reads as recalled.
    const favourites = await expectJson<{ items: { itemId: string; state: string }[] }>(
      call(app, 'GET', '/api/favourites', { token: ann.token }),
      200,
    );
    expect(favourites.items.find((f) => f.itemId === WARMER)).toMatchObject({ state: 'recalled' });
  });

  it('is on by default and has its own off switch, also in one click', async () => {
    expect(await expectJson(call(app, 'GET', '/api/favourites/alerts', { token: ann.token }), 200)).toEqual({
      safety: true,
      priceDrops: true,
    });
    expect(
      await expectJson(
        call(app, 'PUT', '/api/favourites/alerts', { token: ann.token, body: { safety: false } }),
        200,
      ),
    ).toEqual({ safety: false, priceDrops: true });
    expect(
      (await call(app, 'PUT', '/api/favourites/alerts', { token: ann.token, body: { safety: 'no' } })).status,
    ).toBe(400);
    const { token } = await db
      .selectFrom('alert_settings')
      .select('token')
      .where('user_uid', '=', ann.uid)
      .executeTakeFirstOrThrow();
    const oneClick = await app.request(`/api/favourites/alerts/one-click?token=${token}&alert=price`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await expectJson(call(app, 'GET', '/api/favourites/alerts', { token: ann.token }), 200)).toEqual({
      safety: false,
      priceDrops: false,
    });
  });
});

describe('sent once', () => {
  it('two instances ticking at once on one database send each alert once', async () => {
    const dee = await newVerifiedParent(app, 'Dee Twice');
    await follow(dee, { frequency: 'instant' });
    await confirmAlerts(dee);
    await appeared(TILES);
    // On PostgreSQL a second connection pool, as a second server has; SQLite's one writer per
    // process is shared (two connections in one thread would wait on each other).
    const other = onPostgres() ? openDatabase(setup.location) : db;
    try {
      const tickers = [db, other, db, other].map((on) =>
        createAlertTicker({ db: on, mail: TEST_MAIL, now: () => now }),
      );
      const counts = await Promise.all(tickers.map((t) => t.tick()));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    } finally {
      if (other !== db) await other.destroy();
    }
    expect(await queued(dee, 'saved_search_alert')).toBe(1);
  });

  it('never emails a suspended parent', async () => {
    const eve = await newVerifiedParent(app, 'Eve Stopped');
    await follow(eve, { frequency: 'instant' });
    await confirmAlerts(eve);
    await expectJson(
      call(app, 'POST', `/api/moderation/users/${eve.uid}/suspend`, {
        token: mod.token,
        body: { days: 1, reason: 'Cooling off' },
      }),
      201,
    );
    await appeared(MONITOR);
    await tick();
    expect(await queued(eve, 'saved_search_alert')).toBe(0);
  });
});

describe('privacy', () => {
  it('puts searches and alerts in the export, and erasure removes them with queued alerts', async () => {
    const fay = await newVerifiedParent(app, 'Fay Leaving');
    await follow(fay, { category: 'toys', frequency: 'daily' });
    await expectJson(call(app, 'PUT', `/api/favourites/${TILES}`, { token: fay.token }), 200);
    await appeared(TILES);
    const exported = await expectJson<{
      alerts: { savedSearches: unknown[]; alerts: unknown[]; favourites: unknown[] };
    }>(call(app, 'GET', '/api/account/export', { token: fay.token }), 200);
    expect(exported.alerts.savedSearches).toHaveLength(1);
    expect(exported.alerts.favourites).toHaveLength(1);
    expect(exported.alerts.alerts).toHaveLength(1);
    await expectJson<AccountErased>(
      call(app, 'DELETE', '/api/account', { token: fay.token, body: { confirmEmail: fay.email } }),
      200,
    );
    for (const table of ['alerts', 'saved_searches', 'favourites', 'alert_settings'] as const) {
      const left = await db.selectFrom(table).select('user_uid').where('user_uid', '=', fay.uid).execute();
      expect(left, table).toEqual([]);
    }
  });
});
