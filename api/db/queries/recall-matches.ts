import type { RecallMatch } from '../../contract.ts';
import { RuleError } from '../../lib/errors.ts';
import { createMatcher, type MatchableRecall } from '../../recalls/match.ts';
import type { DB } from '../database.ts';
import type { RecallMatchesTable } from '../schema.ts';
import { recordAudit } from './audit.ts';
import { queueSafetyAlertsForMatch } from './alerts.ts';
import { allRecallsForMatching, recallsByIds } from './recalls.ts';
import { refreshScreening } from './screening.ts';

// Candidate matches of items against recalls, for moderators to decide (docs/product.md, "Recall
// screening"). A match is never a silent block: it waits, open, until a moderator confirms it (the
// item leaves every list) or dismisses it (the same item and recall are never raised again).

/** How many decided matches the console lists after the open ones, newest first. */
export const DECIDED_MATCHES_SHOWN = 100;

// Rows per insert: 7 columns × 200 stays far below both databases' parameter limits.
const CHUNK = 200;

/** What matching reads of every recall: the names in the lists the importer normalised. */
async function recallsForMatching(db: DB): Promise<MatchableRecall[]> {
  return (await allRecallsForMatching(db)).map(({ recallId, lists }) => ({
    recallId,
    products: lists.products.map((p) => ({ name: p.name, model: p.model })),
    manufacturers: lists.manufacturers.map((c) => c.name),
    retailers: lists.retailers.map((c) => c.name),
    importers: lists.importers.map((c) => c.name),
    distributors: lists.distributors.map((c) => c.name),
  }));
}

/** Runs `work` in a transaction, or in the caller's when `db` already is one (an import's). */
const inTransaction = <T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

/**
 * Checks every item of the catalogue against every recall: new candidates are raised (open), an
 * open match whose score or terms changed is updated, and an open match that no longer scores (the
 * item or recall changed, or the item left the catalogue) is withdrawn. A confirmed or dismissed
 * pair is never raised again nor changed. Safe to run at the same time on several instances.
 */
export async function checkAllItems(db: DB, now: Date): Promise<{ raised: number }> {
  return checkItems(db, now, null);
}

/**
 * checkAllItems for the listings given (null: every item), as the intake runs it for the listings
 * a request changed. Matches of other items are left as they are. Every item whose open or
 * confirmed matches changed is screened again (api/db/queries/screening.ts), in the same
 * transaction, so a possible recall holds its listing at once.
 */
export async function checkItems(db: DB, now: Date, itemIds: string[] | null): Promise<{ raised: number }> {
  if (itemIds !== null && itemIds.length === 0) return { raised: 0 };
  const items = await db
    .selectFrom('items')
    .select(['item_id', 'item_name', 'brand'])
    .$if(itemIds !== null, (q) => q.where('item_id', 'in', itemIds ?? []))
    .execute();
  const matcher = createMatcher(await recallsForMatching(db));
  const found = new Map<string, { itemId: string; recallId: number; score: number; terms: string }>();
  for (const item of items) {
    for (const m of matcher.match({ itemId: item.item_id, itemName: item.item_name, brand: item.brand })) {
      found.set(`${m.itemId} ${m.recallId}`, { ...m, terms: JSON.stringify(m.terms) });
    }
  }

  return inTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom('recall_matches')
      .select(['match_id', 'item_id', 'recall_id', 'score', 'terms', 'status'])
      .$if(itemIds !== null, (q) => q.where('item_id', 'in', itemIds ?? []))
      .execute();
    const touched = new Set<string>();
    const known = new Set<string>();
    const withdrawn: number[] = [];
    for (const row of existing) {
      const key = `${row.item_id} ${Number(row.recall_id)}`;
      known.add(key);
      if (row.status !== 'open') continue;
      const current = found.get(key);
      if (!current) {
        withdrawn.push(row.match_id);
        touched.add(row.item_id);
      } else if (current.score !== Number(row.score) || current.terms !== row.terms) {
        await trx
          .updateTable('recall_matches')
          .set({ score: current.score, terms: current.terms })
          .where('match_id', '=', row.match_id)
          .where('status', '=', 'open')
          .execute();
      }
    }
    for (let i = 0; i < withdrawn.length; i += CHUNK) {
      await trx
        .deleteFrom('recall_matches')
        .where('match_id', 'in', withdrawn.slice(i, i + CHUNK))
        .where('status', '=', 'open')
        .execute();
    }
    const fresh = [...found].filter(([key]) => !known.has(key)).map(([, m]) => m);
    let raised = 0;
    for (let i = 0; i < fresh.length; i += CHUNK) {
      // Another instance's check may have raised the same pair meanwhile: the unique pair wins.
      const inserted = await trx
        .insertInto('recall_matches')
        .values(
          fresh.slice(i, i + CHUNK).map((m) => ({
            item_id: m.itemId,
            recall_id: m.recallId,
            score: m.score,
            terms: m.terms,
            status: 'open' as const,
            created_at: now.toISOString(),
          })),
        )
        .onConflict((oc) => oc.columns(['item_id', 'recall_id']).doNothing())
        .returning('match_id')
        .execute();
      raised += inserted.length;
      if (inserted.length > 0) for (const m of fresh.slice(i, i + CHUNK)) touched.add(m.itemId);
    }
    // A check of every item (a recall import) screens them all again: the first import is the
    // first recall check any of them had.
    await refreshScreening(trx, itemIds === null ? items.map((i) => i.item_id) : [...touched], now);
    return { raised };
  });
}

type MatchRow = Pick<
  RecallMatchesTable,
  | 'item_id'
  | 'recall_id'
  | 'score'
  | 'terms'
  | 'status'
  | 'created_at'
  | 'decided_at'
  | 'decided_by_name'
  | 'reason'
