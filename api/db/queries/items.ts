import type { CategoryCounts, Item } from '../../contract.ts';
import type { DB } from '../database.ts';
import type { ItemRow } from '../schema.ts';

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

export async function listItems(db: DB): Promise<Item[]> {
  const rows = await db
    .selectFrom('items')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('item_id')
    .execute();
  return rows.map(toItem);
}

export async function listFeaturedItems(db: DB, limit: number): Promise<Item[]> {
  const rows = await db
    .selectFrom('items')
    .selectAll()
    .where('is_featured', '=', 1)
    .orderBy('created_at', 'desc')
    .orderBy('item_id')
    .limit(limit)
    .execute();
  return rows.map(toItem);
}

/** Map of category key to item count; categories without items are absent. */
export async function countItemsByCategory(db: DB): Promise<CategoryCounts> {
  const rows = await db
    .selectFrom('items')
    .select(['category', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('category')
    .orderBy('category')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.category, Number(r.count)]));
}
