import { createHash } from 'node:crypto';
import type {
  ListingDecision,
  ListingsAccepted,
  ScreenedListing,
  ScreeningFigures,
  ScreeningState,
} from '../../contract/screening.ts';
import { RuleError } from '../../lib/errors.ts';
import type { ParsedListing } from '../../screening/listing-input.ts';
import { RULES_VERSION, screenListingRules } from '../../screening/rules.ts';
import type { DB } from '../database.ts';
import type { ItemRow } from '../schema.ts';
import { recordAudit } from './audit.ts';
import { checkItems } from './recall-matches.ts';
import { refreshScreening, screeningsOf } from './screening.ts';

// Listings from the marketplace (docs/product.md, "Listing screening"): POST /api/listings,
// `npm run items:import` and a new database's content/items.json all come in here. Each listing is
// upserted by its id; one sent again unchanged changes nothing; a changed one is screened again
// from the start (a moderator's decision was about the listing as it was).

/** Held listings the console lists at most, oldest first: the queue, not the archive. */
export const HELD_LISTINGS_SHOWN = 200;

/** A hash of what the screening reads, so the same listing sent again is known as such. */
function listingHash(listing: ParsedListing): string {
  const { status: _status, featured: _featured, createdAt: _createdAt, ...screened } = listing;
  const ordered = Object.fromEntries(Object.entries(screened).sort(([a], [b]) => a.localeCompare(b)));
  return createHash('sha256').update(JSON.stringify(ordered)).digest('hex');
}

const rulesOf = (
  listing: Pick<
    ItemRow,
    'item_name' | 'category' | 'condition' | 'brand' | 'age_group' | 'description' | 'manufacture_year'
  >,
  now: Date,
) =>
  JSON.stringify(
    screenListingRules(
      {
        itemName: listing.item_name,
        category: listing.category,
        condition: listing.condition,
        brand: listing.brand,
        ageGroup: listing.age_group,
        description: listing.description,
        manufactureYear: listing.manufacture_year,
      },
      { now },
    ),
  );

/**
 * Takes listings in: upserts each, queues its photos, checks it against the recalls and works out
 * its state, all in one transaction (a request is kept whole or not at all). Photos are analysed
 * later by the queue; until then a listing with photos is pending.
 */
export async function importListings(
  db: DB,
  listings: ParsedListing[],
  now: Date,
): Promise<ListingsAccepted & { shownChanged: number }> {
  const stamp = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const ids = listings.map((l) => l.itemId);
    const existing = new Map<string, ItemRow>();
    for (let i = 0; i < ids.length; i += 200) {
      const rows = await trx
        .selectFrom('items')
        .selectAll()
        .where('item_id', 'in', ids.slice(i, i + 200))
        .execute();
      for (const row of rows) existing.set(row.item_id, row);
    }
    const rescreen: string[] = [];
    const touched: string[] = [];
    const priorPrices = new Map<string, string>();
    for (const listing of listings) {
      const before = existing.get(listing.itemId);
      const hash = listingHash(listing);
      const status = listing.status ?? 'active';
      if (before && before.listing_hash === hash) {
        if (before.status !== status) {
          await trx.updateTable('items').set({ status }).where('item_id', '=', listing.itemId).execute();
          touched.push(listing.itemId);
        }
        continue;
      }
      const fields = {
        item_name: listing.itemName,
        category: listing.category,
        listing_price: listing.listingPrice,
        condition: listing.condition ?? null,
        brand: listing.brand ?? null,
        age_group: listing.ageGroup ?? null,
        description: listing.description ?? null,
        manufacture_year: listing.manufactureYear ?? null,
      };
      const values = {
        ...fields,
        image_url: listing.imageUrl ?? null,
        is_featured: listing.featured ? 1 : 0,
        status,
        screening_state: 'pending' as const,
        rule_findings: rulesOf({ ...fields }, now),
        rules_version: RULES_VERSION,
        listing_hash: hash,
        received_at: stamp,
        decision: null,
        decision_reason: null,
        decided_at: null,
        decided_by_name: null,
      };
      if (before) priorPrices.set(listing.itemId, before.listing_price);
      await trx
        .insertInto('items')
        .values({ item_id: listing.itemId, created_at: listing.createdAt ?? stamp, ...values })
        .onConflict((oc) => oc.column('item_id').doUpdateSet(values))
        .execute();
      await queuePhotos(trx, listing.itemId, listing.photos ?? [], stamp);
      rescreen.push(listing.itemId);
    }
    await checkItems(trx, now, rescreen);
    const { shownChanged } = await refreshScreening(trx, [...rescreen, ...touched], now, priorPrices);
    const states = await statesOf(trx, ids);
    return {
      shownChanged,
      accepted: listings.length,
      listings: ids.map((itemId) => ({ itemId, screening: states.get(itemId) ?? 'pending' })),
    };
  });
}

