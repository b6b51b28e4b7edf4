import { type Kysely, sql } from 'kysely';
import { generatedId } from '../dialect.ts';

// Accounts and mail (docs/product.md, "Your account", "Email"): deletion requests get a status
// and who closed them; parents' reply-email settings (double opt-in) and the threads they follow.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('deletion_requests')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('open')
        .check(sql`status in ('open', 'erased', 'no_account')`),
    )
    .execute();
  await db.schema.alterTable('deletion_requests').addColumn('closed_at', 'text').execute();
  await db.schema.alterTable('deletion_requests').addColumn('closed_by_name', 'text').execute();
  await db.schema
    .createIndex('deletion_requests_queue')
    .on('deletion_requests')
    .columns(['status', 'created_at'])
    .execute();

  // One row per parent who has ever asked for reply emails.
  await db.schema
    .createTable('email_settings')
    .addColumn('user_uid', 'text', (c) => c.primaryKey())
    // The address being confirmed, or confirmed.
    .addColumn('email', 'text', (c) => c.notNull())
    // sha256 of the confirmation link's token: the token itself is only in the email.
    .addColumn('confirm_token_hash', 'text', (c) => c.unique())
    .addColumn('confirm_sent_at', 'text')
    .addColumn('confirmed_at', 'text')
    // 0 after "stop all email"; checking the box again turns it back on.
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    // Random, for the "stop all email" links; never derived from the address.
    .addColumn('unsubscribe_token', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('reply_subscriptions')
    .addColumn('subscription_id', 'integer', generatedId(db))
    .addColumn('user_uid', 'text', (c) => c.notNull())
    .addColumn('post_id', 'integer', (c) => c.notNull().references('blog_posts.post_id').onDelete('cascade'))
    // Random, for this thread's unsubscribe links.
    .addColumn('token', 'text', (c) => c.notNull().unique())
    // At most one email per thread per hour.
    .addColumn('last_notified_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('reply_subscriptions_once', ['user_uid', 'post_id'])
    .execute();
  await db.schema
    .createIndex('reply_subscriptions_post')
    .on('reply_subscriptions')
    .columns(['post_id', 'user_uid'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reply_subscriptions').ifExists().execute();
  await db.schema.dropTable('email_settings').ifExists().execute();
  await db.schema.dropIndex('deletion_requests_queue').ifExists().execute();
  for (const column of ['closed_by_name', 'closed_at', 'status']) {
    await db.schema.alterTable('deletion_requests').dropColumn(column).execute();
  }
}
