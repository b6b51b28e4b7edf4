import type { Kysely } from 'kysely';

// Items and blog categories join the release snapshot, as posts did (docs/product.md, "Publishing"):
// a publish syncs content/ into items and blog_categories before it builds, and readers get the
// live release's copy, so a failed build changes nothing anyone sees and a rollback brings back the
// items and names of the release it returns to. Releases that already have a snapshot get today's
// items and categories, which is what they have been serving.
// The column lists are this migration's own copy of those in api/db/queries/releases.ts: a
// migration describes the schema of its day and must not change when the live code does.
const ITEM_COLUMNS = [
  'item_id',
  'item_name',
  'category',
  'listing_price',
  'image_url',
  'condition',
  'brand',
  'age_group',
  'is_featured',
  'created_at',
] as const;
const CATEGORY_COLUMNS = ['category_id', 'slug', 'category_name', 'color_hex'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('release_items')
    .addColumn('release_id', 'integer', (c) =>
      c.notNull().references('releases.release_id').onDelete('cascade'),
    )
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('item_name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('listing_price', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text')
    .addColumn('condition', 'text')
    .addColumn('brand', 'text')
    .addColumn('age_group', 'text')
    .addColumn('is_featured', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('release_items_pk', ['release_id', 'item_id'])
    .execute();
  await db.schema
    .createTable('release_categories')
    .addColumn('release_id', 'integer', (c) =>
      c.notNull().references('releases.release_id').onDelete('cascade'),
    )
    .addColumn('category_id', 'integer', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('category_name', 'text', (c) => c.notNull())
    .addColumn('color_hex', 'text')
    .addPrimaryKeyConstraint('release_categories_pk', ['release_id', 'category_id'])
    .execute();

  const withSnapshot = () =>
    db.selectFrom('releases').where('releases.state', 'in', ['building', 'succeeded', 'rolled_back']);
  await db
    .insertInto('release_items')
    .columns(['release_id', ...ITEM_COLUMNS])
    .expression(
      withSnapshot()
        .innerJoin('items', (join) => join.onTrue())
        .select(['releases.release_id', ...ITEM_COLUMNS.map((c) => `items.${c}` as const)]),
    )
    .execute();
  await db
    .insertInto('release_categories')
    .columns(['release_id', ...CATEGORY_COLUMNS])
    .expression(
      withSnapshot()
        .innerJoin('blog_categories', (join) => join.onTrue())
        .select(['releases.release_id', ...CATEGORY_COLUMNS.map((c) => `blog_categories.${c}` as const)]),
    )
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('release_categories').ifExists().execute();
  await db.schema.dropTable('release_items').ifExists().execute();
}
