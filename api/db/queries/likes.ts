import type { LikeStatus } from '../../contract.ts';
import type { DB } from '../database.ts';
import { forUpdate } from '../dialect.ts';
import { groupedTransaction } from '../group-commit.ts';
import { recordThreadEvent } from './thread-events.ts';

// Likes are one row per (thing, parent), and the count beside the thing moves by exactly the rows
// that changed, inside the same transaction: exact under any number of concurrent likers. The thing
// is locked first, so one parent's quick double toggles run one after the other on PostgreSQL too.

export async function getPostLikeStatus(db: DB, postId: number, uid: string | null): Promise<LikeStatus> {
  const post = await db
    .selectFrom('blog_posts')
    .select('like_count')
    .where('post_id', '=', postId)
    .executeTakeFirstOrThrow();
  const liked = uid
    ? (await db
        .selectFrom('post_likes')
        .select('user_uid')
        .where('post_id', '=', postId)
        .where('user_uid', '=', uid)
        .executeTakeFirst()) !== undefined
    : false;
  return { liked, likeCount: post.like_count };
}

/** Likes or unlikes a post for one parent. */
export async function togglePostLike(db: DB, postId: number, uid: string, now: Date): Promise<LikeStatus> {
  return groupedTransaction(db, async (trx) => {
    await trx
      .selectFrom('blog_posts')
      .select('post_id')
      .where('post_id', '=', postId)
      .$call(forUpdate(trx))
      .execute();
    const removed = await trx
      .deleteFrom('post_likes')
      .where('post_id', '=', postId)
      .where('user_uid', '=', uid)
      .executeTakeFirst();
    let liked = false;
    let delta = -Number(removed.numDeletedRows);
    if (delta === 0) {
      const added = await trx
        .insertInto('post_likes')
        .values({ post_id: postId, user_uid: uid, created_at: now.toISOString() })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      liked = true;
      delta = Number(added.numInsertedOrUpdatedRows ?? 0);
    }
    const { like_count } = await trx
      .updateTable('blog_posts')
      .set((eb) => ({ like_count: eb('like_count', '+', delta) }))
      .where('post_id', '=', postId)
      .returning('like_count')
      .executeTakeFirstOrThrow();
    return { liked, likeCount: like_count };
  });
}

/** Likes or unlikes a comment for one parent; null when the comment does not exist. */
export async function toggleCommentLike(
  db: DB,
  commentId: number,
  uid: string,
  now: Date,
): Promise<(LikeStatus & { postId: number }) | null> {
  return groupedTransaction(db, async (trx) => {
    const comment = await trx
      .selectFrom('comments')
      .select('post_id')
      .where('comment_id', '=', commentId)
      // Hidden, removed and deleted comments take no likes.
      .where('status', '=', 'visible')
      .$call(forUpdate(trx))
      .executeTakeFirst();
    if (!comment) return null;
    const removed = await trx
      .deleteFrom('comment_likes')
      .where('comment_id', '=', commentId)
      .where('user_uid', '=', uid)
      .executeTakeFirst();
    let liked = false;
    let delta = -Number(removed.numDeletedRows);
    if (delta === 0) {
      const added = await trx
        .insertInto('comment_likes')
        .values({ comment_id: commentId, user_uid: uid, created_at: now.toISOString() })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      liked = true;
      delta = Number(added.numInsertedOrUpdatedRows ?? 0);
    }
    const { like_count } = await trx
      .updateTable('comments')
      .set((eb) => ({ like_count: eb('like_count', '+', delta) }))
      .where('comment_id', '=', commentId)
      .returning('like_count')
      .executeTakeFirstOrThrow();
    // Open pages of the thread see the new count (docs/decisions/026-live-threads.md).
    if (delta !== 0) await recordThreadEvent(trx, { postId: comment.post_id, commentId }, now);
    return { liked, likeCount: like_count, postId: comment.post_id };
  });
}

/**
 * Account erasure: removes every like the parent gave, posts and comments, and recounts what they
 * had liked from the rows that remain. Returns how many likes went.
 */
export async function removeLikes(trx: DB, uid: string): Promise<number> {
  const posts = await trx.selectFrom('post_likes').select('post_id').where('user_uid', '=', uid).execute();
  const comments = await trx
    .selectFrom('comment_likes')
    .select('comment_id')
    .where('user_uid', '=', uid)
    .execute();
  await trx.deleteFrom('post_likes').where('user_uid', '=', uid).execute();
  await trx.deleteFrom('comment_likes').where('user_uid', '=', uid).execute();
  if (posts.length > 0) {
    await trx
      .updateTable('blog_posts')
      .set((eb) => ({
        like_count: eb
          .selectFrom('post_likes')
          .select((sub) => sub.fn.countAll<number>().as('likes'))
          .whereRef('post_likes.post_id', '=', 'blog_posts.post_id'),
      }))
      .where(
        'post_id',
        'in',
        posts.map((p) => p.post_id),
      )
      .execute();
  }
  if (comments.length > 0) {
    await trx
      .updateTable('comments')
      .set((eb) => ({
        like_count: eb
          .selectFrom('comment_likes')
          .select((sub) => sub.fn.countAll<number>().as('likes'))
          .whereRef('comment_likes.comment_id', '=', 'comments.comment_id'),
      }))
      .where(
        'comment_id',
        'in',
        comments.map((c) => c.comment_id),
      )
      .execute();
  }
  return posts.length + comments.length;
}
