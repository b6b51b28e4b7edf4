// A post's comment thread, page by page, shared by everything that shows it. The thread is the
// viewer's own (keyed by post and uid): an author sees their comment awaiting review and why theirs
// was removed, a moderator sees everything. Actions (comment, reply, edit, delete, report, like)
// change it in place and move the post's comment count with the server's answer. In demo mode the
// demo parent's thread and writes are simulated by src/stores/comments-demo.ts instead, behind the
// same functions.
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { Comment, PostStats, ReportCategory, Reply } from '../../api/contract.ts';
import { api, read, withToken } from '../lib/api.ts';
import { addToThread, countAll, deleteFromThread, nextCursor, replaceInThread } from '../lib/thread.ts';
import { $auth, accountName, type AuthState, getIdToken } from './auth.ts';
import {
  $demoThreads,
  dropDemoThread,
  loadDemoThread,
  postDemoComment,
  reportDemoComment,
} from './comments-demo.ts';
import { postStats, usePostStats } from './posts.ts';
import { keyedQuery } from './query.ts';
import { $commentSort } from './comment-sort.ts';
import { type CommentSort, THREAD_EVENT_HEADER } from '../../api/contract/live-threads.ts';

export interface Thread {
  /** Top-level comments, newest first, each with its replies. */
  comments: Comment[];
  /** The cursor of the next page, or null when every comment is shown. */
  next: number | null;
  /** The last thread change the first page shows (the live stream resumes after it); null in the static page. */
  event?: number | null;
}

export type Post = { postId: number; slug: string };

/** `postId|uid|sort` (uid empty for anonymous readers). */
const threadKey = (postId: number | string, uid: string | null, sort: CommentSort = $commentSort.get()) =>
  `${postId}|${uid ?? ''}|${sort}`;

/** The thread of the viewer signed in now, in the order chosen now. */
export const currentKey = (postId: number) => threadKey(postId, $auth.get().user?.uid ?? null);

async function loadPage(key: string, before: number | null): Promise<Thread> {
  const [postId = '', uid = '', sort = 'newest'] = key.split('|');
  const token = uid ? await getIdToken() : null;
  const query = {
    ...(before === null ? {} : { before: String(before) }),
    ...(sort === 'newest' ? {} : { sort: sort as CommentSort }),
  };
  const res = await api.blog.posts[':postId'].comments.$get({ param: { postId }, query }, withToken(token));
  const next = nextCursor(res.headers.get('Link'));
  const event = Number(res.headers.get(THREAD_EVENT_HEADER));
  return { comments: await read(res), next, event: Number.isInteger(event) ? event : null };
}

export const threads = keyedQuery<Thread>('thread', (key) => loadPage(key, null));

/**
 * Demo mode's simulated discussion is the demo parent's alone: in demo mode visitors start signed
 * out and read the real thread.
 */
export function inDemo(auth: Pick<AuthState, 'demoMode' | 'user'> = $auth.get()): boolean {
  return auth.demoMode && auth.user !== null;
}

export interface Discussion {
  /** What the thread shows now: the static page's until the viewer's loads; null while loading. */
  comments: Comment[] | null;
  /** There is a further page to show. */
  hasMore: boolean;
  /** The viewer's thread failed to load (the static one stays). */
  failed: boolean;
  /** The post's comment count, everywhere it is shown. */
  count: number;
}

/**
 * The post's thread as this viewer sees it: the static page's until theirs has loaded (nothing is
 * fetched while sign-in is being checked), or demo mode's simulated one.
 */
export function useDiscussion(
  post: Post,
  initial: { thread: Thread; stats: Omit<PostStats, 'postId'> },
): Discussion {
  // Hydrate with the state the static HTML was rendered with (the stores' initial values).
  const auth = useStore($auth, { ssr: 'initial' });
  const sort = useStore($commentSort);
  const demo = inDemo(auth);
  const uid = auth.loading || demo ? undefined : (auth.user?.uid ?? null);
  const { data, error } = useStore(
    threads.store(uid === undefined ? null : threadKey(post.postId, uid, sort)),
    { ssr: 'initial' },
  );
  const simulated = useStore($demoThreads, { keys: [String(post.postId)] })[post.postId];
  const stats = usePostStats(post.slug, initial.stats);
  useEffect(() => {
    if (!demo) return;
    loadDemoThread(post.postId);
    return () => dropDemoThread(post.postId);
  }, [demo, post.postId]);

  if (demo) {
    return {
      comments: simulated ?? null,
      hasMore: false,
      failed: false,
      count: simulated ? countAll(simulated) : 0,
    };
  }
  // The static page is newest first: another order shows the skeleton until it has loaded.
  const thread = data ?? (sort === 'newest' ? initial.thread : null);
  if (!thread)
    return { comments: null, hasMore: false, failed: error !== undefined, count: stats.commentCount };
  return {
    comments: thread.comments,
    hasMore: thread.next !== null,
    failed: error !== undefined && !data,
    count: stats.commentCount,
  };
}

