import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Recall, RecallStatus } from '../../contract.ts';
import { type FeedRecall, type RecallLists, readRecallRecords } from '../../recalls/feed.ts';
import type { DB } from '../database.ts';
import type { RecallsTable } from '../schema.ts';
import { checkAllItems } from './recall-matches.ts';

// The public recall database as imported (docs/product.md, "Recall screening"): every valid record
// is kept, whatever its product; /recalls and GET /api/recalls show the children's products.

export interface RecallImportResult {
  /** Distinct recalls in the feed. */
  records: number;
  added: number;
  updated: number;
  unchanged: number;
  /** Of the feed's recalls, those of children's products. */
  children: number;
  /** Candidate matches raised by re-checking every item. */
  raised: number;
}

export interface ImportOptions {
  /** Runs in the import's transaction before it commits; throwing rolls the whole import back. */
  beforeCommit?: (trx: DB) => Promise<void>;
}

/** The sample feed's source name (content/recalls.json). */
export const SAMPLE_SOURCE = 'sample';

// Rows per statement: 11 columns × 500 stays far below both databases' parameter limits.
const CHUNK = 500;
const chunks = <T>(values: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(values.length / CHUNK) }, (_, i) =>
    values.slice(i * CHUNK, (i + 1) * CHUNK),
  );

/** A recall as stored, but for when it was imported. */
export type RecallRow = Omit<RecallsTable, 'imported_at'>;
const COMPARED = [
  'recall_number',
  'recall_date',
  'last_publish_date',
  'title',
  'description',
  'url',
  'consumer_contact',
  'record',
  'for_children',
] as const satisfies readonly (keyof RecallRow)[];

const toRow = (recall: FeedRecall): RecallRow => ({
  recall_id: recall.recallId,
  recall_number: recall.recallNumber,
  recall_date: recall.recallDate,
  last_publish_date: recall.lastPublishDate,
  title: recall.title,
  description: recall.description,
  url: recall.url,
  consumer_contact: recall.consumerContact,
  record: JSON.stringify(recall.lists),
  for_children: recall.forChildren ? 1 : 0,
});

/**
 * The rows a feed would store, every record checked (a bad one refuses the whole feed with a
 * RecallFeedError naming it). Each record becomes its row, the lists as JSON text and far smaller,
 * as it is read. A RecallID that appears twice is the same recall: the later record wins.
 */
export function readRecallRows(feed: unknown): RecallRow[] {
  const byId = new Map<number, RecallRow>();
  readRecallRecords(feed, (recall) => {
    byId.delete(recall.recallId);
    byId.set(recall.recallId, toRow(recall));
  });
  return [...byId.values()];
}

/**
 * Imports a feed (its JSON text or bytes, or the parsed value) from `source`: every record is checked first
 * (a bad one refuses the whole feed, naming it), then one transaction adds new recalls, updates
 * changed ones by RecallID, records the import and re-checks every item. A failure anywhere leaves
 * the data exactly as it was.
 */
export async function importRecalls(
  db: DB,
  feed: unknown,
  source: string,
  now: Date,
  options: ImportOptions = {},
): Promise<RecallImportResult> {
  return storeRecallRows(db, readRecallRows(feed), source, now, options);
}

/**
 * The first import of real data replaces the sample feed (and its matches, decided or not): its
 * fictional recalls must never sit beside real ones, nor keep a real item off the site.
 */
async function replaceSample(trx: DB, source: string): Promise<void> {
  if (source === SAMPLE_SOURCE) return;
  const sources = await trx.selectFrom('recall_imports').select('source').distinct().execute();
  if (sources.length === 0 || sources.some((row) => row.source !== SAMPLE_SOURCE)) return;
  await trx.deleteFrom('recall_matches').execute();
  await trx.deleteFrom('recalls').execute();
}

