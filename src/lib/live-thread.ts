// How a thread on the page takes a change from its live stream (docs/decisions/026-live-threads.md):
// pure, so the rules are unit-tested. A change is the comment as every reader sees it; the viewer's
// page keeps what only they see (their own comment's edit window, a moderator's view), and asks for
// the thread afresh when a change touches what only they see.
import type { Comment, Reply } from '../../api/contract.ts';
import type { ThreadChange } from '../../api/contract/live-threads.ts';
import { deleteFromThread, findInThread } from './thread.ts';

export interface Applied {
  comments: Comment[];
  /**
   * A top-level comment the page does not show: its id waits behind "N new comments — show" (its
   * content is asked for when the reader shows it), so the page does not move under the reader.
   */
  waiting: number | null;
  /** Replies shown now for the first time (marked new). */
  added: number[];
  /** The viewer sees more of this comment than readers do: load the thread afresh instead. */
  reload: boolean;
}

const unchanged = (comments: Comment[]): Applied => ({ comments, waiting: null, added: [], reload: false });

/** The comment on the page with a change's news: what readers see, and what only the viewer sees kept. */
function merged<C extends Reply>(existing: C, incoming: Reply, moderator: boolean): C {
  const shown = incoming.status === 'visible';
  return {
    ...existing,
    like_count: incoming.like_count,
    status: incoming.status,
    edited_at: incoming.edited_at,
    content: shown ? incoming.content : moderator ? existing.content : '',
    author_name: moderator ? existing.author_name : incoming.author_name,
    author_avatar_url: moderator ? existing.author_avatar_url : incoming.author_avatar_url,
  };
}

/** The comment a change is about. */
export const changedId = (change: ThreadChange<Reply>) =>
  change.kind === 'comment' ? change.comment.comment_id : change.commentId;

export function applyChange(thread: Comment[], change: ThreadChange<Reply>, moderator: boolean): Applied {
  const id = changedId(change);
  const existing = findInThread(thread, id);
  // Their own comment, or a moderator's page: the viewer's view of a status is not readers'.
  const ownView = existing !== undefined && (existing.is_own || moderator);
  if (change.kind === 'gone') {
    if (!existing) return unchanged(thread);
    if (ownView) return { ...unchanged(thread), reload: true };
    return unchanged(deleteFromThread(thread, id));
  }
  if (change.kind === 'new') {
    if (!existing) return { ...unchanged(thread), waiting: id };
    // Shown already (the viewer's own, say): readers see it visible with no like. One the page
    // shows otherwise (a placeholder since restored, one awaiting review) loads afresh.
    if (existing.status !== 'visible') return { ...unchanged(thread), reload: true };
    if (existing.like_count === 0) return unchanged(thread);
    return unchanged(thread.map((c) => (c.comment_id === id ? { ...c, like_count: 0 } : c)));
  }
  const incoming = change.comment;
  if (existing) {
    if (ownView && existing.status !== incoming.status) return { ...unchanged(thread), reload: true };
    return unchanged(
      thread.map((c) => {
        if (c.comment_id === id) return { ...merged(c, incoming, moderator), reply_count: change.replyCount };
        if (c.comment_id !== change.parentCommentId) return c;
        return {
          ...c,
          reply_count: change.replyCount,
          replies: c.replies.map((r) => (r.comment_id === id ? merged(r, incoming, moderator) : r)),
        };
      }),
    );
  }
  // A placeholder of a comment this page never showed adds nothing.
  if (incoming.status !== 'visible') return unchanged(thread);
  if (change.parentCommentId === null) {
    // One written after the newest the page shows is new (liked before it was announced, say); a
    // like on an older one the reader has not paged to is not news.
    const newest = thread.reduce((at, c) => (c.created_at > at ? c.created_at : at), '');
    return incoming.created_at > newest ? { ...unchanged(thread), waiting: id } : unchanged(thread);
  }
  // A reply appears under its parent (and nowhere when its parent is not on the page).
  if (!thread.some((c) => c.comment_id === change.parentCommentId)) return unchanged(thread);
  return {
    comments: thread.map((c) =>
      c.comment_id === change.parentCommentId
        ? { ...c, reply_count: change.replyCount, replies: [...c.replies, incoming] }
        : c,
    ),
    waiting: null,
    added: [id],
    reload: false,
  };
}

/**
 * Whether a change concerns a waiting comment (it, or a reply under it). Only its leaving matters:
 * the rest is in what the page gets when the reader shows it.
 */
export function touchesWaiting(waiting: readonly number[], change: ThreadChange<Reply>): boolean {
  if (waiting.includes(changedId(change))) return true;
  return (
    change.kind === 'comment' && change.parentCommentId !== null && waiting.includes(change.parentCommentId)
  );
}

/** New top-level comments waiting to be shown, after a change that touches them: one that left goes. */
export function applyToWaiting(waiting: number[], change: ThreadChange<Reply>): number[] {
  const id = changedId(change);
  const leaves = change.kind === 'gone' || (change.kind === 'comment' && change.comment.status !== 'visible');
  return leaves ? waiting.filter((w) => w !== id) : waiting;
}

/** "3 new comments" (what the button and the announcement say). */
export const newCommentsLabel = (n: number) => `${n} new ${n === 1 ? 'comment' : 'comments'}`;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
const isId = (value: unknown) => Number.isInteger(value);

/**
 * Whether a stream's message is a thread change (the stream's events are not typed by the API
 * client, as its answers are): the fields the thread reads to place it. Anything else is not applied.
 */
export function isThreadChange(value: unknown): value is ThreadChange<Reply> {
  if (!isRecord(value) || !isId(value.id) || !isId(value.commentCount)) return false;
  if (value.kind === 'new') return isId(value.commentId);
  if (value.parentCommentId !== null && !isId(value.parentCommentId)) return false;
  if (value.kind === 'gone') return isId(value.commentId);
  return (
    value.kind === 'comment' &&
    isId(value.replyCount) &&
    isRecord(value.comment) &&
    isId(value.comment.comment_id)
  );
}
