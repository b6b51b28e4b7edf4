import { sql } from 'kysely';
import type { DB } from '../database.ts';
import type { CommentRow } from '../schema.ts';
import { isLive } from './posts.ts';

/** A reply: the Comment shape of spec §3 without reply_count, parent_comment_id and replies. */
export interface Reply {
  comment_id: number;
  content: string;
  author_name: string;
  author_avatar_url: string | null;
  created_at: string;
  like_count: number;
}

/** A top-level comment with its replies (spec §3). */
export interface Comment extends Reply {
  reply_count: number;
  parent_comment_id: null;
  replies: Reply[];
}

export interface LikeStatus {
  liked: boolean;
  likeCount: number;
}

function toReply(row: CommentRow): Reply {
  return {
    comment_id: row.comment_id,
    content: row.content,
    author_name: row.author_name,
    author_avatar_url: row.author_avatar_url,
    created_at: row.created_at,
    like_count: row.like_count,
  };
}

export async function findLivePostId(db: DB, where: { slug: string } | { postId: number }, now: Date) {
  const row = await db
    .selectFrom('blog_posts')
    .select('post_id')
    .$if('slug' in where, (q) => q.where('slug', '=', (where as { slug: string }).slug))
    .$if('postId' in where, (q) => q.where('post_id', '=', (where as { postId: number }).postId))
    .where(isLive(now))
    .executeTakeFirst();
  return row?.post_id ?? null;
}

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

/**
 * Likes or unlikes a post for one user, in one transaction: the (post, user) primary key makes a
 * second like impossible and the count is recomputed from the rows, so it is always exact.
 */
export async function togglePostLike(db: DB, postId: number, uid: string, now: Date): Promise<LikeStatus> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('post_likes')
      .where('post_id', '=', postId)
      .where('user_uid', '=', uid)
      .executeTakeFirst();
    const liked = Number(removed.numDeletedRows) === 0;
    if (liked) {
      await trx
        .insertInto('post_likes')
        .values({ post_id: postId, user_uid: uid, created_at: now.toISOString() })
        .execute();
    }
    const { like_count } = await trx
      .updateTable('blog_posts')
      .set({ like_count: sql<number>`(select count(*) from post_likes where post_id = ${postId})` })
      .where('post_id', '=', postId)
      .returning('like_count')
      .executeTakeFirstOrThrow();
    return { liked, likeCount: like_count };
  });
}

/** Top-level comments newest first, each with its replies oldest first. */
export async function listComments(db: DB, postId: number): Promise<Comment[]> {
  const rows = await db
    .selectFrom('comments')
    .selectAll()
    .where('post_id', '=', postId)
    .orderBy('created_at', 'desc')
    .orderBy('comment_id', 'desc')
    .execute();
  const replies = new Map<number, Reply[]>();
  for (const row of [...rows].reverse()) {
    if (row.parent_comment_id === null) continue;
    const list = replies.get(row.parent_comment_id) ?? [];
    list.push(toReply(row));
    replies.set(row.parent_comment_id, list);
  }
  return rows
    .filter((row) => row.parent_comment_id === null)
    .map((row) => ({
      ...toReply(row),
      reply_count: row.reply_count,
      parent_comment_id: null,
      replies: replies.get(row.comment_id) ?? [],
    }));
}

export class CommentRuleError extends Error {}

export interface NewComment {
  postId: number;
  parentCommentId: number | null;
  content: string;
  author: { uid: string; name: string; avatarUrl: string | null };
}

/** Adds a comment or a reply (only to a top-level comment of the same post) and its counts. */
export async function addComment(db: DB, input: NewComment, now: Date): Promise<Reply> {
  return db.transaction().execute(async (trx) => {
    if (input.parentCommentId !== null) {
      const parent = await trx
        .selectFrom('comments')
        .select(['post_id', 'parent_comment_id'])
        .where('comment_id', '=', input.parentCommentId)
        .executeTakeFirst();
      if (!parent || parent.post_id !== input.postId) {
        throw new CommentRuleError('parentCommentId: no such comment on this post');
      }
      if (parent.parent_comment_id !== null) {
        throw new CommentRuleError('parentCommentId: replies are allowed only on top-level comments');
      }
    }
    const row = await trx
      .insertInto('comments')
      .values({
        post_id: input.postId,
        parent_comment_id: input.parentCommentId,
        author_uid: input.author.uid,
        author_name: input.author.name,
        author_avatar_url: input.author.avatarUrl,
        content: input.content,
        created_at: now.toISOString(),
        seed_key: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (input.parentCommentId !== null) {
      await trx
        .updateTable('comments')
        .set({
          reply_count: sql<number>`(select count(*) from comments where parent_comment_id = ${input.parentCommentId})`,
        })
        .where('comment_id', '=', input.parentCommentId)
        .execute();
    }
    await trx
      .updateTable('blog_posts')
      .set({ comment_count: sql<number>`(select count(*) from comments where post_id = ${input.postId})` })
      .where('post_id', '=', input.postId)
      .execute();
    return toReply(row);
  });
}

/** Likes or unlikes a comment for one user; null when the comment does not exist. */
export async function toggleCommentLike(
  db: DB,
  commentId: number,
  uid: string,
  now: Date,
): Promise<LikeStatus | null> {
  return db.transaction().execute(async (trx) => {
    const exists = await trx
      .selectFrom('comments')
      .select('comment_id')
      .where('comment_id', '=', commentId)
      .executeTakeFirst();
    if (!exists) return null;
    const removed = await trx
      .deleteFrom('comment_likes')
      .where('comment_id', '=', commentId)
      .where('user_uid', '=', uid)
      .executeTakeFirst();
    const liked = Number(removed.numDeletedRows) === 0;
    if (liked) {
      await trx
        .insertInto('comment_likes')
        .values({ comment_id: commentId, user_uid: uid, created_at: now.toISOString() })
        .execute();
    }
    const { like_count } = await trx
      .updateTable('comments')
      .set({ like_count: sql<number>`(select count(*) from comment_likes where comment_id = ${commentId})` })
      .where('comment_id', '=', commentId)
      .returning('like_count')
      .executeTakeFirstOrThrow();
    return { liked, likeCount: like_count };
  });
}
