import type { Comment, CommentPosted, Reply } from '../../contract.ts';
import type { DB } from '../database.ts';
import type { CommentRow } from '../schema.ts';

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

/** A request that breaks a thread rule (a reply to a reply, an unknown parent or cursor): a 400. */
export class CommentRuleError extends Error {}

export interface ThreadPage {
  comments: Comment[];
  /** The cursor of the next page (the last comment's id), or null on the last page. */
  next: number | null;
}

/**
 * One page of a thread: top-level comments newest first, each with its replies oldest first.
 * Keyset-paged on (created_at, comment_id), so page 100 costs what page 1 costs.
 */
export async function listThread(
  db: DB,
  postId: number,
  page: { limit: number; before: number | null },
): Promise<ThreadPage> {
  let query = db
    .selectFrom('comments')
    .selectAll()
    .where('post_id', '=', postId)
    .where('parent_comment_id', 'is', null);
  if (page.before !== null) {
    const cursor = await db
      .selectFrom('comments')
      .select(['created_at', 'comment_id'])
      .where('comment_id', '=', page.before)
      .where('post_id', '=', postId)
      .where('parent_comment_id', 'is', null)
      .executeTakeFirst();
    if (!cursor) throw new CommentRuleError('before: no such top-level comment on this post');
    query = query
      .where('created_at', '<=', cursor.created_at)
      .where((eb) =>
        eb.or([eb('created_at', '<', cursor.created_at), eb('comment_id', '<', cursor.comment_id)]),
      );
  }
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('comment_id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const more = rows.length > page.limit;
  const top = more ? rows.slice(0, page.limit) : rows;
  const replies = new Map<number, Reply[]>();
  if (top.length > 0) {
    const replyRows = await db
      .selectFrom('comments')
      .selectAll()
      .where(
        'parent_comment_id',
        'in',
        top.map((r) => r.comment_id),
      )
      .orderBy('created_at')
      .orderBy('comment_id')
      .execute();
    for (const row of replyRows) {
      const list = replies.get(row.parent_comment_id!) ?? [];
      list.push(toReply(row));
      replies.set(row.parent_comment_id!, list);
    }
  }
  return {
    comments: top.map((row) => ({
      ...toReply(row),
      reply_count: row.reply_count,
      parent_comment_id: null,
      replies: replies.get(row.comment_id) ?? [],
    })),
    next: more ? top[top.length - 1]!.comment_id : null,
  };
}

export interface NewComment {
  postId: number;
  parentCommentId: number | null;
  content: string;
  author: { uid: string; name: string; avatarUrl: string | null };
}

/** Adds a comment or a reply (only to a top-level comment of the same post) and its counts. */
export async function addComment(db: DB, input: NewComment, now: Date): Promise<CommentPosted> {
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
        .set((eb) => ({ reply_count: eb('reply_count', '+', 1) }))
        .where('comment_id', '=', input.parentCommentId)
        .execute();
    }
    const { comment_count } = await trx
      .updateTable('blog_posts')
      .set((eb) => ({ comment_count: eb('comment_count', '+', 1) }))
      .where('post_id', '=', input.postId)
      .returning('comment_count')
      .executeTakeFirstOrThrow();
    return { comment: toReply(row), commentCount: comment_count };
  });
}
