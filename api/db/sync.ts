import crypto from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import type { StudioPostFields } from '../contract/studio.ts';
import { readingTimeMinutes, renderMarkdown } from '../lib/html.ts';
import type { Content, ContentPost } from './content.ts';
import type { DB } from './database.ts';
import { addRevision } from './queries/post-revisions.ts';

export interface SyncResult {
  inserted: string[];
  updated: string[];
  unpublished: string[];
  unchanged: number;
  /** Files left alone because their post is edited in the studio (docs/decisions/018). */
  skipped: string[];
}

// Seeded likes come from a fixed pool of sample parents, so a re-run finds them already there.
const seedUser = (n: number) => `seed-user-${n}`;

function seedLikeCount(slug: string): number {
  return crypto.createHash('sha1').update(slug).digest()[0]! % 18;
}

function postValues(post: ContentPost, now: string) {
  const content = post.body ? renderMarkdown(post.body) : '';
  return {
    title: post.title,
    excerpt: post.excerpt,
    content,
    featured_image_url: post.featuredImage,
    featured_image_alt: post.featuredImageAlt,
    author_name: post.author,
    kind: post.kind,
    is_featured: post.featured ? 1 : 0,
    is_published: post.draft ? 0 : 1,
    status: post.draft ? ('draft' as const) : ('published' as const),
    published_at: post.publishedAt,
    updated_at: now,
    reading_time_minutes: readingTimeMinutes(content),
    source_hash: post.hash,
  };
}

/** The file's post as a revision, so the studio's history and editor show file posts too. */
function revisionFields(post: ContentPost): StudioPostFields {
  return {
    title: post.title,
    slug: post.slug,
    excerpt: post.excerpt,
    markdown: post.body,
    categories: post.categories,
    kind: post.kind,
    featured: post.featured,
    featuredImageUrl: post.featuredImage,
    featuredImageAlt: post.featuredImageAlt,
  };
}

/** Who saved a file's revision: no one signed in, the file. */
const fileAuthor = (post: ContentPost) => ({ uid: null, name: `content/posts/${path.basename(post.file)}` });

/**
 * Makes the database match content/: categories upserted, posts inserted or updated
 * when their source changed (each change kept as a revision), file posts no longer in content/
 * (or marked draft) unpublished, sample comments and likes added once. The database is the truth
 * for posts (docs/decisions/018): a post written or edited in the studio is never touched, and a
 * file that would change it is skipped. Running it twice changes nothing the second time. Items
 * are listings, which come from the marketplace (api/db/queries/listings.ts): a new database takes
 * content/items.json's sample through that way in once (api/db/prepare.ts), and a publish leaves them.
 */