/** Loads the thread afresh (the Retry after a failed load). */
export function reloadThread(postId: number): void {
  threads.refresh(currentKey(postId));
}

/** Loads the next page and adds it under what is shown. */
export async function loadMoreComments(postId: number): Promise<void> {
  const key = currentKey(postId);
  const current = threads.get(key);
  if (!current || current.next === null) return;
  const page = await loadPage(key, current.next);
  const shown = new Set(current.comments.map((c) => c.comment_id));
  threads.set(key, {
    ...current,
    comments: [...current.comments, ...page.comments.filter((c) => !shown.has(c.comment_id))],
    next: page.next,
  });
}

async function requireToken(): Promise<string> {
  const token = await getIdToken();
  if (!token) throw new Error('Authentication required');
  return token;
}

/** Changes the thread everywhere it is shown, and sets the post's count from the server's answer. */
function apply(post: Post, change: (comments: Comment[]) => Comment[], commentCount?: number): void {
  threads.update(currentKey(post.postId), (thread) => ({ ...thread, comments: change(thread.comments) }));
  if (commentCount === undefined) postStats.refresh(post.slug);
  else postStats.update(post.slug, (stats) => ({ ...stats, commentCount }));
}

/**
 * Posts a comment or a reply; the thread and every comment count show it at once. Returns it as
 * its author sees it (`pending` while it waits for review, and then it is not counted).
 */
export async function postComment(
  post: Post,
  content: string,
  parentCommentId: number | null,
): Promise<Reply> {
  if (inDemo()) return postDemoComment(post.postId, content, parentCommentId, accountName($auth.get()));
  const posted = await read(
    api.blog.posts[':postId'].comments.$post(
      { param: { postId: String(post.postId) }, json: { content: content.trim(), parentCommentId } },
      withToken(await requireToken()),
    ),
  );
  apply(post, (comments) => addToThread(comments, posted.comment, parentCommentId), posted.commentCount);
  return posted.comment;
}

/** The author's edit (within the edit window); returns the comment as it now stands. */
export async function editComment(post: Post, commentId: number, content: string): Promise<Reply> {
  const edited = await read(
    api.blog.comments[':commentId'].$patch(
      { param: { commentId: String(commentId) }, json: { content: content.trim() } },
      withToken(await requireToken()),
    ),
  );
  apply(post, (comments) => replaceInThread(comments, edited.comment), edited.commentCount);
  return edited.comment;
}

/**
 * Deletes the viewer's own comment, or (a moderator, with a reason) removes someone else's. The
 * answer carries no count, so the post's numbers are loaded afresh.
 */
export async function deleteComment(post: Post, comment: Reply, reason: string | null): Promise<void> {
  await read(
    api.blog.comments[':commentId'].$delete(
      { param: { commentId: String(comment.comment_id) }, json: { reason } },
      withToken(await requireToken()),
    ),
  );
  apply(post, (comments) =>
    comment.is_own
      ? deleteFromThread(comments, comment.comment_id)
      : replaceInThread(comments, { ...comment, status: 'removed', status_reason: reason }),
  );
}

/** Reports a comment; a report that hides it hides it here at once, and the counts follow. */
export async function reportComment(
  post: Post,
  comment: Reply,
  report: { category: ReportCategory; note: string | null },
): Promise<Reply> {
  if (inDemo()) return reportDemoComment(comment);
  const filed = await read(
    api.blog.comments[':commentId'].reports.$post(
      { param: { commentId: String(comment.comment_id) }, json: report },
      withToken(await requireToken()),
    ),
  );
  apply(post, (comments) => replaceInThread(comments, filed.comment), filed.commentCount);
  return filed.comment;
}

/** Likes or unlikes a comment or reply; its count comes from the answer. */
export async function likeComment(postId: number, commentId: number): Promise<void> {
  // Demo mode's comments take no likes (they show their counts only).
  if (inDemo()) return;
  const { likeCount } = await read(
    api.blog.comments[':commentId'].like.$post(
      { param: { commentId: String(commentId) } },
      withToken(await requireToken()),
    ),
  );
  const withCount = <C extends Reply>(c: C): C =>
    c.comment_id === commentId ? { ...c, like_count: likeCount } : c;
  threads.update(currentKey(postId), (thread) => ({
    ...thread,
    comments: thread.comments.map((c) => withCount({ ...c, replies: c.replies.map(withCount) })),
  }));
}
