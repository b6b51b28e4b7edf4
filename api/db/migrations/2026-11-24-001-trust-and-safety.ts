import { type Kysely, sql } from 'kysely';
import { generatedId } from '../dialect.ts';

// Trust and safety (docs/product.md, "Trust and safety"): a comment's status and edit time,
// reports, suspensions, the audit log and the queue of deliveries to the outside world.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('comments')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('visible')
        .check(sql`status in ('visible', 'held', 'pending', 'removed', 'deleted')`),
    )
    .execute();
  // Why a comment is not visible (a moderator's reason, or why it waits for review).
  await db.schema.alterTable('comments').addColumn('status_reason', 'text').execute();
  await db.schema.alterTable('comments').addColumn('edited_at', 'text').execute();
  // When the comment was first shown to everyone: a parent with such a comment is past pre-moderation.
  await db.schema.alterTable('comments').addColumn('published_at', 'text').execute();
  // Content removed for child safety is kept until then, out of sight, and blanked after.
  await db.schema.alterTable('comments').addColumn('purge_after', 'text').execute();
  await db
    .updateTable('comments')
    .set({ published_at: sql`created_at` })
    .execute();
  await db.schema.createIndex('comments_author').on('comments').columns(['author_uid', 'status']).execute();
  await db.schema.createIndex('comments_status').on('comments').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('comment_reports')
    .addColumn('report_id', 'integer', generatedId(db))
    .addColumn('comment_id', 'integer', (c) =>
      c.notNull().references('comments.comment_id').onDelete('cascade'),
    )
    .addColumn('reporter_uid', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`category in ('child_safety', 'unsafe_item', 'inappropriate_content', 'suspicious_behavior', 'suspected_non_parent')`,
        ),
    )
    .addColumn('note', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('open')
        .check(sql`status in ('open', 'resolved')`),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by_uid', 'text')
    .addColumn('resolved_by_name', 'text')
    .addColumn('resolution', 'text')
    .addColumn('resolution_reason', 'text')
    // One report per parent per comment: a second report answers the first.
    .addUniqueConstraint('comment_reports_once', ['comment_id', 'reporter_uid'])
    .execute();
  await db.schema
    .createIndex('comment_reports_queue')
    .on('comment_reports')
    .columns(['status', 'comment_id'])
    .execute();

  await db.schema
    .createTable('suspensions')
    .addColumn('suspension_id', 'integer', generatedId(db))
    .addColumn('user_uid', 'text', (c) => c.notNull())
    .addColumn('until', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by_uid', 'text', (c) => c.notNull())
    .addColumn('created_by_name', 'text', (c) => c.notNull())
    .addColumn('lifted_at', 'text')
    .addColumn('lifted_by_uid', 'text')
    .addColumn('lifted_by_name', 'text')
    .addColumn('lift_reason', 'text')
    .execute();
  await db.schema
    .createIndex('suspensions_user')
    .on('suspensions')
    .columns(['user_uid', 'lifted_at'])
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('audit_id', 'integer', generatedId(db))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_uid', 'text')
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema
    .createIndex('audit_log_target')
    .on('audit_log')
    .columns(['target_type', 'target_id'])
    .execute();

  await db.schema
    .createTable('deliveries')
    .addColumn('delivery_id', 'integer', generatedId(db))
    // How it is sent ('webhook'; later 'email') and what for ('safety_escalation').
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    // Where to; null while nowhere is configured (it waits).
    .addColumn('target', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    // A lease: while it lies in the future one worker is sending the row and no other takes it.
    .addColumn('claimed_until', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('deliveries_due')
    .on('deliveries')
    .columns(['delivered_at', 'next_attempt_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['deliveries', 'audit_log', 'suspensions', 'comment_reports']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  for (const index of ['comments_status', 'comments_author']) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  for (const column of ['purge_after', 'published_at', 'edited_at', 'status_reason', 'status']) {
    await db.schema.alterTable('comments').dropColumn(column).execute();
  }
}
