// Rules of a comment thread's shape, shared by the live thread and demo mode's simulated one.
import type { Comment, Reply } from '../../api/contract.ts';

/**
 * The thread after a new comment: a top-level one goes first (newest first, as the API orders
 * them); a reply goes last under its parent.
 */
export function addToThread(thread: Comment[], comment: Reply, parentCommentId: number | null): Comment[] {
  if (parentCommentId === null) {
    return [{ ...comment, reply_count: 0, parent_comment_id: null, replies: [] }, ...thread];
  }
  return thread.map((c) =>
    c.comment_id === parentCommentId
      ? {
          ...c,
          replies: [...c.replies, comment],
          // Only visible replies are counted; one waiting for review is shown to its author alone.
          reply_count: c.reply_count + (comment.status === 'visible' ? 1 : 0),
        }
      : c,
  );
}

/** Comments and replies in a list of top-level comments. */
export const countAll = (comments: Comment[]) => comments.reduce((n, c) => n + 1 + c.replies.length, 0);

/** The `before` cursor in a thread page's `Link: <...?before=N>; rel="next"` header. */
export function nextCursor(link: string | null): number | null {
  const match = /<[^>]*[?&]before=(\d+)[^>]*>\s*;\s*rel="next"/.exec(link ?? '');
  return match ? Number(match[1]) : null;
}