/** The transaction of importRecalls, for rows read already (so the feed's text can go first). */
export async function storeRecallRows(
  db: DB,
  rows: readonly RecallRow[],
  source: string,
  now: Date,
  options: ImportOptions = {},
): Promise<RecallImportResult> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    await replaceSample(trx, source);
    let added = 0;
    let updated = 0;
    // A chunk at a time: what is stored is compared, then written, without holding all of it.
    for (const part of chunks(rows)) {
      const stored = await trx
        .selectFrom('recalls')
        .select(['recall_id', ...COMPARED])
        .where(
          'recall_id',
          'in',
          part.map((r) => r.recall_id),
        )
        .execute();
      const existing = new Map(stored.map((row) => [Number(row.recall_id), row]));
      const fresh = part.filter((row) => !existing.has(row.recall_id));
      if (fresh.length > 0) {
        await trx
          .insertInto('recalls')
          .values(fresh.map((row) => ({ ...row, imported_at: at })))
          .execute();
      }
      added += fresh.length;
      for (const row of part) {
        const old = existing.get(row.recall_id);
        if (!old || COMPARED.every((column) => old[column] === row[column])) continue;
        const { recall_id, ...values } = row;
        await trx
          .updateTable('recalls')
          .set({ ...values, imported_at: at })
          .where('recall_id', '=', recall_id)
          .execute();
        updated += 1;
      }
    }
    await trx
      .insertInto('recall_imports')
      .values({ source, imported_at: at, records: rows.length, added, updated })
      .execute();
    const { raised } = await checkAllItems(trx, now);
    await options.beforeCommit?.(trx);
    return {
      records: rows.length,
      added,
      updated,
      unchanged: rows.length - added - updated,
      children: rows.filter((r) => r.for_children === 1).length,
      raised,
    };
  });
}

/**
 * Imports content/recalls.json (the sample feed) as source 'sample' when nothing has been imported
 * yet, so a fresh clone shows the whole flow without network. Null when it did nothing.
 */
export async function importSampleIfEmpty(
  db: DB,
  contentDir: string,
  now: Date,
): Promise<RecallImportResult | null> {
  const file = path.join(contentDir, 'recalls.json');
  if (!fs.existsSync(file)) return null;
  const any = await db.selectFrom('recall_imports').select('import_id').limit(1).executeTakeFirst();
  if (any) return null;
  return importRecalls(db, fs.readFileSync(file, 'utf8'), SAMPLE_SOURCE, now);
}

/** A stored recall as the contract shows it. */
export function toRecall(row: Omit<RecallsTable, 'imported_at' | 'for_children'>): Recall {
  const lists = JSON.parse(row.record) as RecallLists;
  const hazards = lists.hazards.map((h) => h.name);
  return {
    recallId: Number(row.recall_id),
    recallNumber: row.recall_number,
    recallDate: row.recall_date,
    title: row.title,
    description: row.description,
    hazards,
    // Remedies say what to do; the short options ("Refund") stand in when a record has none.
    remedies: lists.remedies.length > 0 ? lists.remedies : lists.remedyOptions,
    url: row.url,
    products: lists.products.map((p) => ({
      name: p.name ?? p.type ?? p.description ?? p.model ?? '',
      model: p.model,
      units: p.units,
    })),
    manufacturers: lists.manufacturers.map((m) => m.name),
  };
}

const RECALL_COLUMNS = [
  'recall_id',
  'recall_number',
  'recall_date',
  'title',
  'description',
  'url',
  'record',
  'last_publish_date',
  'consumer_contact',
] as const;

