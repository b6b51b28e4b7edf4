import { type Kysely, sql } from 'kysely';
import { generatedId } from '../dialect.ts';

// Releases (docs/decisions/010): every publish run is a release with its own snapshot of the posts
// it publishes; the API answers from the live release's snapshot and the server serves its build
// folder, so both switch in one transaction. The queue, the lock and the live pointer are rows, so
// any number of server instances share them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('releases')
    .addColumn('release_id', 'integer', generatedId(db))
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`state in ('queued', 'syncing', 'building', 'succeeded', 'failed', 'rolled_back', 'retired')`,
        ),
    )
    // 1 while the release waits in the queue, else null: the unique index allows one queued release,
    // which every request made meanwhile joins.
    .addColumn('queued_slot', 'integer')
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    // The release shows the posts published up to this time (set when its snapshot is taken).
    .addColumn('content_as_of', 'text')
    // Its build, a folder of SITE_DIR.
    .addColumn('folder', 'text')
    .addColumn('posts_changed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('post_count', 'integer')
    .addColumn('error', 'text')
    // The instance that ran it (host:pid:random), for the status and for abandoned runs.
    .addColumn('builder', 'text')
    .execute();
  await db.schema.createIndex('releases_one_queued').unique().on('releases').column('queued_slot').execute();
  await db.schema.createIndex('releases_state').on('releases').columns(['state', 'release_id']).execute();

  // A release's copy of each published post: what readers get while the release is live. Counts
  // (likes, comments, views) stay on blog_posts, shared by every release.
  await db.schema
    .createTable('release_posts')
    .addColumn('release_id', 'integer', (c) =>
      c.notNull().references('releases.release_id').onDelete('cascade'),
    )
    .addColumn('post_id', 'integer', (c) => c.notNull().references('blog_posts.post_id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('excerpt', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('featured_image_url', 'text')
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('is_featured', 'integer', (c) => c.notNull())
    .addColumn('published_at', 'text', (c) => c.notNull())
    .addColumn('reading_time_minutes', 'integer', (c) => c.notNull())
    .addColumn('source_hash', 'text')
    .addPrimaryKeyConstraint('release_posts_pk', ['release_id', 'post_id'])
    .addUniqueConstraint('release_posts_slug', ['release_id', 'slug'])
    .execute();
  await db.schema
    .createIndex('release_posts_listing')
    .on('release_posts')
    .columns(['release_id', 'published_at'])
    .execute();

  await db.schema
    .createTable('release_post_categories')
    .addColumn('release_id', 'integer', (c) =>
      c.notNull().references('releases.release_id').onDelete('cascade'),
    )
    .addColumn('post_id', 'integer', (c) => c.notNull())
    .addColumn('category_id', 'integer', (c) =>
      c.notNull().references('blog_categories.category_id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('release_post_categories_pk', ['release_id', 'post_id', 'category_id'])
    .addForeignKeyConstraint(
      'release_post_categories_post',
      ['release_id', 'post_id'],
      'release_posts',
      ['release_id', 'post_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();

  // One row: the release readers get. Every change of it first writes changed_at, which makes
  // concurrent switches and rollbacks wait for each other.
  await db.schema
    .createTable('site_state')
    .addColumn('state_id', 'integer', (c) => c.primaryKey())
    .addColumn('live_release_id', 'integer', (c) => c.references('releases.release_id'))
    .addColumn('changed_at', 'text')
    .execute();
  await db
    .insertInto('site_state')
    .values({ state_id: 1, live_release_id: null, changed_at: null })
    .execute();

  // One row: the publish lock. An instance holds it while holder is its name and lease_until has not
  // passed; a crashed holder's lease runs out and another instance takes over.
  await db.schema
    .createTable('publish_lock')
    .addColumn('lock_id', 'integer', (c) => c.primaryKey())
    .addColumn('holder', 'text')
    .addColumn('lease_until', 'text')
    .execute();
  await db.insertInto('publish_lock').values({ lock_id: 1, holder: null, lease_until: null }).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'publish_lock',
    'site_state',
    'release_post_categories',
    'release_posts',
    'releases',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
