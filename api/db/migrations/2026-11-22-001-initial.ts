import { type Kysely, sql } from 'kysely';
import { generatedId } from '../dialect.ts';

// Migrations use Kysely<any> and import no app code but ../dialect.ts: they must keep working as the
// app changes, on SQLite and on PostgreSQL.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('items')
    .addColumn('item_id', 'text', (c) => c.primaryKey())
    .addColumn('item_name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('listing_price', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('image_url', 'text')
    .addColumn('condition', 'text')
    .addColumn('brand', 'text')
    .addColumn('age_group', 'text')
    .addColumn('is_featured', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('items_category').on('items').column('category').execute();

  await db.schema
    .createTable('blog_categories')
    .addColumn('category_id', 'integer', generatedId(db))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('category_name', 'text', (c) => c.notNull())
    .addColumn('color_hex', 'text')
    .execute();

  await db.schema
    .createTable('blog_posts')
    .addColumn('post_id', 'integer', generatedId(db))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('featured_image_url', 'text')
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('article'))
    .addColumn('is_featured', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_published', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('published_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('reading_time_minutes', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source_hash', 'text')
    .addCheckConstraint('blog_posts_kind', sql`kind in ('article', 'discussion')`)
    .execute();
  await db.schema
    .createIndex('blog_posts_listing')
    .on('blog_posts')
    .columns(['is_published', 'published_at'])
    .execute();

  await db.schema
    .createTable('post_categories')
    .addColumn('post_id', 'integer', (c) => c.notNull().references('blog_posts.post_id').onDelete('cascade'))
    .addColumn('category_id', 'integer', (c) =>
      c.notNull().references('blog_categories.category_id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('post_categories_pk', ['post_id', 'category_id'])
    .execute();

  await db.schema
    .createTable('comments')
    .addColumn('comment_id', 'integer', generatedId(db))
    .addColumn('post_id', 'integer', (c) => c.notNull().references('blog_posts.post_id').onDelete('cascade'))
    .addColumn('parent_comment_id', 'integer', (c) => c.references('comments.comment_id').onDelete('cascade'))
    .addColumn('author_uid', 'text')
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('author_avatar_url', 'text')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reply_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('seed_key', 'text', (c) => c.unique())
    .execute();
  await db.schema
    .createIndex('comments_post')
    .on('comments')
    .columns(['post_id', 'parent_comment_id'])
    .execute();
  await db.schema.createIndex('comments_parent').on('comments').column('parent_comment_id').execute();

  await db.schema
    .createTable('comment_likes')
    .addColumn('comment_id', 'integer', (c) =>
      c.notNull().references('comments.comment_id').onDelete('cascade'),
    )
    .addColumn('user_uid', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_likes_pk', ['comment_id', 'user_uid'])
    .execute();

  await db.schema
    .createTable('post_likes')
    .addColumn('post_id', 'integer', (c) => c.notNull().references('blog_posts.post_id').onDelete('cascade'))
    .addColumn('user_uid', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('post_likes_pk', ['post_id', 'user_uid'])
    .execute();

  await db.schema
    .createTable('post_views')
    .addColumn('view_id', 'integer', generatedId(db))
    .addColumn('post_id', 'integer', (c) => c.notNull().references('blog_posts.post_id').onDelete('cascade'))
    .addColumn('viewed_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users_profile')
    .addColumn('firebase_uid', 'text', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('photo_url', 'text')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('user_type', 'text', (c) => c.notNull().defaultTo('["buyer"]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('deletion_requests')
    .addColumn('request_id', 'integer', generatedId(db))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('additional_info', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'deletion_requests',
    'users_profile',
    'post_views',
    'post_likes',
    'comment_likes',
    'comments',
    'post_categories',
    'blog_posts',
    'blog_categories',
    'items',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
