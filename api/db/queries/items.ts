import type { CategoryCounts, Item } from '../../contract.ts';
import type { DB } from '../database.ts';
import type { ItemRow } from '../schema.ts';
import { confirmedRecallItemIds } from './recall-matches.ts';
import type { ServedRelease } from './releases.ts';

// Readers get the items of the live release (its copy, made when its publish began): a publish
// that fails changes nothing they see (docs/product.md, "Publishing"). An item with a confirmed
// recall is left out at once, before any publish (docs/product.md, "Recall screening").
const releaseItems = (db: DB, release: ServedRelease) =>
  db
    .selectFrom('release_items')
    .where('release_id', '=', release.id)
    .where('item_id', 'not in', confirmedRecallItemIds(db));

export function toItem(row: ItemRow): Item {
  return {
    itemId: row.item_id,
    itemName: row.item_name,
    category: row.category,
    listingPrice: row.listing_price,
    imageUrl: row.image_url,
    condition: row.condition,
    brand: row.brand,
    ageGroup: row.age_group ?? 'All Ages',
  };
}

export async function listItems(db: DB, release: ServedRelease | null): Promise<Item[]> {
  if (!release) return [];
  const rows = await releaseItems(db, release)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('item_id')
    .execute();
  return rows.map(toItem);
}

export async function listFeaturedItems(
  db: DB,
  release: ServedRelease | null,
  limit: number,
): Promise<Item[]> {
  if (!release) return [];
  const rows = await releaseItems(db, release)
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
  const rows = await releaseItems(db, release)
    .select(['category', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('category')
    .orderBy('category')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.category, Number(r.count)]));
}
