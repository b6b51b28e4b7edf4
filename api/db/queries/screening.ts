import type { FaceBox, ScreenedPhoto, Screening, ScreeningReason } from '../../contract/screening.ts';
import { decideScreening, type RuleFindingInput, type ScreeningOutcome } from '../../screening/decide.ts';
import type { Selectable } from 'kysely';
import type { DB } from '../database.ts';
import type { ItemRow, ListingPhotosTable } from '../schema.ts';
import { listingsChanged } from './alerts.ts';
import { imageAddress } from './images.ts';

// Where each listing's screening stands (docs/product.md, "Listing screening"). Every check that
// finishes, every moderator decision and every recall decision ends here: the state is worked out
// from all of them at once (api/screening/decide.ts), so no path can forget a check.

const CHUNK = 200;

export const parseJson = <T>(text: string | null, fallback: T): T => {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

type PhotoRow = Pick<
  Selectable<ListingPhotosTable>,
  | 'item_id'
  | 'position'
  | 'source_url'
  | 'state'
  | 'outcome'
  | 'reasons'
  | 'faces'
  | 'image_id'
  | 'blurred_image_id'
>;

interface Gathered {
  item: ItemRow;
  photos: PhotoRow[];
  recalls: { status: 'open' | 'confirmed' | 'dismissed'; title: string; url: string | null }[];
}

/** Whether recall data has been imported: until then no listing has been checked against recalls. */
async function hasRecallData(db: DB): Promise<boolean> {
  return (
    (await db.selectFrom('recall_imports').select('import_id').limit(1).executeTakeFirst()) !== undefined
  );
}

async function gather(db: DB, itemIds: string[]): Promise<Gathered[]> {
  const out: Gathered[] = [];
  for (let i = 0; i < itemIds.length; i += CHUNK) {
    const ids = itemIds.slice(i, i + CHUNK);
    const items = await db.selectFrom('items').selectAll().where('item_id', 'in', ids).execute();
    if (items.length === 0) continue;
    const photos = await db
      .selectFrom('listing_photos')
      .select([
        'item_id',
        'position',
        'source_url',
        'state',
        'outcome',
        'reasons',
        'faces',
        'image_id',
        'blurred_image_id',
      ])
      .where('item_id', 'in', ids)
      .orderBy('item_id')
      .orderBy('position')
      .execute();
    const recalls = await db
      .selectFrom('recall_matches as m')
      .innerJoin('recalls as r', 'r.recall_id', 'm.recall_id')
      .select(['m.item_id', 'm.status', 'r.title', 'r.url'])
      .where('m.item_id', 'in', ids)
      .orderBy('m.match_id')
      .execute();
    for (const item of items) {
      out.push({
        item,
        photos: photos.filter((p) => p.item_id === item.item_id),
        recalls: recalls.filter((r) => r.item_id === item.item_id),
      });
    }
  }
  return out;
}

function outcomeOf({ item, photos, recalls }: Gathered, recallData: boolean): ScreeningOutcome {
  return decideScreening({
    recallData,
    findings: parseJson<RuleFindingInput[]>(item.rule_findings, []),
    photos: photos.map((p) => ({
      state: p.state,
      outcome: p.outcome,
      reasons: parseJson<ScreeningReason[]>(p.reasons, []),
    })),
    recalls,
    decision: item.decision,
  });
}

/** What an item card shows: a sample illustration, else the first photo as cleared (blurred if so decided). */
async function shownImage(db: DB, g: Gathered): Promise<string | null> {
  if (g.photos.length === 0) return g.item.image_url?.startsWith('/images/') ? g.item.image_url : null;
  const first = g.photos[0]!;
  const id = g.item.decision === 'blur' ? (first.blurred_image_id ?? null) : first.image_id;
  return id ? imageAddress(db, id) : null;
}

/**
 * Works out the state of the listings given and stores it with the checks that ran and the safety
 * notes; `checked_at` moves when a check's result or a decision changed the outcome. Listings that
 * became visible or hidden (or whose price moved, from `priorPrices`) are handed to the alerts.
 * Answers how many listings parents now see or no longer see: the pages need a publish for those.
 */
export async function refreshScreening(
  db: DB,
  itemIds: string[],
  now: Date,
  priorPrices: Map<string, string> = new Map(),
): Promise<{ shownChanged: number }> {
  if (itemIds.length === 0) return { shownChanged: 0 };
  const changes: Parameters<typeof listingsChanged>[1] = [];
  const recallData = await hasRecallData(db);
  for (const g of await gather(db, [...new Set(itemIds)])) {
    const outcome = outcomeOf(g, recallData);
    const ran = JSON.stringify(outcome.ran);
    const notes = JSON.stringify(outcome.safetyNotes);
    const image = await shownImage(db, g);
    const { item } = g;
    const wasVisible = item.screening_state === 'cleared' && item.status === 'active';
    const isVisible = outcome.state === 'cleared' && item.status === 'active';
    const oldPrice = priorPrices.get(item.item_id) ?? item.listing_price;
    if (wasVisible !== isVisible || oldPrice !== item.listing_price) {
      changes.push({ itemId: item.item_id, wasVisible, isVisible, oldPrice, newPrice: item.listing_price });
    }
    if (
      outcome.state === item.screening_state &&
      ran === item.checks_ran &&
      notes === item.safety_notes &&
      image === item.image_url &&
      item.checked_at !== null
    ) {
      continue;
    }
    await db
      .updateTable('items')
      .set({
        screening_state: outcome.state,
        checks_ran: ran,
        safety_notes: notes,
        image_url: image,
        checked_at: outcome.state === 'pending' ? item.checked_at : now.toISOString(),
      })
      .where('item_id', '=', item.item_id)
      .execute();
  }
  if (changes.length > 0) await listingsChanged(db, changes, now);
  return { shownChanged: changes.filter((c) => c.wasVisible !== c.isVisible).length };
}

/** The whole screening of each listing given, as the moderation console shows it. */
export async function screeningsOf(
  db: DB,
  itemIds: string[],
): Promise<Map<string, { item: ItemRow; screening: Screening }>> {
  const out = new Map<string, { item: ItemRow; screening: Screening }>();
  const recallData = await hasRecallData(db);
  for (const g of await gather(db, itemIds)) {
    const outcome = outcomeOf(g, recallData);
    const photos: ScreenedPhoto[] = [];
    for (const p of g.photos) {
      photos.push({
        url: p.image_id ? await imageAddress(db, p.image_id) : null,
        sourceUrl: p.source_url,
        state: p.state,
        faces: parseJson<FaceBox[]>(p.faces, []),
      });
    }
    const { item } = g;
    out.set(item.item_id, {
      item,
      screening: {
        state: item.screening_state,
        checks: outcome.checks,
        photos,
        checkedAt: item.checked_at,
        decision:
          item.decision && item.decided_at
            ? {
                decision: item.decision,
                reason: item.decision_reason,
                at: item.decided_at,
                byName: item.decided_by_name ?? '',
              }
            : null,
      },
    });
  }
  return out;
}
