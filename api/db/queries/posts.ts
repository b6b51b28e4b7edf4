import type { BlogCategory, BlogPost, CommunityEntry, PostStats } from '../../contract.ts';
import type { DB } from '../database.ts';
import type { BlogPostRow, ReleasePostRow } from '../schema.ts';
import type { ServedRelease } from './releases.ts';

// Readers get the posts of a release (docs/product.md, "Publishing"): those in its snapshot
// whose time had come by its content_as_of, so a post shows in the API exactly when its page does.
// Their counts (views, likes, comments) are the post's own, shared by every release.

/** A release's live posts, with their counts. */
function livePosts(db: DB, release: ServedRelease) {
  return db
    .selectFrom('release_posts')
    .innerJoin('blog_posts', 'blog_posts.post_id', 'release_posts.post_id')
    .where('release_posts.release_id', '=', release.id)
    .where('release_posts.published_at', '<=', release.contentAsOf);
}

const POST_COLUMNS = [
  'release_posts.post_id',
  'release_posts.slug',
  'release_posts.title',
  'release_posts.excerpt',
  'release_posts.content',
  'release_posts.featured_image_url',
  'release_posts.featured_image_alt',
  'release_posts.author_name',
  'release_posts.is_featured',
  'release_posts.published_at',
  'release_posts.reading_time_minutes',
  'blog_posts.created_at',
  'blog_posts.view_count',
  'blog_posts.like_count',
  'blog_posts.comment_count',
] as const;

/** What POST_COLUMNS select: the release's copy of the post, and the post's own counts. */
type PostRow = Omit<ReleasePostRow, 'release_id' | 'kind' | 'source_hash'> &
  Pick<BlogPostRow, 'created_at' | 'view_count' | 'like_count' | 'comment_count'>;

function toPost(row: PostRow, categories: string[]): BlogPost {
  return {
    postId: row.post_id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    content: row.content,
    featuredImageUrl: row.featured_image_url,
    featuredImageAlt: row.featured_image_alt,
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

/** Category slugs of a release's posts (of one post, when given), by post. */
async function categorySlugs(
  db: DB,
  release: ServedRelease,
  postId?: number,
): Promise<Map<number, string[]>> {
  const rows = await db
    .selectFrom('release_post_categories')
    .innerJoin('release_categories', (join) =>
      join
        .onRef('release_categories.release_id', '=', 'release_post_categories.release_id')
        .onRef('release_categories.category_id', '=', 'release_post_categories.category_id'),
    )
    .select(['release_post_categories.post_id', 'release_categories.slug'])
    .where('release_post_categories.release_id', '=', release.id)
    .$if(postId !== undefined, (q) => q.where('release_post_categories.post_id', '=', postId!))
    .orderBy('release_categories.slug')
    .execute();
  const map = new Map<number, string[]>();
  for (const row of rows) {
    const list = map.get(row.post_id) ?? [];
    list.push(row.slug);
    map.set(row.post_id, list);
  }
  return map;
}

/** The live posts, newest first. */
export async function listPublishedPosts(db: DB, release: ServedRelease | null): Promise<BlogPost[]> {
  if (!release) return [];
  const rows = await livePosts(db, release)
    .select(POST_COLUMNS)
    .orderBy('release_posts.published_at', 'desc')
    .orderBy('release_posts.post_id', 'desc')
    .execute();
  const categories = await categorySlugs(db, release);
  return rows.map((row) => toPost(row, categories.get(row.post_id) ?? []));
}

export async function findPublishedPost(
  db: DB,
  slug: string,
  release: ServedRelease | null,
): Promise<BlogPost | null> {
  if (!release) return null;
  const row = await livePosts(db, release)
    .select(POST_COLUMNS)
    .where('release_posts.slug', '=', slug)
    .executeTakeFirst();
  if (!row) return null;
  const categories = await categorySlugs(db, release, row.post_id);
  return toPost(row, categories.get(row.post_id) ?? []);
}

/** The live release's blog categories, by name. */
export async function listBlogCategories(db: DB, release: ServedRelease | null): Promise<BlogCategory[]> {
  if (!release) return [];
  const rows = await db
    .selectFrom('release_categories')
    .selectAll()
    .where('release_id', '=', release.id)
    .orderBy('category_name')
    .execute();
  return rows.map((r) => ({
    categoryId: r.category_id,
    slug: r.slug,
    categoryName: r.category_name,
    colorHex: r.color_hex,
  }));
}

export async function listCommunityFeed(
  db: DB,
  release: ServedRelease | null,
  limit: number,
): Promise<CommunityEntry[]> {
  if (!release) return [];
  const rows = await livePosts(db, release)
    .select([
      'release_posts.post_id',
      'release_posts.kind',
      'release_posts.slug',
      'release_posts.title',
      'release_posts.excerpt',
      'release_posts.author_name',
      'release_posts.featured_image_url',
      'release_posts.featured_image_alt',
      'blog_posts.view_count',
      'blog_posts.like_count',
      'blog_posts.comment_count',
    ])
    .orderBy('release_posts.published_at', 'desc')
    .orderBy('release_posts.post_id', 'desc')
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
    featuredImageAlt: r.featured_image_alt,
    viewCount: r.view_count,
    likeCount: r.like_count,
    commentCount: r.comment_count,
  }));
}

