// Rules of a comment thread's shape, shared by the live thread and demo mode's simulated one.
import type { Comment, Reply } from '../../api/contract.ts';

const shown = (c: Reply) => (c.status === 'visible' ? 1 : 0);

/** The viewer fields of a visible comment as a reader who did not write it gets them. */
export const SHOWN_TO_READERS = {
  status: 'visible',
  edited_at: null,
  is_own: false,
  can_edit_until: null,
  status_reason: null,
} as const;

/**
 * The thread after a new comment: a top-level one goes first (newest first, as the API orders
 * them); a reply goes last under its parent.
 */
export function addToThread(thread: Comment[], comment: Reply, parentCommentId: number | null): Comment[] {
  // The live stream can bring the viewer's own comment before the answer to posting it does: the
  // answer (the author's view) then takes its place rather than showing it twice.
  if (findInThread(thread, comment.comment_id)) return replaceInThread(thread, comment);
  if (parentCommentId === null) {
    return [{ ...comment, reply_count: 0, parent_comment_id: null, replies: [] }, ...thread];
  }
  return thread.map((c) =>
    c.comment_id === parentCommentId
      ? {
          ...c,
          replies: [...c.replies, comment],
          // Only visible replies are counted; one waiting for review is shown to its author alone.
          reply_count: c.reply_count + shown(comment),
        }
      : c,
  );
}

/** Visible comments and replies in a list of top-level comments (what the counts count). */
export const countAll = (comments: Comment[]) =>
  comments.reduce((n, c) => n + shown(c) + c.replies.reduce((m, r) => m + shown(r), 0), 0);

/** The `before` cursor in a thread page's `Link: <...?before=N>; rel="next"` header. */
export function nextCursor(link: string | null): number | null {
  const match = /<[^>]*[?&]before=(\d+)[^>]*>\s*;\s*rel="next"/.exec(link ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * The thread with one comment or reply replaced by the server's new view of it (after an edit or a
 * report); a reply's parent counts it only while it is visible.
 */
export function replaceInThread(thread: Comment[], next: Reply): Comment[] {
  return thread.map((c) => {
    if (c.comment_id === next.comment_id) return { ...c, ...next };
    const old = c.replies.find((r) => r.comment_id === next.comment_id);
    if (!old) return c;
    return {
      ...c,
      replies: c.replies.map((r) => (r.comment_id === next.comment_id ? next : r)),
      reply_count: c.reply_count - shown(old) + shown(next),
    };
  });
}

/**
 * The thread after its author deleted a comment, by the rule the API applies (docs/product.md,
 * "Editing and deleting"): a comment with replies stays as "deleted" without its author; one
 * without replies, and any reply, disappears; a deleted comment whose last reply goes disappears too.
 */
export function deleteFromThread(thread: Comment[], commentId: number): Comment[] {
  const result: Comment[] = [];
  for (const c of thread) {
    if (c.comment_id === commentId) {
      if (c.replies.length > 0) {
        result.push({ ...c, status: 'deleted', content: '', author_name: '', author_avatar_url: null });
      }
      continue;
    }
    const gone = c.replies.find((r) => r.comment_id === commentId);
    if (!gone) {
      result.push(c);
      continue;
    }
    const replies = c.replies.filter((r) => r.comment_id !== commentId);
    if (c.status === 'deleted' && replies.length === 0) continue;
    result.push({ ...c, replies, reply_count: c.reply_count - shown(gone) });
  }
  return result;
}

/** Finds a comment or reply in a thread. */
export function findInThread(thread: Comment[], commentId: number): Reply | undefined {
  for (const c of thread) {
    if (c.comment_id === commentId) return c;
    const reply = c.replies.find((r) => r.comment_id === commentId);
    if (reply) return reply;
  }
  return undefined;
}
