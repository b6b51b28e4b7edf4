import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.ts';

// The studio (docs/product.md, "The studio"): a post's state and where its text lives, every saved
// revision of its text, the addresses a published post had before its slug changed, and uploaded
// images with their re-encoded widths, stored in the database so every instance can serve them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const blob = isPostgres(db) ? 'bytea' : 'blob';
  await db.schema
    .alterTable('blog_posts')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('published'))
    .execute();
  await db.schema
    .alterTable('blog_posts')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('file'))
    .execute();
  await db.schema.alterTable('blog_posts').addColumn('author_uid', 'text').execute();
  await db.schema
    .alterTable('blog_posts')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('blog_posts').addColumn('published_revision', 'integer').execute();
  await db.schema.alterTable('blog_posts').addColumn('featured_image_alt', 'text').execute();
  await db.schema.alterTable('release_posts').addColumn('featured_image_alt', 'text').execute();
  await sql`update blog_posts set status = 'draft' where is_published = 0`.execute(db);
  await db.schema.createIndex('blog_posts_status').on('blog_posts').columns(['status']).execute();

  await db.schema
    .createTable('post_revisions')
    .addColumn('post_id', 'integer', (c) => c.notNull().references('blog_posts.post_id'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('excerpt', 'text', (c) => c.notNull())
    .addColumn('markdown', 'text', (c) => c.notNull())
    // The category slugs as a JSON array.
    .addColumn('categories', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('is_featured', 'integer', (c) => c.notNull())
    .addColumn('featured_image_url', 'text')
    .addColumn('featured_image_alt', 'text')
    .addColumn('saved_at', 'text', (c) => c.notNull())
    // null for a revision imported from a file in content/posts.
    .addColumn('saved_by_uid', 'text')
    .addColumn('saved_by_name', 'text', (c) => c.notNull())
    .addColumn('restored_from', 'integer')
    .addPrimaryKeyConstraint('post_revisions_pk', ['post_id', 'revision'])
    .execute();

  await db.schema
    .createTable('post_redirects')
    .addColumn('from_slug', 'text', (c) => c.primaryKey())
    .addColumn('post_id', 'integer', (c) => c.notNull().references('blog_posts.post_id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('images')
    .addColumn('image_id', 'text', (c) => c.primaryKey())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('alt', 'text', (c) => c.notNull())
    .addColumn('uploaded_type', 'text', (c) => c.notNull())
    .addColumn('uploaded_bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by_uid', 'text')
    .execute();
  await db.schema
    .createTable('image_variants')
    .addColumn('image_id', 'text', (c) => c.notNull().references('images.image_id'))
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('data', blob, (c) => c.notNull())
    .addPrimaryKeyConstraint('image_variants_pk', ['image_id', 'width', 'format'])
    .execute();
}