/** The newest recalls of children's products (by recall date, then RecallID), at most `limit`. */
export async function listRecalls(db: DB, limit: number): Promise<Recall[]> {
  const rows = await db
    .selectFrom('recalls')
    .select(RECALL_COLUMNS)
    .where('for_children', '=', 1)
    // Undated recalls last on both databases (they order NULL differently).
    .orderBy(sql`coalesce(recall_date, '')`, 'desc')
    .orderBy('recall_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toRecall);
}

/** The recalls with these ids, as the contract shows them (for matches). */
export async function recallsByIds(db: DB, ids: readonly number[]): Promise<Map<number, Recall>> {
  const found = new Map<number, Recall>();
  for (const part of chunks([...new Set(ids)])) {
    const rows = await db
      .selectFrom('recalls')
      .select(RECALL_COLUMNS)
      .where('recall_id', 'in', part)
      .execute();
    for (const row of rows) found.set(Number(row.recall_id), toRecall(row));
  }
  return found;
}

/** What matching reads of every recall: its title and normalised lists. */
export interface RecallForMatching {
  recallId: number;
  title: string;
  forChildren: boolean;
  lists: RecallLists;
}

export async function allRecallsForMatching(db: DB): Promise<RecallForMatching[]> {
  const rows = await db
    .selectFrom('recalls')
    .select(['recall_id', 'title', 'for_children', 'record'])
    .orderBy('recall_id')
    .execute();
  return rows.map((row) => ({
    recallId: Number(row.recall_id),
    title: row.title,
    forChildren: Number(row.for_children) === 1,
    lists: JSON.parse(row.record) as RecallLists,
  }));
}

/** Where the data came from and when (GET /api/recalls/status). */
export async function recallStatus(db: DB): Promise<RecallStatus> {
  const last = await db
    .selectFrom('recall_imports')
    .select(['source', 'imported_at'])
    .orderBy('import_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const counts = await db
    .selectFrom('recalls')
    .select((eb) => [
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>(eb.ref('for_children')).as('children'),
    ])
    .executeTakeFirstOrThrow();
  return {
    source: last?.source ?? null,
    lastImportedAt: last?.imported_at ?? null,
    count: Number(counts.count),
    childrenCount: Number(counts.children ?? 0),
  };
}

/** When the last import from `source` was (ISO), or null. */
export async function lastImportFrom(db: DB, source: string): Promise<string | null> {
  const row = await db
    .selectFrom('recall_imports')
    .select((eb) => eb.fn.max('imported_at').as('at'))
    .where('source', '=', source)
    .executeTakeFirst();
  return row?.at ?? null;
}

// ---- The daily refresh's claim (like publish_lock: every change is one conditional UPDATE) ----

const day = (now: Date) => now.toISOString().slice(0, 10);
const later = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/**
 * Claims today's refresh for `holder`: only when no refresh has worked today (UTC), no backoff is
 * pending, and nobody holds an unexpired lease. True when this caller got it.
 */
export async function claimRecallRefresh(
  db: DB,
  holder: string,
  now: Date,
  leaseMs: number,
): Promise<boolean> {
  const at = now.toISOString();
  const result = await db
    .updateTable('recall_refresh')
    .set({ holder, lease_until: later(now, leaseMs) })
    .where('refresh_id', '=', 1)
    .where((eb) => eb.or([eb('refreshed_on', 'is', null), eb('refreshed_on', '<', day(now))]))
    .where((eb) => eb.or([eb('retry_at', 'is', null), eb('retry_at', '<=', at)]))
    .where((eb) => eb.or([eb('holder', 'is', null), eb('lease_until', '<', at)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks today's refresh done; false when `holder` no longer holds the claim (nothing changed). */
export async function finishRecallRefresh(db: DB, holder: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('recall_refresh')
    .set({ holder: null, lease_until: null, refreshed_on: day(now), failures: 0, retry_at: null })
    .where('refresh_id', '=', 1)
    .where('holder', '=', holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Lets go of a refresh that failed: the next try waits `backoffMs(failures)` (failures counting this
 * one). Returns the failures so far and when the next try may start.
 */
export async function failRecallRefresh(
  db: DB,
  holder: string,
  now: Date,
  backoffMs: (failures: number) => number,
): Promise<{ failures: number; retryAt: string }> {
  const row = await db
    .selectFrom('recall_refresh')
    .select('failures')
    .where('refresh_id', '=', 1)
    .executeTakeFirstOrThrow();
  const failures = Number(row.failures) + 1;
  const retryAt = later(now, backoffMs(failures));
  await db
    .updateTable('recall_refresh')
    .set({ holder: null, lease_until: null, failures, retry_at: retryAt })
    .where('refresh_id', '=', 1)
    .where('holder', '=', holder)
    .execute();
  return { failures, retryAt };
}