> & {
  match_id: number;
  item_name: string | null;
  brand: string | null;
  image_url: string | null;
};

const parseTerms = (text: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
};

/** The matches with their items and recalls, in the order given. */
async function toMatches(db: DB, rows: MatchRow[]): Promise<RecallMatch[]> {
  const recalls = await recallsByIds(
    db,
    rows.map((r) => Number(r.recall_id)),
  );
  return rows.flatMap((row): RecallMatch[] => {
    const recall = recalls.get(Number(row.recall_id));
    if (!recall) return [];
    return [
      {
        matchId: Number(row.match_id),
        status: row.status,
        score: Number(row.score),
        terms: parseTerms(row.terms),
        item: {
          itemId: row.item_id,
          // An item that has left the catalogue since its match was decided keeps its id.
          itemName: row.item_name ?? row.item_id,
          brand: row.brand,
          imageUrl: row.image_url,
        },
        recall,
        raisedAt: row.created_at,
        decision:
          row.status === 'open' || row.decided_at === null
            ? null
            : {
                action: row.status === 'confirmed' ? 'confirm' : 'dismiss',
                reason: row.reason,
                at: row.decided_at,
                byName: row.decided_by_name ?? '',
              },
      },
    ];
  });
}

const matchesWithItems = (db: DB) =>
  db
    .selectFrom('recall_matches as m')
    .leftJoin('items as i', 'i.item_id', 'm.item_id')
    .select([
      'm.match_id',
      'm.item_id',
      'm.recall_id',
      'm.score',
      'm.terms',
      'm.status',
      'm.created_at',
      'm.decided_at',
      'm.decided_by_name',
      'm.reason',
      'i.item_name',
      'i.brand',
      'i.image_url',
    ]);

/**
 * The console's list: every open match (highest score first, then the newest raised), then the
 * newest decided ones (at most DECIDED_MATCHES_SHOWN). An open match of an item no longer in the
 * catalogue is left out: the next check withdraws it.
 */
export async function listRecallMatches(db: DB): Promise<RecallMatch[]> {
  const open = await matchesWithItems(db)
    .where('m.status', '=', 'open')
    .where('i.item_id', 'is not', null)
    .orderBy('m.score', 'desc')
    .orderBy('m.created_at', 'desc')
    .orderBy('m.match_id', 'desc')
    .execute();
  const decided = await matchesWithItems(db)
    .where('m.status', '!=', 'open')
    .orderBy('m.decided_at', 'desc')
    .orderBy('m.match_id', 'desc')
    .limit(DECIDED_MATCHES_SHOWN)
    .execute();
  return toMatches(db, [...open, ...decided]);
}

/** One match as the contract shows it, or null when there is none with that id. */
export async function findRecallMatch(db: DB, matchId: number): Promise<RecallMatch | null> {
  const rows = await matchesWithItems(db).where('m.match_id', '=', matchId).execute();
  return (await toMatches(db, rows))[0] ?? null;
}

export interface RecallDecision {
  matchId: number;
  action: 'confirm' | 'dismiss';
  /** Required to dismiss (the route's schema says so too); optional to confirm. */
  reason: string | null;
  actor: { uid: string; name: string };
}

/**
 * A moderator's decision on an open match, with its audit entry, in one transaction. A confirmed
 * item leaves every list at once (api/db/queries/items.ts leaves it out); the caller starts the
 * publish that takes it off the pages. 404 for an unknown match, 409 for one already decided.
 */
export async function resolveRecallMatch(db: DB, decision: RecallDecision, now: Date): Promise<RecallMatch> {
  const { matchId, action, reason, actor } = decision;
  if (action === 'dismiss' && !reason) {
    throw new RuleError('Say why you dismiss this match: a dismissal needs a reason.', 400);
  }
  await db.transaction().execute(async (trx) => {
    // One conditional UPDATE: of two moderators deciding at once, exactly one succeeds.
    const result = await trx
      .updateTable('recall_matches')
      .set({
        status: action === 'confirm' ? 'confirmed' : 'dismissed',
        decided_at: now.toISOString(),
        decided_by_uid: actor.uid,
        decided_by_name: actor.name,
        reason,
      })
      .where('match_id', '=', matchId)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      const found = await trx
        .selectFrom('recall_matches')
        .select('status')
        .where('match_id', '=', matchId)
        .executeTakeFirst();
      if (!found) throw new RuleError('There is no possible recall with that id.', 404);
      throw new RuleError(
        `This possible recall has already been ${found.status}: it cannot be decided again.`,
        409,
      );
    }
    const match = await trx
      .selectFrom('recall_matches')
      .select('item_id')
      .where('match_id', '=', matchId)
      .executeTakeFirstOrThrow();
    // A confirmed match blocks its listing; a dismissed one may clear it (docs/product.md,
    // "Listing screening").
    await refreshScreening(trx, [match.item_id], now);
    // Parents who saved the item are told at once (docs/product.md, "Favourites and alerts").
    if (action === 'confirm') await queueSafetyAlertsForMatch(trx, matchId, now);
    await recordAudit(
      trx,
      {
        actor,
        action: action === 'confirm' ? 'recall.confirm' : 'recall.dismiss',
        target: { type: 'recall_match', id: matchId },
        reason,
      },
      now,
    );
  });
  return (await findRecallMatch(db, matchId))!;
}

/** The items with a confirmed recall: such an item is on no list (docs/product.md, "Recall screening"). */
export const confirmedRecallItemIds = (db: DB) =>
  db.selectFrom('recall_matches').select('item_id').where('status', '=', 'confirmed');
