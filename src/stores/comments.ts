// A post's comment thread, page by page, shared by everything that shows it. Actions (comment,
// reply, like) change it in place and move the post's comment count with the server's answer.
import { useStore } from '@nanostores/react';
import type { Comment, Reply } from '../../api/contract.ts';
import { api, read, withToken } from '../lib/api.ts';
import { addToThread, nextCursor } from '../lib/thread.ts';
import { getIdToken } from './auth.ts';
import { postStats } from './posts.ts';
import { keyedQuery } from './query.ts';

export interface Thread {
  /** Top-level comments, newest first, each with its replies. */
  comments: Comment[];
  /** The cursor of the next page, or null when every comment is shown. */
  next: number | null;
}

async function loadPage(postId: string, before: number | null): Promise<Thread> {
  const res = await api.blog.posts[':postId'].comments.$get({
    param: { postId },
    query: before === null ? {} : { before: String(before) },
  });
  const next = nextCursor(res.headers.get('Link'));
  return { comments: await read(res), next };
}

export const threads = keyedQuery<Thread>('thread', (postId) => loadPage(postId, null));

/** The live thread, or the one in the static HTML until it has loaded. */
export function useThread(postId: number, initial: Thread) {
  const { data, loading, error } = useStore(threads.store(String(postId)), { ssr: 'initial' });
  return { thread: data ?? initial, refreshing: loading, failed: error !== undefined && !data };
}

/** Loads the next page and adds it under what is shown. */
export async function loadMoreComments(postId: number): Promise<void> {
  const id = String(postId);
  const current = threads.get(id);
  if (!current || current.next === null) return;
  const page = await loadPage(id, current.next);
  const shown = new Set(current.comments.map((c) => c.comment_id));
  threads.set(id, {
    comments: [...current.comments, ...page.comments.filter((c) => !shown.has(c.comment_id))],
    next: page.next,
  });
}

/** Posts a comment or a reply; the thread and every comment count show it at once. */
export async function postComment(
  post: { postId: number; slug: string },
  content: string,
  parentCommentId: number | null,
): Promise<void> {
  const token = await getIdToken();
  if (!token) throw new Error('Authentication required');
  const posted = await read(
    api.blog.posts[':postId'].comments.$post(
      { param: { postId: String(post.postId) }, json: { content: content.trim(), parentCommentId } },
      withToken(token),
    ),
  );
  threads.update(String(post.postId), (thread) => ({
    ...thread,
    comments: addToThread(thread.comments, posted.comment, parentCommentId),
  }));
  postStats.update(post.slug, (stats) => ({ ...stats, commentCount: posted.commentCount }));
}

/** Likes or unlikes a comment or reply; its count comes from the answer. */
export async function likeComment(postId: number, commentId: number): Promise<void> {
  const token = await getIdToken();
  if (!token) throw new Error('Authentication required');
  const { likeCount } = await read(
    api.blog.comments[':commentId'].like.$post({ param: { commentId: String(commentId) } }, withToken(token)),
  );
  const withCount = <C extends Reply>(c: C): C =>
    c.comment_id === commentId ? { ...c, like_count: likeCount } : c;
  threads.update(String(postId), (thread) => ({
    ...thread,
    comments: thread.comments.map((c) => withCount({ ...c, replies: c.replies.map(withCount) })),
  }));
}