export async function countPublishedPosts(db: DB, release: ServedRelease | null): Promise<number> {
  if (!release) return 0;
  const row = await livePosts(db, release)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** A live post's id and slug, by either; null when there is none. */
export async function findLivePost(
  db: DB,
  where: { slug: string } | { postId: number },
  release: ServedRelease | null,
): Promise<{ postId: number; slug: string } | null> {
  if (!release) return null;
  const row = await livePosts(db, release)
    .select(['release_posts.post_id', 'release_posts.slug'])
    .$if('slug' in where, (q) => q.where('release_posts.slug', '=', 'slug' in where ? where.slug : ''))
    .$if('postId' in where, (q) =>
      q.where('release_posts.post_id', '=', 'postId' in where ? where.postId : 0),
    )
    .executeTakeFirst();
  return row ? { postId: row.post_id, slug: row.slug } : null;
}

/** Which of these post ids are live in the release, in the order given. */
export async function livePostIds(
  db: DB,
  postIds: number[],
  release: ServedRelease | null,
): Promise<number[]> {
  if (!release || postIds.length === 0) return [];
  const rows = await livePosts(db, release)
    .select('release_posts.post_id')
    .where('release_posts.post_id', 'in', postIds)
    .execute();
  const live = new Set(rows.map((r) => r.post_id));
  return postIds.filter((id) => live.has(id));
}

/** The live numbers of a post page. */
export async function getPostStats(
  db: DB,
  slug: string,
  release: ServedRelease | null,
): Promise<PostStats | null> {
  if (!release) return null;
  const row = await livePosts(db, release)
    .select([
      'blog_posts.post_id',
      'blog_posts.view_count',
      'blog_posts.like_count',
      'blog_posts.comment_count',
    ])
    .where('release_posts.slug', '=', slug)
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
 * Adds a batch of views (post id → number of views) in one transaction: to each post's count and
 * to its count for the day. Counts grow by the batch (`view_count + n`), never set from what this
 * process read, so server instances that flush their own batches into one database add up; posts
 * go in id order, so two flushes that meet wait for each other rather than deadlock.
 */
export async function addViews(db: DB, views: ReadonlyMap<number, number>, now: Date): Promise<void> {
  if (views.size === 0) return;
  const day = now.toISOString().slice(0, 10);
  await db.transaction().execute(async (trx) => {
    for (const [postId, count] of [...views].sort(([a], [b]) => a - b)) {
      await trx
        .updateTable('blog_posts')
        .set((eb) => ({ view_count: eb('view_count', '+', count) }))
        .where('post_id', '=', postId)
        .execute();
      await trx
        .insertInto('post_view_days')
        .values({ post_id: postId, day, views: count })
        .onConflict((oc) =>
          oc
            .columns(['post_id', 'day'])
            .doUpdateSet((eb) => ({ views: eb('post_view_days.views', '+', count) })),
        )
        .execute();
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
