import type { Kysely } from 'kysely';
import { generatedId } from '../dialect.ts';

// Live threads (docs/decisions/026-live-threads.md): every change a reader of a thread can see (a
// comment shown, edited, hidden, removed, deleted, liked) is a row here, written in the
// transaction of the change. Its id orders the changes; an open page resumes after the last one it
// saw. Rows are kept for a day.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('thread_events')
    .addColumn('event_id', 'integer', generatedId(db))
    .addColumn('post_id', 'integer', (c) => c.notNull())
    .addColumn('comment_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // A page that resumes reads its post's changes after an id.
  await db.schema
    .createIndex('thread_events_post')
    .on('thread_events')
    .columns(['post_id', 'event_id'])
    .execute();
  // Pruning reads by age.
  await db.schema.createIndex('thread_events_created').on('thread_events').column('created_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('thread_events').execute();
}
