import { sql } from 'kysely';
import type { Recall, RecallStatus } from '../../contract.ts';
import type { RecallLists } from '../../recalls/feed.ts';
import type { DB } from '../database.ts';
import type { RecallsTable } from '../schema.ts';

// The public recall database as imported (docs/product.md, "Recall screening"): every valid record
// is kept, whatever its product; /recalls and GET /api/recalls show the children's products.
// Importing it is in recall-imports.ts.

// Rows per statement: 11 columns × 500 stays far below both databases' parameter limits.
const CHUNK = 500;
export const chunks = <T>(values: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(values.length / CHUNK) }, (_, i) =>
    values.slice(i * CHUNK, (i + 1) * CHUNK),
  );

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
