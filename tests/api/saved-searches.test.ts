// Saved searches (api/routes/saved-searches.ts, api/db/queries/saved-searches.ts) through the real
// app, the Auth emulator and a real database (SQLite here, PostgreSQL in api-pg): every field's
// rule, with a 400 naming the field; the limit; pause, change and delete; a category that no longer
// exists; and the one-click stop from an email.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SAVED_SEARCH_PRICE_MAX,
  SAVED_SEARCHES_MAX,
  type SavedSearch,
  type SavedSearchList,
} from '../../api/contract/favourites.ts';
import type { DB } from '../../api/db/database.ts';
import { call, createCommunityApp, expectJson, newParent, type Parent } from '../helpers/parents.ts';
import { newVerifiedParent } from '../helpers/verified-parent.ts';

type Setup = Awaited<ReturnType<typeof createCommunityApp>>;
let app: Setup['app'];
let db: DB;
let ann: Parent;
let ben: Parent;

const create = (who: Parent, body: unknown) =>
  call(app, 'POST', '/api/saved-searches', { token: who.token, body });
const list = (who: Parent) =>
  expectJson<SavedSearchList>(call(app, 'GET', '/api/saved-searches', { token: who.token }), 200);
const patch = (who: Parent, id: number | string, body: unknown) =>
  call(app, 'PATCH', `/api/saved-searches/${id}`, { token: who.token, body });
const remove = (who: Parent, id: number | string) =>
  call(app, 'DELETE', `/api/saved-searches/${id}`, { token: who.token });

/** The 400's message, which must name the field. */
async function refusal(res: Response | Promise<Response>): Promise<string> {
  return (await expectJson<{ error: string }>(res, 400)).error;
}

beforeAll(async () => {
  ({ app, db } = await createCommunityApp());
  ann = await newVerifiedParent(app, 'Ann Searcher');
  ben = await newParent(app, db, 'Ben Unverified');
});

afterAll(async () => {
  await db?.destroy();
});

describe('saving a search', () => {
  it('needs a signed-in parent', async () => {
    expect((await call(app, 'GET', '/api/saved-searches')).status).toBe(401);
    expect((await call(app, 'POST', '/api/saved-searches', { body: { frequency: 'instant' } })).status).toBe(
      401,
    );
    expect((await call(app, 'PATCH', '/api/saved-searches/1', { body: { paused: true } })).status).toBe(401);
    expect((await call(app, 'DELETE', '/api/saved-searches/1')).status).toBe(401);
  });

  it('saves category, age group, maximum price, words and frequency, and asks to confirm the address', async () => {
    const saved = await expectJson<SavedSearch>(
      create(ann, {
        category: 'toys',
        ageGroup: '2-3 years',
        maxPrice: 30.5,
        words: '  Wooden   BLOCKS ',
        frequency: 'instant',
      }),
      201,
    );
    expect(saved).toMatchObject({
      category: 'toys',
      ageGroup: '2-3 years',
      maxPrice: 30.5,
      words: 'wooden blocks',
      frequency: 'instant',
      paused: false,
      categoryExists: true,
      lastMatch: null,
      emails: 'pending',
    });
    expect(saved.searchId).toBeGreaterThan(0);
    const confirmations = await db
      .selectFrom('deliveries')
      .select('purpose')
      .where('target', '=', ann.email)
      .where('purpose', '=', 'alert_emails_confirm')
      .execute();
    expect(confirmations).toHaveLength(1);
    expect((await list(ann)).searches.map((s) => s.searchId)).toEqual([saved.searchId]);
  });

  it('says when emails cannot go out: an unverified address gets no confirmation', async () => {
    const saved = await expectJson<SavedSearch>(create(ben, { frequency: 'daily' }), 201);
    expect(saved).toMatchObject({
      category: null,
      ageGroup: null,
      maxPrice: null,
      words: null,
      emails: 'unverified',
    });
    const mail = await db
      .selectFrom('deliveries')
      .select('purpose')
      .where('target', '=', ben.email)
      .execute();
    expect(mail).toEqual([]);
  });

  it('answers 400 naming the field for anything invalid', async () => {
    expect(await refusal(create(ann, {}))).toMatch(/^frequency:/);
    expect(await refusal(create(ann, { frequency: 'hourly' }))).toMatch(/^frequency:/);
    expect(await refusal(create(ann, { frequency: 'daily', maxPrice: 1e12 }))).toMatch(/^maxPrice:/);
    expect(await refusal(create(ann, { frequency: 'daily', maxPrice: SAVED_SEARCH_PRICE_MAX + 1 }))).toMatch(
      /^maxPrice:/,
    );
    expect(await refusal(create(ann, { frequency: 'daily', maxPrice: -5 }))).toMatch(/^maxPrice:/);
    expect(await refusal(create(ann, { frequency: 'daily', maxPrice: '30' }))).toMatch(/^maxPrice:/);
    expect(await refusal(create(ann, { frequency: 'daily', words: 'car\u0000seat' }))).toMatch(/^words:/);
    expect(await refusal(create(ann, { frequency: 'daily', words: 'car \ud800 seat' }))).toMatch(/^words:/);
    expect(await refusal(create(ann, { frequency: 'daily', words: 'x'.repeat(101) }))).toMatch(/^words:/);
    expect(await refusal(create(ann, { frequency: 'daily', category: 'spaceships' }))).toMatch(/^category:/);
    expect(await refusal(create(ann, { frequency: 'daily', ageGroup: 7 }))).toMatch(/^ageGroup:/);
    expect(await refusal(create(ann, { frequency: 'daily', colour: 'red' }))).toMatch(/colour/);
    // Not JSON at all.
    const raw = await app.request('/api/saved-searches', {
      method: 'POST',
      headers: { Authorization: `Bearer ${ann.token}`, 'Content-Type': 'application/json' },
      body: '{"frequency":',
    });
    expect(raw.status).toBe(400);
    expect((await list(ann)).searches).toHaveLength(1);
  });

  it(`keeps at most ${SAVED_SEARCHES_MAX} per parent, saying so`, async () => {
    const cat = await newParent(app, db, 'Cat Keen');
    for (let i = 0; i < SAVED_SEARCHES_MAX; i += 1)
      await expectJson(create(cat, { frequency: 'daily', words: `w${i}` }), 201);
    expect(await refusal(create(cat, { frequency: 'daily' }))).toContain(`at most ${SAVED_SEARCHES_MAX}`);
  });
});

