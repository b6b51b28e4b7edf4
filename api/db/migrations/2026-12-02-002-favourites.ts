import type { Kysely } from 'kysely';
import { generatedId } from '../dialect.ts';

// Favourites, saved searches and alerts (docs/product.md, "Favourites and alerts"), and the
// "Verified Parents" figure: users_profile.email_verified is the sign-in token's email_verified
// claim, written on each signed-in request. An alert is a row of `alerts` until the alert tick
// claims it (sent_at) and queues its email; dedupe_key is unique, so a match, a price drop or a
// recall is noted once however often, or on however many instances, it is seen.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users_profile')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('favourites')
    .addColumn('user_uid', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('saved_at', 'text', (c) => c.notNull())
    .addColumn('price_when_saved', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('favourites_pk', ['user_uid', 'item_id'])
    .execute();
  // Price drops and recalls find who saved an item.
  await db.schema.createIndex('favourites_item').on('favourites').column('item_id').execute();

  await db.schema
    .createTable('saved_searches')
    .addColumn('search_id', 'integer', generatedId(db))
    .addColumn('user_uid', 'text', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('age_group', 'text')
    .addColumn('max_price_cents', 'integer')
    .addColumn('words', 'text')
    .addColumn('frequency', 'text', (c) => c.notNull())
    .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
    // Random: the one-click unsubscribe of this search's emails carries it.
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('last_sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Matching reads the active searches of a changed item's category (and those of any category).
  await db.schema
    .createIndex('saved_searches_matching')
    .on('saved_searches')
    .columns(['category', 'paused'])
    .execute();
  await db.schema.createIndex('saved_searches_user').on('saved_searches').column('user_uid').execute();

  await db.schema
    .createTable('alerts')
    .addColumn('alert_id', 'integer', generatedId(db))
    .addColumn('user_uid', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('search_id', 'integer')
    .addColumn('item_id', 'text', (c) => c.notNull())
    // JSON: what the email says (the item's name and price, the recall's title, link and remedy).
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    // 'sent', or 'skipped' when the parent could not be emailed then (unconfirmed, stopped, suspended).
    .addColumn('outcome', 'text')
    .execute();
  await db.schema.createIndex('alerts_waiting').on('alerts').columns(['sent_at', 'kind']).execute();
  await db.schema.createIndex('alerts_user').on('alerts').column('user_uid').execute();
  await db.schema.createIndex('alerts_search').on('alerts').columns(['search_id', 'created_at']).execute();

  await db.schema
    .createTable('alert_settings')
    .addColumn('user_uid', 'text', (c) => c.primaryKey())
    .addColumn('safety', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('price_drops', 'integer', (c) => c.notNull().defaultTo(1))
    // Random: the one-click unsubscribe of price-drop and safety emails carries it.
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('last_digest_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['alert_settings', 'alerts', 'saved_searches', 'favourites']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('users_profile').dropColumn('email_verified').execute();
}
