// The listing intake and the moderators' decisions (docs/product.md, "Listing screening"), through
// the real app on SQLite and (api-pg) PostgreSQL, with real sign-in from the Auth emulator.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../api/contract.ts';
import {
  LISTINGS_BODY_MAX_BYTES,
  LISTINGS_PER_REQUEST_MAX,
  type ListingsAccepted,
  type ScreenedListing,
} from '../../api/contract/screening.ts';
import type { DB } from '../../api/db/database.ts';
import { call, createCommunityApp, expectJson, newParent, type Parent } from '../helpers/parents.ts';
import { TEST_NOW } from '../helpers/test-db.ts';

const TOKEN = 'test-listings-token-0123456789';
type App = Awaited<ReturnType<typeof createCommunityApp>>['app'];
let app: App;
let db: DB;
let moderator: Parent;
let parent: Parent;
let now = new Date(TEST_NOW.getTime() + 3_600_000);
const later = () => (now = new Date(now.getTime() + 60_000));

let serial = 0;
/** A clean listing with an id of its own, changed as a test needs. */
const listing = (fields: Record<string, unknown> = {}) => ({
  itemId: `t-${process.pid}-${++serial}`,
  itemName: 'Organic Cotton Romper Set',
  category: 'clothing',
  listingPrice: '18.00',
  condition: 'like_new',
  brand: 'Little Sprout',
  ageGroup: '0-6 months',
  ...fields,
});

const send = (body: unknown, token: string | null = TOKEN, on = app) =>
  on.request('/api/listings', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const accept = async (...listings: unknown[]) => expectJson<ListingsAccepted>(send({ listings }), 202);
const items = async () => expectJson<Item[]>(app.request('/api/items'), 200);
const screened = (itemId: string, as: Parent | null = moderator) =>
  call(app, 'GET', `/api/moderation/listings/${encodeURIComponent(itemId)}`, { token: as?.token });
const decide = (itemId: string, body: unknown, as: Parent | null = moderator) =>
  call(app, 'POST', `/api/moderation/listings/${encodeURIComponent(itemId)}/decision`, {
    token: as?.token,
    body,
  });
const errorOf = async (res: Response | Promise<Response>, status: number) =>
  (await expectJson<{ error: string }>(res, status)).error;
const stored = (itemId: string) =>
  db
    .selectFrom('items')
    .select(['item_id', 'screening_state'])
    .where('item_id', '=', itemId)
    .executeTakeFirst();

beforeAll(async () => {
  ({ app, db } = await createCommunityApp({ now: () => now, listings: { token: TOKEN } }));
  moderator = await newParent(app, db, 'Mo Moderator', 'moderator');
  parent = await newParent(app, db, 'Pia Parent');
});

describe('POST /api/listings: who may send', () => {
  it('does not exist without LISTINGS_TOKEN', async () => {
    const { app: closed } = await createCommunityApp();
    expect(await errorOf(send({ listings: [listing()] }, TOKEN, closed), 404)).toMatch(/No such endpoint/);
  });

  it.each([
    ['no token', null],
    ['a wrong token', 'not-the-token-at-all-0123'],
    ['a token of another length', 'x'],
  ])('refuses %s with 401 and keeps nothing', async (_name, token) => {
    const one = listing();
    expect(await errorOf(send({ listings: [one] }, token), 401)).toMatch(/Bearer/);
    expect(await stored(one.itemId)).toBeUndefined();
  });
});

describe('POST /api/listings: bad input refuses the request, names the listing and the field, keeps nothing', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['a negative price', { listingPrice: '-5.00' }, /listingPrice: must be a price/],
    ['an absurd price', { listingPrice: '99999999' }, /listingPrice: must be a price/],
    ['a price with three decimals', { listingPrice: '1.999' }, /listingPrice/],
    ['a price that is not a number', { listingPrice: 'free' }, /listingPrice/],
    ['a NUL in the name', { itemName: 'Crib\u0000' }, /itemName: must not contain NUL/],
    ['a lone surrogate in the brand', { brand: 'Ab\ud800c' }, /brand: must not contain NUL/],
    ['a name of 201 characters', { itemName: 'x'.repeat(201) }, /itemName: must be at most 200/],
    ['a long description', { description: 'x'.repeat(5001) }, /description: must be at most 5000/],
    ['no name', { itemName: undefined }, /itemName/],
    ['an unknown status', { status: 'hidden' }, /status: must be one of active, sold, removed/],
    ['a year in the future', { manufactureYear: 2200 }, /manufactureYear/],
    ['a photo that is not a web address', { photos: ['file:///etc/passwd'] }, /photos\.0: must be an http/],
    ['nine photos', { photos: Array.from({ length: 9 }, (_, i) => `https://p.test/${i}.jpg`) }, /photos/],
    ['an outside image as the sample image', { imageUrl: 'https://evil.test/x.jpg' }, /imageUrl/],
    ['an id with spaces', { itemId: 'a b' }, /itemId: must be letters/],
  ];
  it.each(cases)('%s', async (_name, fields, message) => {
    const good = listing();
    const bad = listing(fields);
    const error = await errorOf(send({ listings: [good, bad] }), 400);
    expect(error).toMatch(/^listings\[1\]/);
    expect(error).toMatch(message);
    expect(await stored(good.itemId)).toBeUndefined();
  });

  it('refuses an empty list, too many listings and the same id twice', async () => {
    expect(await errorOf(send({ listings: [] }), 400)).toMatch(/from 1 to 500/);
    const many = Array.from({ length: LISTINGS_PER_REQUEST_MAX + 1 }, () => listing());
    expect(await errorOf(send({ listings: many }), 400)).toMatch(/from 1 to 500/);
    const twice = listing();
    expect(await errorOf(send({ listings: [twice, twice] }), 400)).toMatch(/listed twice/);
  });

  it('refuses a body that is not JSON, or not listings', async () => {
    expect(await errorOf(send('{"listings": ['), 400)).toMatch(/must be JSON/);
    expect(await errorOf(send({ items: [] }), 400)).toMatch(/listings: must be a list/);
  });

  it('takes 500 listings in one request, and refuses a body over its own limit with 413', async () => {
    const full = Array.from({ length: LISTINGS_PER_REQUEST_MAX }, () =>
      listing({ description: 'y'.repeat(300) }),
    );
    const answer = await expectJson<ListingsAccepted>(send({ listings: full }), 202);
    expect(answer.accepted).toBe(LISTINGS_PER_REQUEST_MAX);
    const huge = listing({ description: 'z'.repeat(LISTINGS_BODY_MAX_BYTES) });
    expect(await errorOf(send({ listings: [huge] }), 413)).toMatch(/at most \d+ bytes for listings/);
  });
});