export async function syncContent(db: DB, content: Content, now: Date): Promise<SyncResult> {
  const stamp = now.toISOString();
  const result: SyncResult = { inserted: [], updated: [], unpublished: [], unchanged: 0, skipped: [] };

  await db.transaction().execute(async (trx) => {
    for (const category of content.categories) {
      await trx
        .insertInto('blog_categories')
        .values({ slug: category.slug, category_name: category.categoryName, color_hex: category.colorHex })
        .onConflict((oc) =>
          oc.column('slug').doUpdateSet({
            category_name: category.categoryName,
            color_hex: category.colorHex,
          }),
        )
        .execute();
    }
    const categoryIds = new Map(
      (await trx.selectFrom('blog_categories').select(['slug', 'category_id']).execute()).map((r) => [
        r.slug,
        r.category_id,
      ]),
    );

    const existing = new Map(
      (
        await trx
          .selectFrom('blog_posts')
          .select(['post_id', 'slug', 'source_hash', 'is_published', 'source', 'revision'])
          .execute()
      ).map((r) => [r.slug, r]),
    );
    // Addresses a file may not take: old addresses of a post (they forward to it), and the files a
    // post edited in the studio was imported from (its slug may have changed since).
    const oldAddresses = new Set(
      (await trx.selectFrom('post_redirects').select('from_slug').execute()).map((r) => r.from_slug),
    );
    const takenOver = new Set(
      (
        await trx
          .selectFrom('post_revisions')
          .innerJoin('blog_posts', 'blog_posts.post_id', 'post_revisions.post_id')
          .select('post_revisions.saved_by_name')
          .where('blog_posts.source', '=', 'studio')
          .where('post_revisions.saved_by_uid', 'is', null)
          .distinct()
          .execute()
      ).map((r) => r.saved_by_name),
    );

    for (const post of content.posts) {
      const found = existing.get(post.slug);
      if (
        found ? found.source !== 'file' : oldAddresses.has(post.slug) || takenOver.has(fileAuthor(post).name)
      ) {
        result.skipped.push(post.slug);
        continue;
      }
      for (const slug of post.categories) {
        if (!categoryIds.has(slug)) {
          throw new Error(`${post.file}: unknown category "${slug}" (add it to blog-categories.json)`);
        }
      }
      let postId: number;
      if (!found) {
        const row = await trx
          .insertInto('blog_posts')
          .values({
            slug: post.slug,
            source: 'file',
            created_at: stamp,
            view_count: post.views,
            ...postValues(post, stamp),
          })
          .returning('post_id')
          .executeTakeFirstOrThrow();
        postId = row.post_id;
        result.inserted.push(post.slug);
        const likes = Array.from({ length: seedLikeCount(post.slug) }, (_, n) => ({
          post_id: postId,
          user_uid: seedUser(n + 1),
          created_at: stamp,
        }));
        if (likes.length > 0) await trx.insertInto('post_likes').values(likes).execute();
      } else if (found.source_hash !== post.hash) {
        postId = found.post_id;
        await trx
          .updateTable('blog_posts')
          .set(postValues(post, stamp))
          .where('post_id', '=', postId)
          .execute();
        await trx.deleteFrom('post_categories').where('post_id', '=', postId).execute();
        result.updated.push(post.slug);
      } else {
        result.unchanged += 1;
        // A post imported before posts had revisions gets its first one (what the file says,
        // which is what the post is): the studio's history and editor need it.
        if (found.revision === 0) {
          const revision = await addRevision(trx, found.post_id, revisionFields(post), fileAuthor(post), now);
          await trx
            .updateTable('blog_posts')
            .set({ published_revision: found.is_published === 1 ? revision : null })
            .where('post_id', '=', found.post_id)
            .execute();
        }
        continue;
      }
      const links = post.categories.map((slug) => ({ post_id: postId, category_id: categoryIds.get(slug)! }));
      if (links.length > 0) await trx.insertInto('post_categories').values(links).execute();
      const revision = await addRevision(trx, postId, revisionFields(post), fileAuthor(post), now);
      await trx
        .updateTable('blog_posts')
        .set({ published_revision: post.draft ? null : revision })
        .where('post_id', '=', postId)
        .execute();
    }

    // Only file posts follow content/: a post written or edited in the studio is never unpublished here.
    const inContent = new Set(content.posts.map((p) => p.slug));
    const withdrawn = [...existing.values()].filter(
      (p) => p.source === 'file' && p.is_published === 1 && !inContent.has(p.slug),
    );
    for (const post of withdrawn) {
      await trx
        .updateTable('blog_posts')
        .set({
          is_published: 0,
          status: 'withdrawn',
          published_revision: null,
          updated_at: stamp,
          source_hash: null,
        })
        .where('post_id', '=', post.post_id)
        .execute();
      result.unpublished.push(post.slug);
    }
    for (const slug of result.updated) {
      if (content.posts.find((p) => p.slug === slug)?.draft) result.unpublished.push(slug);
    }

    const postIds = new Map(
      (await trx.selectFrom('blog_posts').select(['slug', 'post_id']).execute()).map((r) => [
        r.slug,
        r.post_id,
      ]),
    );
    for (const comment of content.comments) {
      const postId = postIds.get(comment.postSlug);
      if (postId === undefined) continue;
      const parentId = await insertSeedComment(
        trx,
        postId,
        null,
        comment,
        `${comment.postSlug}|${comment.createdAt}|${comment.authorName}`,
      );
      for (const reply of comment.replies) {
        await insertSeedComment(
          trx,
          postId,
          parentId,
          reply,
          `${comment.postSlug}|${reply.createdAt}|${reply.authorName}`,
        );
      }
    }

    await recountAll(trx);
  });
  return result;
}

async function insertSeedComment(
  db: DB,
  postId: number,
  parentId: number | null,
  comment: {
    authorName: string;
    authorAvatarUrl: string | null;
    content: string;
    createdAt: string;
    likes: number;
  },
  seedKey: string,
): Promise<number> {
  await db
    .insertInto('comments')
    .values({
      post_id: postId,
      parent_comment_id: parentId,
      author_uid: null,
      author_name: comment.authorName,
      author_avatar_url: comment.authorAvatarUrl,
      content: comment.content,
      created_at: comment.createdAt,
      published_at: comment.createdAt,
      seed_key: seedKey,
    })
    .onConflict((oc) => oc.column('seed_key').doNothing())
    .execute();
  const { comment_id } = await db
    .selectFrom('comments')
    .select('comment_id')
    .where('seed_key', '=', seedKey)
    .executeTakeFirstOrThrow();
  const likes = Array.from({ length: comment.likes }, (_, n) => ({
    comment_id,
    user_uid: seedUser(n + 1),
    created_at: comment.createdAt,
  }));
  if (likes.length > 0) {
    await db
      .insertInto('comment_likes')
      .values(likes)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  return comment_id;
}

/** Recomputes every denormalised count from the rows it summarises (only visible comments count). */
export async function recountAll(db: DB): Promise<void> {
  await sql`update comments set
      like_count = (select count(*) from comment_likes l where l.comment_id = comments.comment_id),
      reply_count = (select count(*) from comments r
        where r.parent_comment_id = comments.comment_id and r.status = 'visible')`.execute(db);
  await sql`update blog_posts set
      like_count = (select count(*) from post_likes l where l.post_id = blog_posts.post_id),
      comment_count = (select count(*) from comments c
        where c.post_id = blog_posts.post_id and c.status = 'visible')`.execute(db);
}
