import { type ExpressionBuilder, sql } from 'kysely';
import type { BlogCategory, BlogPost, CommunityEntry, PostStats } from '../../contract.ts';
import type { DB } from '../database.ts';
import type { BlogPostRow, Database } from '../schema.ts';

/** A post is live when it is published and its time has come (scheduled posts wait). */
export function isLive(now: Date) {
  return (eb: ExpressionBuilder<Database, 'blog_posts'>) =>
    eb.and([
      eb('blog_posts.is_published', '=', 1),
      eb('blog_posts.published_at', 'is not', null),
      eb('blog_posts.published_at', '<=', now.toISOString()),
    ]);
}

const newestFirst = sql`coalesce(blog_posts.published_at, blog_posts.created_at) desc`;

function toPost(row: BlogPostRow, categories: string[]): BlogPost {
  return {
    postId: row.post_id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    content: row.content,
    featuredImageUrl: row.featured_image_url,
    authorName: row.author_name,
    publishedAt: row.published_at,
    createdAt: row.created_at,
    viewCount: row.view_count,
    likeCount: row.like_count,
    commentCount: row.comment_count,
    readingTimeMinutes: row.reading_time_minutes,
    isFeatured: row.is_featured === 1,
    relatedCategories: categories,
  };
}

function groupSlugs(rows: { post_id: number; slug: string }[]): Map<number, string[]> {
  const map = new Map<number, string[]>();
  for (const row of rows) {
    const list = map.get(row.post_id) ?? [];
    list.push(row.slug);
    map.set(row.post_id, list);
  }
  return map;
}

export async function listPublishedPosts(db: DB, now: Date): Promise<BlogPost[]> {
  const rows = await db
    .selectFrom('blog_posts')
    .selectAll()
    .where(isLive(now))
    .orderBy(newestFirst)
    .orderBy('post_id', 'desc')
    .execute();
  // One query for every listed post's categories (a subquery, so no bound-parameter limit).
  const categoryRows = await db
    .selectFrom('post_categories')
    .innerJoin('blog_categories', 'blog_categories.category_id', 'post_categories.category_id')
    .select(['post_categories.post_id', 'blog_categories.slug'])
    .where('post_categories.post_id', 'in', db.selectFrom('blog_posts').select('post_id').where(isLive(now)))
    .orderBy('blog_categories.slug')
    .execute();
  const categories = groupSlugs(categoryRows);
  return rows.map((row) => toPost(row, categories.get(row.post_id) ?? []));
}

export async function findPublishedPost(db: DB, slug: string, now: Date): Promise<BlogPost | null> {
  const row = await db
    .selectFrom('blog_posts')
    .selectAll()
    .where('slug', '=', slug)
    .where(isLive(now))
    .executeTakeFirst();
  if (!row) return null;
  const categoryRows = await db
    .selectFrom('post_categories')
    .innerJoin('blog_categories', 'blog_categories.category_id', 'post_categories.category_id')
    .select(['post_categories.post_id', 'blog_categories.slug'])
    .where('post_categories.post_id', '=', row.post_id)
    .orderBy('blog_categories.slug')
    .execute();
  return toPost(
    row,
    categoryRows.map((r) => r.slug),
  );
}

export async function listBlogCategories(db: DB): Promise<BlogCategory[]> {
  const rows = await db.selectFrom('blog_categories').selectAll().orderBy('category_name').execute();
  return rows.map((r) => ({
    categoryId: r.category_id,
    slug: r.slug,
    categoryName: r.category_name,
    colorHex: r.color_hex,
  }));
}

export async function listCommunityFeed(db: DB, now: Date, limit: number): Promise<CommunityEntry[]> {
  const rows = await db
    .selectFrom('blog_posts')
    .select([
      'post_id',
      'kind',
      'slug',
      'title',
      'excerpt',
      'author_name',
      'featured_image_url',
      'view_count',
      'like_count',
      'comment_count',
    ])
    .where(isLive(now))
    .orderBy(newestFirst)
    .orderBy('post_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.post_id,
    type: r.kind,
    slug: r.slug,
    title: r.title,
    excerpt: r.excerpt,
    author: r.author_name,
    featuredImageUrl: r.featured_image_url,
    viewCount: r.view_count,
    likeCount: r.like_count,
    commentCount: r.comment_count,
  }));
}

export async function countPublishedPosts(db: DB, now: Date): Promise<number> {
  const row = await db
    .selectFrom('blog_posts')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where(isLive(now))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** A live post's id and slug, by either; null when there is none. */
export async function findLivePost(
  db: DB,
  where: { slug: string } | { postId: number },
  now: Date,
): Promise<{ postId: number; slug: string } | null> {
  const row = await db
    .selectFrom('blog_posts')
    .select(['post_id', 'slug'])
    .$if('slug' in where, (q) => q.where('slug', '=', 'slug' in where ? where.slug : ''))
    .$if('postId' in where, (q) => q.where('post_id', '=', 'postId' in where ? where.postId : 0))
    .where(isLive(now))
    .executeTakeFirst();
  return row ? { postId: row.post_id, slug: row.slug } : null;
}

/** The live numbers of a post page. */
export async function getPostStats(db: DB, slug: string, now: Date): Promise<PostStats | null> {
  const row = await db
    .selectFrom('blog_posts')
    .select(['post_id', 'view_count', 'like_count', 'comment_count'])
    .where('slug', '=', slug)
    .where(isLive(now))
    .executeTakeFirst();
  if (!row) return null;
  return {
    postId: row.post_id,
    viewCount: row.view_count,
    likeCount: row.like_count,
    commentCount: row.comment_count,
  };
}

/**
 * Adds a batch of views (post id → number of views) in one transaction. The count grows by the
 * batch (`view_count + n`), never set from what this process read, so server instances that flush
 * their own batches into one database add up; posts go in id order, so two flushes that meet wait
 * for each other rather than deadlock.
 */
export async function addViews(db: DB, views: Map<number, number>, now: Date): Promise<void> {
  if (views.size === 0) return;
  const viewedAt = now.toISOString();
  await db.transaction().execute(async (trx) => {
    for (const [postId, count] of [...views].sort(([a], [b]) => a - b)) {
      await trx
        .updateTable('blog_posts')
        .set((eb) => ({ view_count: eb('view_count', '+', count) }))
        .where('post_id', '=', postId)
        .execute();
      const rows = Array.from({ length: count }, () => ({ post_id: postId, viewed_at: viewedAt }));
      // Chunked: SQLite allows a limited number of bound parameters per statement.
      for (let i = 0; i < rows.length; i += 400) {
        await trx
          .insertInto('post_views')
          .values(rows.slice(i, i + 400))
          .execute();
      }
    }
  });
}

/** A post's id and slug, live or not (what a change to its thread invalidates). */
export async function findPostRef(db: DB, postId: number): Promise<{ postId: number; slug: string }> {
  const row = await db
    .selectFrom('blog_posts')
    .select(['post_id', 'slug'])
    .where('post_id', '=', postId)
    .executeTakeFirstOrThrow();
  return { postId: row.post_id, slug: row.slug };
}
