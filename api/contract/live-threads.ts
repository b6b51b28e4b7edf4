// Live threads and their orders: the wire contract (docs/product.md, "Comments"; docs/decisions/
// 026-live-threads.md). The server, the build and the islands all read it; it imports nothing, so
// the comment a change carries is a type parameter the main contract fills in (api/contract.ts's Reply).

/** The orders a thread can be read in; newest first is the default (and the static page's). */
export const COMMENT_SORTS = ['newest', 'oldest', 'best'] as const;
export type CommentSort = (typeof COMMENT_SORTS)[number];
export const DEFAULT_COMMENT_SORT: CommentSort = 'newest';

export function isCommentSort(value: unknown): value is CommentSort {
  return typeof value === 'string' && (COMMENT_SORTS as readonly string[]).includes(value);
}

/** What the sort control says for each order. */
export const COMMENT_SORT_LABELS: Record<CommentSort, string> = {
  newest: 'Newest',
  oldest: 'Oldest',
  best: 'Best',
};

/** localStorage key of the parent's chosen order (kept in this browser). */
export const COMMENT_SORT_STORAGE_KEY = 'nestling:comment-sort';

/**
 * "Best": the lower bound of the 95 % Wilson interval of the share of a comment's readers who
 * liked it. Its readers are the post's views since the day it was posted, counted as at least
 * BEST_MIN_READERS, so a comment nobody has had the time to read is not judged on three readers:
 * one like on a new comment stays below forty on an old one, while a new comment that many of
 * its first readers like rises. Pure, so the server and tests use the same numbers.
 */
export const BEST_MIN_READERS = 100;
const Z = 1.96;

export function bestScore(likes: number, readers: number): number {
  const n = Math.max(readers, likes, BEST_MIN_READERS);
  const p = likes / n;
  const z2 = Z * Z;
  return (p + z2 / (2 * n) - Z * Math.sqrt((p * (1 - p) + z2 / (4 * n)) / n)) / (1 + z2 / n);
}

/** The header of a thread page that names the last change it already shows (a stream resumes after it). */
export const THREAD_EVENT_HEADER = 'X-Thread-Event';

/** Heartbeats keep idle streams (and the proxies between) open: a comment line this often. */
export const STREAM_HEARTBEAT_MS = 15_000;
/** Where a stream is not possible, the page asks for changes this often instead. */
export const THREAD_POLL_MS = 15_000;

/** The most new top-level comments one "show" asks for at once (the rest stay waiting). */
export const NEW_COMMENTS_PER_REQUEST_MAX = 100;

/**
 * One change to a thread, as every reader may see it (an anonymous reader's view; a signed-in
 * reader's page keeps what only they see). `new` says a top-level comment is there for readers
 * and nothing has happened to it yet (visible, no like, reply or edit): pages that do not show it
 * count it under "N new comments — show" and ask for its content when the reader shows it, so a
 * busy thread's stream carries a few bytes a comment, not the comment. `comment` is the comment's
 * state now (later changes of the same comment come as later events); `gone` means readers no
 * longer find it in the thread (deleted without replies, back to review). `commentCount` is the
 * post's count after the change.
 */
export type ThreadChange<R> =
  | { id: number; kind: 'new'; commentId: number; commentCount: number }
  | {
      id: number;
      kind: 'comment';
      comment: R;
      /** Null for a top-level comment. */
      parentCommentId: number | null;
      /** A top-level comment's shown replies; for a reply, its parent's. */
      replyCount: number;
      commentCount: number;
    }
  | { id: number; kind: 'gone'; commentId: number; parentCommentId: number | null; commentCount: number };

/** The answer of the polling fallback: changes after `?after=`, and where to ask from next time. */
export interface ThreadChanges<R> {
  changes: ThreadChange<R>[];
  /** The last change id this answer covers: the next `?after=`. */
  last: number;
  /** True when too much changed to catch up change by change: load the thread afresh. */
  reset: boolean;
}
