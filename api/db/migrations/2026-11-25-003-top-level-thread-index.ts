import { type Kysely, sql } from 'kysely';

// A thread page reads a post's top-level comments newest first. The first index for it led with
// (post_id, parent_comment_id): SQLite reads the page from it in order, but PostgreSQL does not
// take `parent_comment_id is null` as pinning that column, and sorted the whole thread for every
// page. An index over top-level comments only (a partial index, which both databases have) serves
// the page in order on both, and is smaller.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('comments_thread_page').execute();
  await db.schema
    .createIndex('comments_thread_page')
    .on('comments')
    .columns(['post_id', 'created_at', 'comment_id'])
    .where(sql.ref('parent_comment_id'), 'is', null)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('comments_thread_page').execute();
  await db.schema
    .createIndex('comments_thread_page')
    .on('comments')
    .columns(['post_id', 'parent_comment_id', 'created_at', 'comment_id'])
    .execute();
}