/** Keeps a listing's photos when they are the same addresses in the same order; else queues them anew. */
async function queuePhotos(db: DB, itemId: string, photos: string[], stamp: string): Promise<void> {
  const current = await db
    .selectFrom('listing_photos')
    .select('source_url')
    .where('item_id', '=', itemId)
    .orderBy('position')
    .execute();
  if (current.length === photos.length && current.every((p, i) => p.source_url === photos[i])) return;
  await db.deleteFrom('listing_photos').where('item_id', '=', itemId).execute();
  if (photos.length === 0) return;
  await db
    .insertInto('listing_photos')
    .values(
      photos.map((source_url, position) => ({
        item_id: itemId,
        position,
        source_url,
        state: 'queued' as const,
        queued_at: stamp,
      })),
    )
    .execute();
}

async function statesOf(db: DB, ids: string[]): Promise<Map<string, ScreeningState>> {
  const out = new Map<string, ScreeningState>();
  for (let i = 0; i < ids.length; i += 200) {
    const rows = await db
      .selectFrom('items')
      .select(['item_id', 'screening_state'])
      .where('item_id', 'in', ids.slice(i, i + 200))
      .execute();
    for (const row of rows) out.set(row.item_id, row.screening_state);
  }
  return out;
}

/**
 * Listings screened under older rules are screened again (a start-up runs it): a change of rules
 * reaches every listing without anyone sending it again.
 */
export async function rescreenStaleListings(db: DB, now: Date): Promise<number> {
  const stale = await db
    .selectFrom('items')
    .selectAll()
    .where('rules_version', '!=', RULES_VERSION)
    .execute();
  if (stale.length === 0) return 0;
  await db.transaction().execute(async (trx) => {
    for (const item of stale) {
      await trx
        .updateTable('items')
        .set({ rule_findings: rulesOf(item, now), rules_version: RULES_VERSION })
        .where('item_id', '=', item.item_id)
        .execute();
    }
    await refreshScreening(
      trx,
      stale.map((i) => i.item_id),
      now,
    );
  });
  return stale.length;
}

function toScreened(item: ItemRow, screening: ScreenedListing['screening']): ScreenedListing {
  return {
    itemId: item.item_id,
    itemName: item.item_name,
    category: item.category,
    listingPrice: item.listing_price,
    condition: item.condition,
    brand: item.brand,
    ageGroup: item.age_group,
    description: item.description,
    manufactureYear: item.manufacture_year,
    status: item.status,
    receivedAt: item.received_at ?? item.created_at,
    screening,
  };
}

/** The moderators' queue: held listings, the longest waiting first. */
export async function listHeldListings(db: DB): Promise<ScreenedListing[]> {
  const held = await db
    .selectFrom('items')
    .select('item_id')
    .where('screening_state', '=', 'held')
    .where('status', '=', 'active')
    .orderBy('received_at')
    .orderBy('item_id')
    .limit(HELD_LISTINGS_SHOWN)
    .execute();
  const ids = held.map((r) => r.item_id);
  const screened = await screeningsOf(db, ids);
  return ids.flatMap((id) => {
    const found = screened.get(id);
    return found ? [toScreened(found.item, found.screening)] : [];
  });
}