describe('screening on the way in', () => {
  it('clears a clean listing into /api/items at once, with what was checked', async () => {
    const one = listing({ itemName: 'Knitted Winter Cardigan' });
    const answer = await accept(one);
    expect(answer).toEqual({ accepted: 1, listings: [{ itemId: one.itemId, screening: 'cleared' }] });
    const shown = (await items()).find((i) => i.itemId === one.itemId);
    expect(shown).toMatchObject({
      itemName: 'Knitted Winter Cardigan',
      listingPrice: '18.00',
      safetyNotes: [],
    });
    expect(shown!.checks).toEqual({ checkedAt: now.toISOString(), ran: ['rules', 'recall'] });
  });

  it('is idempotent: the same listing again changes nothing', async () => {
    const one = listing();
    await accept(one);
    const before = await db
      .selectFrom('items')
      .selectAll()
      .where('item_id', '=', one.itemId)
      .executeTakeFirstOrThrow();
    later();
    expect((await accept(one)).listings[0]!.screening).toBe('cleared');
    const after = await db
      .selectFrom('items')
      .selectAll()
      .where('item_id', '=', one.itemId)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  it('blocks a banned product: it never reaches parents', async () => {
    const bumper = listing({ itemName: 'Braided crib bumper, grey', category: 'nursery' });
    expect((await accept(bumper)).listings[0]!.screening).toBe('blocked');
    expect((await items()).some((i) => i.itemId === bumper.itemId)).toBe(false);
    const seen = await expectJson<ScreenedListing>(screened(bumper.itemId), 200);
    const rules = seen.screening.checks.find((c) => c.check === 'rules')!;
    expect(rules.outcome).toBe('block');
    expect(rules.reasons[0]).toMatchObject({ rule: 'R1', source: expect.stringMatching(/^https:\/\//) });
  });

  it('shows a note parents read, and holds what a moderator must look at', async () => {
    const pillow = listing({ itemName: 'Nursing pillow with cover', category: 'feeding' });
    expect((await accept(pillow)).listings[0]!.screening).toBe('cleared');
    const shown = (await items()).find((i) => i.itemId === pillow.itemId)!;
    expect(shown.safetyNotes.length).toBeGreaterThan(0);

    const sack = listing({ itemName: 'Weighted sleep sack', ageGroup: '6-12 months' });
    expect((await accept(sack)).listings[0]!.screening).toBe('held');
    const queue = await expectJson<ScreenedListing[]>(
      call(app, 'GET', '/api/moderation/listings', { token: moderator.token }),
      200,
    );
    const held = queue.find((l) => l.itemId === sack.itemId)!;
    expect(held.screening.state).toBe('held');
    expect(held.screening.checks.map((c) => c.check)).toEqual(['rules', 'recall']);
    expect(held.screening.checks[0]!.reasons.map((r) => r.rule)).toContain('R7');
  });

  it('reads the description, and the negation in it', async () => {
    const hoodie = listing({
      itemName: "Boys' hoodie",
      ageGroup: '4+ years',
      description: 'Hood with a drawstring',
    });
    const removed = listing({
      itemName: "Boys' hoodie",
      ageGroup: '4+ years',
      description: 'Drawstring removed',
    });
    const answer = await accept(hoodie, removed);
    expect(answer.listings.map((l) => l.screening)).toEqual(['blocked', 'cleared']);
  });

  it('holds a listing with photos until they are checked', async () => {
    const withPhoto = listing({ photos: ['https://photos.invalid/romper.jpg'] });
    expect((await accept(withPhoto)).listings[0]!.screening).toBe('pending');
    expect((await items()).some((i) => i.itemId === withPhoto.itemId)).toBe(false);
    const seen = await expectJson<ScreenedListing>(screened(withPhoto.itemId), 200);
    expect(seen.screening.photos).toEqual([
      { url: null, sourceUrl: 'https://photos.invalid/romper.jpg', state: 'queued', faces: [] },
    ]);
    expect(seen.screening.checks.find((c) => c.check === 'photo')!.outcome).toBe('pending');
  });

  it('takes a listing off when it is sold or removed, and back when it is active again', async () => {
    const one = listing();
    await accept(one);
    await accept({ ...one, status: 'sold' });
    expect((await items()).some((i) => i.itemId === one.itemId)).toBe(false);
    await accept({ ...one, status: 'removed' });
    expect((await items()).some((i) => i.itemId === one.itemId)).toBe(false);
    await accept({ ...one, status: 'active' });
    expect((await items()).some((i) => i.itemId === one.itemId)).toBe(true);
  });

  it('screens a changed listing again from the start', async () => {
    const one = listing();
    await accept(one);
    const changed = { ...one, itemName: 'Drop-side crib, solid wood', category: 'furniture' };
    expect((await accept(changed)).listings[0]!.screening).toBe('blocked');
    expect((await items()).some((i) => i.itemId === one.itemId)).toBe(false);
  });

  it('holds a listing that may be a recalled product, as a moderator must decide', async () => {
    // The sample recall feed has SafeRide's convertible car seats (content/recalls.json).
    const seat = listing({
      itemName: 'Convertible Car Seat',
      brand: 'SafeRide',
      category: 'gear',
      ageGroup: '0-4 years',
      manufactureYear: 2024,
      description: 'Never in a crash, labels on.',
    });
    expect((await accept(seat)).listings[0]!.screening).toBe('held');
    const seen = await expectJson<ScreenedListing>(screened(seat.itemId), 200);
    const recall = seen.screening.checks.find((c) => c.check === 'recall')!;
    expect(recall.outcome).toBe('flag');
    expect(recall.reasons[0]).toMatchObject({
      rule: 'recall.open',
      source: expect.stringMatching(/^https?:\/\//),
    });
  });
});

describe('moderators decide', () => {
  it('refuses parents and signed-out readers', async () => {
    const sack = listing({ itemName: 'Weighted sleep sack', ageGroup: '6-12 months' });
    await accept(sack);
    expect((await call(app, 'GET', '/api/moderation/listings')).status).toBe(401);
    expect((await call(app, 'GET', '/api/moderation/listings', { token: parent.token })).status).toBe(403);
    expect((await screened(sack.itemId, parent)).status).toBe(403);
    expect((await decide(sack.itemId, { decision: 'clear' }, parent)).status).toBe(403);
    expect((await decide(sack.itemId, { decision: 'clear' }, null)).status).toBe(401);
    expect((await stored(sack.itemId))!.screening_state).toBe('held');
  });

  it('clears a held listing, audited', async () => {
    const sack = listing({ itemName: 'Weighted sleep sack', ageGroup: '6-12 months' });
    await accept(sack);
    const cleared = await expectJson<ScreenedListing>(decide(sack.itemId, { decision: 'clear' }), 200);
    expect(cleared.screening.state).toBe('cleared');
    expect(cleared.screening.decision).toMatchObject({ decision: 'clear', byName: 'Mo Moderator' });
    expect((await items()).some((i) => i.itemId === sack.itemId)).toBe(true);
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'actor_name'])
      .where('target_type', '=', 'listing')
      .where('target_id', '=', sack.itemId)
      .execute();
    expect(audit).toEqual([{ action: 'listing.clear', actor_name: 'Mo Moderator' }]);
  });

  it('blocks with a reason, and only with one', async () => {
    const sack = listing({ itemName: 'Weighted sleep sack', ageGroup: '6-12 months' });
    await accept(sack);
    expect(await errorOf(decide(sack.itemId, { decision: 'block' }), 400)).toMatch(
      /reason: must not be blank/,
    );
    const blocked = await expectJson<ScreenedListing>(
      decide(sack.itemId, { decision: 'block', reason: 'Weighted sleep products are not safe for babies.' }),
      200,
    );
    expect(blocked.screening.state).toBe('blocked');
    expect(blocked.screening.decision!.reason).toBe('Weighted sleep products are not safe for babies.');
  });

  it('changes the age group, screens it again under it and clears it', async () => {
    const lego = listing({
      itemName: 'LEGO City police station set',
      category: 'toys',
      ageGroup: '1-2 years',
    });
    expect((await accept(lego)).listings[0]!.screening).not.toBe('cleared');
    expect(await errorOf(decide(lego.itemId, { decision: 'reage' }), 400)).toMatch(/ageGroup/);
    const reaged = await expectJson<ScreenedListing>(
      decide(lego.itemId, { decision: 'reage', ageGroup: '5+ years' }),
      200,
    );
    expect(reaged.ageGroup).toBe('5+ years');
    expect(reaged.screening.state).toBe('cleared');
    expect((await items()).find((i) => i.itemId === lego.itemId)!.ageGroup).toBe('5+ years');
  });

  it('cannot blur a listing without photos; answers 404 for a listing that does not exist', async () => {
    const sack = listing({ itemName: 'Weighted sleep sack', ageGroup: '6-12 months' });
    await accept(sack);
    expect(await errorOf(decide(sack.itemId, { decision: 'blur' }), 409)).toMatch(/no photos/);
    expect(await errorOf(decide('no-such-listing', { decision: 'clear' }), 404)).toMatch(/no listing/);
    expect(await errorOf(screened('no-such-listing'), 404)).toMatch(/no listing/);
    expect(await errorOf(decide(sack.itemId, { decision: 'approve' }), 400)).toMatch(
      /decision: must be one of/,
    );
  });

  it('a decision lasts only as long as the listing it was about', async () => {
    const sack = listing({ itemName: 'Weighted sleep sack', ageGroup: '6-12 months' });
    await accept(sack);
    await expectJson(decide(sack.itemId, { decision: 'clear' }), 200);
    const changed = { ...sack, description: 'Weighted, 1 kg beads' };
    expect((await accept(changed)).listings[0]!.screening).toBe('held');
  });

  it('a confirmed recall blocks the listing; a dismissed one clears it', async () => {
    const seat = (n: number) =>
      listing({
        itemName: 'Convertible Car Seat',
        brand: 'SafeRide',
        category: 'gear',
        ageGroup: '0-4 years',
        manufactureYear: 2024,
        description: `Never in a crash, labels on (${n}).`,
      });
    const [confirmed, dismissed] = [seat(1), seat(2)];
    await accept(confirmed, dismissed);
    const matches = await db
      .selectFrom('recall_matches')
      .select(['match_id', 'item_id'])
      .where('item_id', 'in', [confirmed.itemId, dismissed.itemId])
      .execute();
    const matchOf = (itemId: string) => matches.find((m) => m.item_id === itemId)!.match_id;
    const resolve = (matchId: number, body: unknown) =>
      call(app, 'POST', `/api/moderation/recall-matches/${matchId}/resolve`, {
        token: moderator.token,
        body,
      });
    await expectJson(resolve(matchOf(confirmed.itemId), { action: 'confirm' }), 200);
    await expectJson(
      resolve(matchOf(dismissed.itemId), { action: 'dismiss', reason: 'Another model.' }),
      200,
    );
    expect((await stored(confirmed.itemId))!.screening_state).toBe('blocked');
    expect((await stored(dismissed.itemId))!.screening_state).toBe('cleared');
  });
});

describe('the week in figures', () => {
  it('counts what was checked, held and blocked in the last 7 days', async () => {
    const { screeningFigures } = await import('../../api/db/queries/listings.ts');
    const before = await screeningFigures(db, now);
    await accept(listing(), listing({ itemName: 'Baltic amber teething necklace' }));
    const after = await screeningFigures(db, now);
    expect(after.checkedThisWeek - before.checkedThisWeek).toBe(2);
    expect(after.blockedThisWeek - before.blockedThisWeek).toBe(1);
    const weekLater = await screeningFigures(db, new Date(now.getTime() + 8 * 86_400_000));
    expect(weekLater.checkedThisWeek).toBe(0);
  });
});
