import fs from 'node:fs';
import path from 'node:path';
import { type FeedRecall, readRecallRecords } from '../../recalls/feed.ts';
import type { DB } from '../database.ts';
import type { RecallsTable } from '../schema.ts';
import { checkAllItems } from './recall-matches.ts';
import { chunks } from './recalls.ts';

// Importing the public recall database (docs/product.md, "Recall screening"): a feed is checked
// record by record, then stored in one transaction that re-checks every item; and the claim that
// lets one instance a day refresh it from RECALLS_URL.

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