/** Any listing in any state, for a moderator. */
export async function findScreenedListing(db: DB, itemId: string): Promise<ScreenedListing | null> {
  const found = (await screeningsOf(db, [itemId])).get(itemId);
  return found ? toScreened(found.item, found.screening) : null;
}

export interface ListingDecisionInput {
  itemId: string;
  decision: ListingDecision;
  reason: string | null;
  ageGroup: string | null;
  actor: { uid: string | null; name: string };
}

/**
 * A moderator's decision, audited, in one transaction with the state it leads to. A block needs a
 * reason; a new age group screens the listing again under it; "blur" needs the blurred copies,
 * which the caller has made and stored (api/lib/listing-photos.ts) before calling.
 */
export async function decideListing(
  db: DB,
  input: ListingDecisionInput,
  now: Date,
): Promise<{ listing: ScreenedListing; shownChanged: number }> {
  const { itemId, decision, reason, ageGroup, actor } = input;
  if (decision === 'block' && !reason) {
    throw new RuleError('Say why you block this listing: a block needs a reason.', 400);
  }
  if (decision === 'reage' && !ageGroup) {
    throw new RuleError('ageGroup: say which age group the listing belongs in.', 400);
  }
  const shownChanged = await db.transaction().execute(async (trx) => {
    const item = await trx.selectFrom('items').selectAll().where('item_id', '=', itemId).executeTakeFirst();
    if (!item) throw new RuleError('There is no listing with that id.', 404);
    if (decision === 'blur') {
      const photos = await trx
        .selectFrom('listing_photos')
        .select(['state', 'image_id', 'blurred_image_id'])
        .where('item_id', '=', itemId)
        .execute();
      if (photos.length === 0) throw new RuleError('This listing has no photos to blur.', 409);
      if (photos.some((p) => p.state === 'queued')) {
        throw new RuleError('Its photos are still being checked: decide once they are done.', 409);
      }
    }
    const aged = decision === 'reage' && ageGroup ? { ...item, age_group: ageGroup } : item;
    await trx
      .updateTable('items')
      .set({
        decision,
        decision_reason: reason,
        decided_at: now.toISOString(),
        decided_by_name: actor.name,
        age_group: aged.age_group,
        rule_findings: decision === 'reage' ? rulesOf(aged, now) : item.rule_findings,
      })
      .where('item_id', '=', itemId)
      .execute();
    const refreshed = await refreshScreening(trx, [itemId], now);
    await recordAudit(
      trx,
      {
        actor,
        action: `listing.${decision}`,
        target: { type: 'listing', id: itemId },
        reason:
          decision === 'reage'
            ? `${item.age_group ?? 'no age group'} → ${ageGroup}${reason ? `: ${reason}` : ''}`
            : reason,
      },
      now,
    );
    return refreshed.shownChanged;
  });
  return { listing: (await findScreenedListing(db, itemId))!, shownChanged };
}

/** How many listings were checked in the last 7 days, and how many of them were held or blocked. */
export async function screeningFigures(db: DB, now: Date): Promise<ScreeningFigures> {
  const since = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const rows = await db
    .selectFrom('items')
    .select(['screening_state', (eb) => eb.fn.countAll<number>().as('count')])
    .where('checked_at', '>=', since)
    .groupBy('screening_state')
    .execute();
  const count = (state: ScreeningState) => Number(rows.find((r) => r.screening_state === state)?.count ?? 0);
  return {
    checkedThisWeek: rows.reduce((sum, r) => sum + Number(r.count), 0) - count('pending'),
    heldThisWeek: count('held'),
    blockedThisWeek: count('blocked'),
  };
}
