import type { Item } from '../../contract.ts';
import {
  type Favourite,
  FAVOURITE_STATES,
  FAVOURITES_MAX,
  type FavouriteState,
} from '../../contract/favourites.ts';
import { RuleError } from '../../lib/errors.ts';
import type { DB } from '../database.ts';
import type { ItemRow } from '../schema.ts';
import { type ItemFields, toItem } from './items.ts';

// Favourites (docs/product.md, "Favourites and alerts"): the items a parent saved, with the price
// they had then. Only the parent reads them; nothing counts how many parents saved an item.

/** What a favourite's state is read from: the item's row (none once it is gone) and its recalls. */
type StateRow = Pick<ItemRow, 'status' | 'screening_state' | 'listing_price'>;

/**
 * The one place that says where a saved item stands: gone, sold, removed by its seller, recalled,
 * blocked by a safety check (removed), waiting for one (held), or on sale at the price saved or
 * another one.
 */
export function favouriteState(
  row: StateRow | undefined,
  recalled: boolean,
  priceWhenSaved: string,
): { state: FavouriteState; removedForSafety: boolean } {
  // A recall comes first: a saved item that sold may be in the parent's home by now.
  if (recalled) return STATES.recalled;
  if (!row) return STATES.removed;
  if (row.status === 'sold') return STATES.sold;
  if (row.status === 'removed') return STATES.removed;
  if (row.screening_state === 'blocked') return REMOVED_FOR_SAFETY;
  if (row.screening_state !== 'cleared') return STATES.held;
  return Number(row.listing_price) === Number(priceWhenSaved) ? STATES.available : STATES.price_changed;
}

// Made once: the list asks for up to 500 of them a request.
const STATES = Object.fromEntries(
  FAVOURITE_STATES.map((state) => [state, Object.freeze({ state, removedForSafety: false })]),
) as Record<FavouriteState, { state: FavouriteState; removedForSafety: boolean }>;
const REMOVED_FOR_SAFETY = Object.freeze({ state: 'removed' as const, removedForSafety: true });

/** What the list reads of an item: its state, and what toItem (api/db/queries/items.ts) shows. */
export const ITEM_COLUMNS = [
  'item_id',
  'item_name',
  'category',
  'listing_price',
  'image_url',
  'condition',
  'brand',
  'age_group',
  'checks_ran',
  'safety_notes',
  'checked_at',
  'created_at',
  'status',
  'screening_state',
] as const satisfies readonly (keyof ItemRow)[];

/** The parent's saved items that have a confirmed recall match. */
async function recalledOf(db: DB, uid: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('recall_matches as m')
    .innerJoin('favourites as f', 'f.item_id', 'm.item_id')
    .select('m.item_id')
    .where('f.user_uid', '=', uid)
    .where('m.status', '=', 'confirmed')
    .execute();
  return new Set(rows.map((r) => r.item_id));
}

/** A parent's saved items, newest first, each with its state now. */
/** A left-joined row whose item is there (its columns are NOT NULL in the table). */
const hasItem = <R extends { item_id: string | null }>(r: R): r is R & ItemFields & StateRow =>
  r.item_id !== null;

export async function listFavourites(db: DB, uid: string): Promise<Favourite<Item>[]> {
  // One query, and only the columns read below: the item's whole row (screening findings and all)
  // cost twice as much for a parent with 500 (npm run bench:favourites).
  const rows = await db
    .selectFrom('favourites as f')
    .leftJoin('items as i', 'i.item_id', 'f.item_id')
    .select(['f.item_id as saved_item_id', 'f.saved_at', 'f.price_when_saved'])
    .select(ITEM_COLUMNS.map((column) => `i.${column}` as const))
    .where('f.user_uid', '=', uid)
    .orderBy('f.saved_at', 'desc')
    .orderBy('f.item_id')
    .execute();
  if (rows.length === 0) return [];
  const recalled = await recalledOf(db, uid);
  return rows.map((r) => {
    const row = hasItem(r) ? r : undefined;
    const { state, removedForSafety } = favouriteState(
      row,
      recalled.has(r.saved_item_id),
      r.price_when_saved,
    );
    // Parents see the item while it is (or was, until sold) on sale; a held, removed or recalled
    // listing is named only.
    const shown = row && (state === 'available' || state === 'price_changed' || state === 'sold');
    return {
      itemId: r.saved_item_id,
      savedAt: r.saved_at,
      priceWhenSaved: r.price_when_saved,
      state,
      removedForSafety,
      // The columns toItem reads are all in ITEM_COLUMNS (tests/api/favourites.test.ts compares).
      item: shown ? toItem(row) : null,
      itemName: row?.item_name ?? null,
    };
  });
}

export async function countFavourites(db: DB, uid: string): Promise<number> {
  const row = await db
    .selectFrom('favourites')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_uid', '=', uid)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** An item parents can see now: cleared, for sale and with no confirmed recall. */
async function visiblePrice(db: DB, itemId: string): Promise<string | null> {
  const row = await db
    .selectFrom('items')
    .select('listing_price')
    .where('item_id', '=', itemId)
    .where('screening_state', '=', 'cleared')
    .where('status', '=', 'active')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('recall_matches')
            .select('recall_matches.item_id')
            .whereRef('recall_matches.item_id', '=', 'items.item_id')
            .where('recall_matches.status', '=', 'confirmed'),
        ),
      ),
    )
    .executeTakeFirst();
  return row?.listing_price ?? null;
}

/**
 * Saves an item (again: nothing changes, so a repeated or racing save is harmless) and answers the
 * parent's count. 404 for an item parents cannot see; 400 beyond FAVOURITES_MAX.
 */
export async function saveFavourite(db: DB, uid: string, itemId: string, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const saved = await trx
      .selectFrom('favourites')
      .select('item_id')
      .where('user_uid', '=', uid)
      .where('item_id', '=', itemId)
      .executeTakeFirst();
    if (saved) return countFavourites(trx, uid);
    const price = await visiblePrice(trx, itemId);
    if (price === null) {
      throw new RuleError(
        `There is no item ${JSON.stringify(itemId)} for sale: it may have been sold or removed.`,
        404,
      );
    }
    if ((await countFavourites(trx, uid)) >= FAVOURITES_MAX) {
      throw new RuleError(
        `You can save at most ${FAVOURITES_MAX} items. Remove some from your favourites to save more.`,
        400,
      );
    }
    await trx
      .insertInto('favourites')
      .values({ user_uid: uid, item_id: itemId, saved_at: now.toISOString(), price_when_saved: price })
      .onConflict((oc) => oc.columns(['user_uid', 'item_id']).doNothing())
      .execute();
    return countFavourites(trx, uid);
  });
}

/**
 * Removes a saved item and answers the count. Removing one that is not saved changes nothing; an
 * id no item ever had is a 404, so a typo is not mistaken for success.
 */
export async function removeFavourite(db: DB, uid: string, itemId: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('favourites')
      .where('user_uid', '=', uid)
      .where('item_id', '=', itemId)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) {
      const known = await trx
        .selectFrom('items')
        .select('item_id')
        .where('item_id', '=', itemId)
        .executeTakeFirst();
      if (!known) throw new RuleError(`There is no item ${JSON.stringify(itemId)}.`, 404);
    }
    return countFavourites(trx, uid);
  });
}