describe('changing a search', () => {
  it('pauses, changes and deletes, only the parent’s own', async () => {
    const [search] = (await list(ann)).searches;
    const id = search!.searchId;
    expect(await expectJson<SavedSearch>(patch(ann, id, { paused: true }), 200)).toMatchObject({
      paused: true,
    });
    expect(
      await expectJson<SavedSearch>(patch(ann, id, { maxPrice: null, frequency: 'daily', words: '' }), 200),
    ).toMatchObject({
      paused: true,
      maxPrice: null,
      frequency: 'daily',
      words: null,
      category: 'toys',
    });
    expect(await refusal(patch(ann, id, { category: 'spaceships' }))).toMatch(/^category:/);
    expect(await refusal(patch(ann, id, { paused: 'yes' }))).toMatch(/^paused:/);
    expect(await refusal(patch(ann, 'abc', { paused: true }))).toMatch(/^searchId:/);
    expect((await patch(ben, id, { paused: false })).status).toBe(404);
    expect((await remove(ben, id)).status).toBe(404);
    expect(await expectJson(remove(ann, id), 200)).toEqual({ searchId: id, deleted: true });
    expect((await remove(ann, id)).status).toBe(404);
    expect((await list(ann)).searches).toEqual([]);
  });

  it('keeps a search whose category no longer has items, and says so', async () => {
    const saved = await expectJson<SavedSearch>(
      create(ann, { category: 'books', frequency: 'instant' }),
      201,
    );
    await db.updateTable('items').set({ category: 'toys' }).where('category', '=', 'books').execute();
    const [after] = (await list(ann)).searches;
    expect(after).toMatchObject({ searchId: saved.searchId, category: 'books', categoryExists: false });
    // It can still be paused or deleted.
    expect((await patch(ann, saved.searchId, { paused: true })).status).toBe(200);
  });

  it('stops in one click from an email, without signing in (RFC 8058)', async () => {
    const saved = await expectJson<SavedSearch>(create(ann, { category: 'toys', frequency: 'instant' }), 201);
    const { token } = await db
      .selectFrom('saved_searches')
      .select('token')
      .where('search_id', '=', saved.searchId)
      .executeTakeFirstOrThrow();
    const oneClick = (t: string, body = 'List-Unsubscribe=One-Click') =>
      app.request(`/api/saved-searches/one-click?token=${t}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      });
    expect((await oneClick(token, 'something=else')).status).toBe(400);
    expect((await oneClick('abc')).status).toBe(400);
    expect((await oneClick('0'.repeat(64))).status).toBe(404);
    expect(await expectJson(oneClick(token), 200)).toEqual({ paused: true });
    expect((await list(ann)).searches.find((s) => s.searchId === saved.searchId)).toMatchObject({
      paused: true,
    });
  });
});
