import type { CategoryCounts, Item } from '../../contract.ts';
import { SCREENING_CHECKS, type ScreeningCheck } from '../../contract/screening.ts';
import type { DB } from '../database.ts';
import type { ItemRow } from '../schema.ts';
import type { ServedRelease } from './releases.ts';

// Readers get only listings that every check has cleared and that are still for sale (docs/product.md,
// "Listing screening"): a cleared listing is on /api/items at once, and a confirmed recall blocks its
// listing in the transaction that confirms it. Items are not a release's copy: listings arrive
// between publishes, and the pages follow with the next one.
const visibleItems = (db: DB) =>
  db.selectFrom('items').where('screening_state', '=', 'cleared').where('status', '=', 'active');

const parseList = (text: string): unknown[] => {
  // Most listings have no notes: no parse for them (a favourites list reads up to 500).
  if (text === '[]') return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
};

const isCheck = (value: unknown): value is ScreeningCheck =>
  typeof value === 'string' && (SCREENING_CHECKS as readonly string[]).includes(value);

/** What toItem reads of an item's row. */
export type ItemFields = Pick<
  ItemRow,
  | 'item_id'
  | 'item_name'
  | 'category'
  | 'listing_price'
  | 'image_url'
  | 'condition'
  | 'brand'
  | 'age_group'
  | 'checks_ran'
  | 'safety_notes'
  | 'checked_at'
  | 'created_at'
>;

export function toItem(row: ItemFields): Item {
  return {
    itemId: row.item_id,
    itemName: row.item_name,
    category: row.category,
    listingPrice: row.listing_price,
    imageUrl: row.image_url,
    condition: row.condition,
    brand: row.brand,
    ageGroup: row.age_group ?? 'All Ages',
    checks: { checkedAt: row.checked_at ?? row.created_at, ran: parseList(row.checks_ran).filter(isCheck) },
    safetyNotes: parseList(row.safety_notes).filter((n): n is string => typeof n === 'string'),
  };
}

/** The items parents see; no live release yet (a new server before its first publish) means none. */
export async function listItems(db: DB, release: ServedRelease | null): Promise<Item[]> {
  if (!release) return [];
  const rows = await visibleItems(db).selectAll().orderBy('created_at', 'desc').orderBy('item_id').execute();
  return rows.map(toItem);
}

export async function listFeaturedItems(
  db: DB,
  release: ServedRelease | null,
  limit: number,
): Promise<Item[]> {
  if (!release) return [];
  const rows = await visibleItems(db)
    .selectAll()
    .where('is_featured', '=', 1)
    .orderBy('created_at', 'desc')
    .orderBy('item_id')
    .limit(limit)
    .execute();
  return rows.map(toItem);
}

/** Map of category key to item count; categories without items are absent. */
export async function countItemsByCategory(db: DB, release: ServedRelease | null): Promise<CategoryCounts> {
  if (!release) return {};
  const rows = await visibleItems(db)
    .select(['category', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('category')
    .orderBy('category')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.category, Number(r.count)]));
}

/** One item as parents see it, or null when it is not shown (pending, held, blocked, sold, removed). */
export async function findVisibleItem(db: DB, itemId: string): Promise<Item | null> {
  const row = await visibleItems(db).selectAll().where('item_id', '=', itemId).executeTakeFirst();
  return row ? toItem(row) : null;
}
