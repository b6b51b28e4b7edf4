import type { Kysely } from 'kysely';
import { generatedId } from '../dialect.ts';

// Recall screening (docs/product.md, "Recall screening"): the public recall database as imported
// (one row per recall, its lists kept as the JSON of the published record), each import with its
// source and counts, and the candidate matches of items against recalls that moderators decide.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('recalls')
    .addColumn('recall_id', 'integer', (c) => c.primaryKey())
    .addColumn('recall_number', 'text')
    .addColumn('recall_date', 'text')
    .addColumn('last_publish_date', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('url', 'text')
    .addColumn('consumer_contact', 'text')
    // The record's arrays (Products, Manufacturers, Hazards, …) as the importer normalised them.
    .addColumn('record', 'text', (c) => c.notNull())
    .addColumn('for_children', 'integer', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recalls_children_date')
    .on('recalls')
    .columns(['for_children', 'recall_date'])
    .execute();
  await db.schema
    .createTable('recall_imports')
    .addColumn('import_id', 'integer', generatedId(db))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addColumn('records', 'integer', (c) => c.notNull())
    .addColumn('added', 'integer', (c) => c.notNull())
    .addColumn('updated', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('recall_matches')
    .addColumn('match_id', 'integer', generatedId(db))
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('recall_id', 'integer', (c) => c.notNull().references('recalls.recall_id'))
    .addColumn('score', 'integer', (c) => c.notNull())
    .addColumn('terms', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('decided_by_uid', 'text')
    .addColumn('decided_by_name', 'text')
    .addColumn('reason', 'text')
    .addUniqueConstraint('recall_matches_item_recall', ['item_id', 'recall_id'])
    .execute();
  await db.schema.createIndex('recall_matches_status').on('recall_matches').columns(['status']).execute();
  // The daily refresh from RECALLS_URL: one row, claimed by one conditional UPDATE (like
  // publish_lock), so only one instance imports a day. refreshed_on is the UTC day of the last
  // refresh that worked; after a failure, retry_at says when the next try may start.
  await db.schema
    .createTable('recall_refresh')
    .addColumn('refresh_id', 'integer', (c) => c.primaryKey())
    .addColumn('holder', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('refreshed_on', 'text')
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('retry_at', 'text')
    .execute();
  await db
    .insertInto('recall_refresh')
    .values({
      refresh_id: 1,
      holder: null,
      lease_until: null,
      refreshed_on: null,
      failures: 0,
      retry_at: null,
    })
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('recall_refresh').ifExists().execute();
  await db.schema.dropTable('recall_matches').ifExists().execute();
  await db.schema.dropTable('recall_imports').ifExists().execute();
  await db.schema.dropTable('recalls').ifExists().execute();
}
