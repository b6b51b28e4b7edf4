import {
  type AlertEmailState,
  type SavedSearch,
  type SavedSearchFrequency,
  SAVED_SEARCHES_MAX,
} from '../../contract/favourites.ts';
import { RuleError } from '../../lib/errors.ts';
import { randomToken } from '../../lib/tokens.ts';
import type { DB } from '../database.ts';
import type { SavedSearchesTable } from '../schema.ts';
import type { Selectable } from 'kysely';

// Saved searches (docs/product.md, "Favourites and alerts"): "Tell me about new items like these"
// from the category filter. A search is a category (or any), an age group, a maximum price and
// words; api/db/queries/alerts.ts matches new and changed items against the active ones.

type SearchRow = Selectable<SavedSearchesTable>;

/** What a search is made of, as the route validated it (words already normalised). */
export interface SearchFields {
  category: string | null;
  ageGroup: string | null;
  maxPriceCents: number | null;
  words: string | null;
  frequency: SavedSearchFrequency;
}

/** Lower case, one space between words, none at the ends; null when nothing is left. */
export function normaliseWords(words: string | null | undefined): string | null {
  const text = (words ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}

/** How a search is named in lists and emails: "Toys & Games under $30, 'wooden'". */
export function searchLabel(
  row: Pick<SearchRow, 'category' | 'age_group' | 'max_price_cents' | 'words'>,
): string {
  const parts = [row.category ?? 'any category'];
  if (row.age_group) parts.push(row.age_group);
  if (row.max_price_cents !== null) parts.push(`up to $${(row.max_price_cents / 100).toFixed(2)}`);
  if (row.words) parts.push(`"${row.words}"`);
  return parts.join(', ');
}

async function categoryExists(db: DB, category: string): Promise<boolean> {
  const row = await db
    .selectFrom('items')
    .select('item_id')
    .where('category', '=', category)
    .executeTakeFirst();
  return row !== undefined;
}

/** 400 naming the field when a search asks for a category no item has. */
async function checkCategory(db: DB, category: string | null): Promise<void> {
  if (category !== null && !(await categoryExists(db, category))) {
    throw new RuleError(`category: there is no category ${JSON.stringify(category)}`, 400);
  }
}

function toSearch(
  row: SearchRow,
  extra: { lastMatch: SavedSearch['lastMatch']; categoryExists: boolean; emails: AlertEmailState },
): SavedSearch {
  return {
    searchId: Number(row.search_id),
    category: row.category,
    ageGroup: row.age_group,
    maxPrice: row.max_price_cents === null ? null : Number(row.max_price_cents) / 100,
    words: row.words,
    frequency: row.frequency,
    paused: Number(row.paused) === 1,
    createdAt: row.created_at,
    ...extra,
  };
}

/** The parent's searches, oldest first, each with its newest match. */
export async function listSavedSearches(
  db: DB,
  uid: string,
  emails: AlertEmailState,
): Promise<SavedSearch[]> {
  const rows = await db
    .selectFrom('saved_searches')
    .selectAll()
    .where('user_uid', '=', uid)
    .orderBy('created_at')
    .orderBy('search_id')
    .execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.search_id));
  const matches = await db
    .selectFrom('alerts')
    .select(['search_id', 'item_id', 'detail', 'created_at'])
    .where('kind', '=', 'search')
    .where('search_id', 'in', ids)
    .orderBy('created_at', 'desc')
    .orderBy('alert_id', 'desc')
    .execute();
  const last = new Map<number, SavedSearch['lastMatch']>();
  for (const m of matches) {
    const id = Number(m.search_id);
    if (last.has(id)) continue;
    const detail = JSON.parse(m.detail) as { itemName?: unknown };
    last.set(id, {
      itemId: m.item_id,
      itemName: typeof detail.itemName === 'string' ? detail.itemName : m.item_id,
      at: m.created_at,
    });
  }
  const categories = [...new Set(rows.map((r) => r.category).filter((c): c is string => c !== null))];
  const known = new Set(
    categories.length === 0
      ? []
      : (
          await db
            .selectFrom('items')
            .select('category')
            .distinct()
            .where('category', 'in', categories)
            .execute()
        ).map((r) => r.category),
  );
  return rows.map((row) =>
    toSearch(row, {
      lastMatch: last.get(Number(row.search_id)) ?? null,
      categoryExists: row.category === null || known.has(row.category),
      emails,
    }),
  );
}

