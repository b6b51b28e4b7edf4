import type { Kysely } from 'kysely';

// Listings come in from the marketplace and are screened before parents see them (docs/product.md,
// "Listing screening"). An item now carries the listing's own state (active, sold, removed), where
// its screening stands, what the rules found (JSON of the findings, with the rules' version so a
// change of rules screens again), and a moderator's decision. Items stop being a release's copy:
// listings arrive between publishes, and readers get a cleared listing within seconds; the pages
// follow with the next publish. Photos wait in listing_photos, which is also the analysis queue
// (leased, so several instances share it and a stopped one's work is taken over).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const items = () => db.schema.alterTable('items');
  await items().addColumn('description', 'text').execute();
  await items().addColumn('manufacture_year', 'integer').execute();
  await items()
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .execute();
  await items()
    .addColumn('screening_state', 'text', (c) => c.notNull().defaultTo('pending'))
    .execute();
  await items()
    .addColumn('rule_findings', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await items()
    .addColumn('rules_version', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await items()
    .addColumn('listing_hash', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await items()
    .addColumn('checks_ran', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await items()
    .addColumn('safety_notes', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await items().addColumn('received_at', 'text').execute();
  await items().addColumn('checked_at', 'text').execute();
  await items().addColumn('decision', 'text').execute();
  await items().addColumn('decision_reason', 'text').execute();
  await items().addColumn('decided_at', 'text').execute();
  await items().addColumn('decided_by_name', 'text').execute();
  await db.schema.createIndex('items_screening_state').on('items').column('screening_state').execute();

  await db.schema
    .createTable('listing_photos')
    .addColumn('item_id', 'text', (c) => c.notNull().references('items.item_id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('source_url', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('image_id', 'text')
    .addColumn('blurred_image_id', 'text')
    .addColumn('faces', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('scores', 'text')
    .addColumn('outcome', 'text')
    .addColumn('reasons', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('queued_at', 'text', (c) => c.notNull())
    .addColumn('analysed_at', 'text')
    .addPrimaryKeyConstraint('listing_photos_pk', ['item_id', 'position'])
    .execute();
  await db.schema
    .createIndex('listing_photos_queue')
    .on('listing_photos')
    .columns(['state', 'lease_until'])
    .execute();

  await db.schema.dropTable('release_items').execute();
}
