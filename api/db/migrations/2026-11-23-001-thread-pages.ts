import type { Kysely } from 'kysely';

// A thread page is a range scan: a post's top-level comments newest first, from a cursor. This index
// serves it directly, so the first page of a 5,000-comment thread costs what a 50-comment one does.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('comments_thread_page')
    .on('comments')
    .columns(['post_id', 'parent_comment_id', 'created_at', 'comment_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('comments_thread_page').ifExists().execute();
}