async function findOwn(db: DB, uid: string, searchId: number): Promise<SearchRow> {
  const row = await db
    .selectFrom('saved_searches')
    .selectAll()
    .where('search_id', '=', searchId)
    .where('user_uid', '=', uid)
    .executeTakeFirst();
  if (!row) throw new RuleError(`You have no saved search ${searchId}.`, 404);
  return row;
}

/** Saves a search (400 beyond SAVED_SEARCHES_MAX or for an unknown category); answers its id. */
export async function createSavedSearch(
  db: DB,
  uid: string,
  fields: SearchFields,
  now: Date,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const count = await trx
      .selectFrom('saved_searches')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_uid', '=', uid)
      .executeTakeFirstOrThrow();
    if (Number(count.count) >= SAVED_SEARCHES_MAX) {
      throw new RuleError(
        `You can keep at most ${SAVED_SEARCHES_MAX} saved searches. Delete one on /favourites to save another.`,
        400,
      );
    }
    await checkCategory(trx, fields.category);
    const stamp = now.toISOString();
    const row = await trx
      .insertInto('saved_searches')
      .values({
        user_uid: uid,
        category: fields.category,
        age_group: fields.ageGroup,
        max_price_cents: fields.maxPriceCents,
        words: fields.words,
        frequency: fields.frequency,
        paused: 0,
        token: randomToken(),
        last_sent_at: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('search_id')
      .executeTakeFirstOrThrow();
    return Number(row.search_id);
  });
}

/** Changes a search's fields or pauses it (404 when it is not the parent's). */
export async function updateSavedSearch(
  db: DB,
  uid: string,
  searchId: number,
  patch: Partial<SearchFields> & { paused?: boolean },
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await findOwn(trx, uid, searchId);
    if (patch.category !== undefined) await checkCategory(trx, patch.category);
    await trx
      .updateTable('saved_searches')
      .set({
        ...(patch.category !== undefined && { category: patch.category }),
        ...(patch.ageGroup !== undefined && { age_group: patch.ageGroup }),
        ...(patch.maxPriceCents !== undefined && { max_price_cents: patch.maxPriceCents }),
        ...(patch.words !== undefined && { words: patch.words }),
        ...(patch.frequency !== undefined && { frequency: patch.frequency }),
        ...(patch.paused !== undefined && { paused: patch.paused ? 1 : 0 }),
        updated_at: now.toISOString(),
      })
      .where('search_id', '=', searchId)
      .execute();
  });
}

/** Deletes a search and the alerts that wait for it (404 when it is not the parent's). */
export async function deleteSavedSearch(db: DB, uid: string, searchId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await findOwn(trx, uid, searchId);
    await trx.deleteFrom('alerts').where('search_id', '=', searchId).where('sent_at', 'is', null).execute();
    await trx.deleteFrom('saved_searches').where('search_id', '=', searchId).execute();
  });
}

/** The one-click unsubscribe of a search's emails: pauses it. False when the token matches none. */
export async function pauseSearchByToken(db: DB, token: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('saved_searches')
    .set({ paused: 1, updated_at: now.toISOString() })
    .where('token', '=', token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** One search as the API shows it, after a write. */
export async function findSavedSearch(
  db: DB,
  uid: string,
  searchId: number,
  emails: AlertEmailState,
): Promise<SavedSearch> {
  const found = (await listSavedSearches(db, uid, emails)).find((s) => s.searchId === searchId);
  if (!found) throw new RuleError(`You have no saved search ${searchId}.`, 404);
  return found;
}
