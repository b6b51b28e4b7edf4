// A post's thread kept live while the page is read (docs/product.md, "Comments";
// docs/decisions/026-live-threads.md): one Server-Sent Events stream per open page, started after
// the thread has loaded and only while the page is visible (closed when hidden, resumed after the
// last change seen when visible again), or, where a stream is not possible, a question every
// THREAD_POLL_MS. Replies and updates apply at once; new top-level comments wait to be shown, and
// their content is asked for when the reader shows them.
import { atom, map } from 'nanostores';
import { canModerate, type Reply } from '../../api/contract.ts';
import {
  NEW_COMMENTS_PER_REQUEST_MAX,
  THREAD_POLL_MS,
  type ThreadChange,
} from '../../api/contract/live-threads.ts';
import { api, ApiError, read, withToken } from '../lib/api.ts';
import { applyChange, applyToWaiting, isThreadChange, touchesWaiting } from '../lib/live-thread.ts';
import { $auth, getIdToken } from './auth.ts';
import { $commentSort } from './comment-sort.ts';
import { currentKey, type Post, threads } from './comments.ts';
import { postStats } from './posts.ts';

/** New top-level comments not shown yet (their ids), by post id, oldest first. */
export const $waiting = map<Record<string, number[]>>({});
/** Comments and replies shown since the page loaded that the reader has not seen before ("New"). */
export const $fresh = atom<ReadonlySet<number>>(new Set());

const markFresh = (ids: number[]) => {
  if (ids.length > 0) $fresh.set(new Set([...$fresh.get(), ...ids]));
};

/** Changes that came while the viewer's thread was loading (a sign-in, another order): applied once it has. */
const pending = new Map<number, ThreadChange<Reply>[]>();
let retry: ReturnType<typeof setTimeout> | undefined;

function applyPending(post: Post, tries: number) {
  retry = undefined;
  if (!threads.get(currentKey(post.postId))) {
    // Never loaded (it failed): the Retry loads the thread with these changes in it.
    if (tries > 0) retry = setTimeout(() => applyPending(post, tries - 1), 250);
    else pending.delete(post.postId);
    return;
  }
  const changes = pending.get(post.postId) ?? [];
  pending.delete(post.postId);
  for (const change of changes) receive(post, change);
}

/** One change from the stream, into the thread, the waiting comments and the post's count. */
export function receive(post: Post, change: ThreadChange<Reply>): void {
  postStats.update(post.slug, (stats) => ({ ...stats, commentCount: change.commentCount }));
  const key = currentKey(post.postId);
  const thread = threads.get(key);
  if (!thread) {
    // Applying a change twice changes nothing, so the thread that loads may already have it.
    pending.set(post.postId, [...(pending.get(post.postId) ?? []), change]);
    retry ??= setTimeout(() => applyPending(post, 40), 250);
    return;
  }
  const waiting = $waiting.get()[post.postId] ?? [];
  if (touchesWaiting(waiting, change)) {
    $waiting.setKey(String(post.postId), applyToWaiting(waiting, change));
    return;
  }
  const applied = applyChange(thread.comments, change, canModerate($auth.get().profile?.role));
  if (applied.reload) return threads.refresh(key);
  if (applied.comments !== thread.comments)
    threads.update(key, (t) => ({ ...t, comments: applied.comments }));
  if (applied.waiting !== null) $waiting.setKey(String(post.postId), [...waiting, applied.waiting]);
  markFresh(applied.added);
}

/**
 * The waiting comments the thread does not show already: the viewer's own comment can come by the
 * stream before the answer to posting it puts it in the thread.
 */
export function notShown(postId: number, waiting: number[]): number[] {
  const have = new Set(threads.get(currentKey(postId))?.comments.map((c) => c.comment_id));
  return waiting.filter((id) => !have.has(id));
}

/**
 * Shows the waiting comments where the order puts them: first (newest, best), or last when the
 * reader has every page of an oldest-first thread (else a later page brings them). Their content
 * is asked for now, as the viewer sees them (the newest NEW_COMMENTS_PER_REQUEST_MAX at a time);
 * one removed meanwhile is not shown. Returns the id of the first one shown, for focus; a failed
 * answer throws and leaves them waiting.
 */
export async function showWaiting(post: Post): Promise<number | null> {
  const key = currentKey(post.postId);
  const thread = threads.get(key);
  const waiting = notShown(post.postId, $waiting.get()[post.postId] ?? []);
  const oldest = $commentSort.get() === 'oldest';
  if (!thread || waiting.length === 0 || (oldest && thread.next !== null)) {
    $waiting.setKey(String(post.postId), []);
    return null;
  }
  const asked = waiting.slice(-NEW_COMMENTS_PER_REQUEST_MAX);
  const token = $auth.get().user ? await getIdToken() : null;
  const answer = await read(
    api.blog.posts[':postId'].comments['by-id'].$get(
      { param: { postId: String(post.postId) }, query: { ids: asked.join(',') } },
      withToken(token),
    ),
  );
  $waiting.setKey(
    String(post.postId),
    ($waiting.get()[post.postId] ?? []).filter((id) => !asked.includes(id)),
  );
  // The reader signed in or out, or chose another order, meanwhile: that thread loads with them.
  if (currentKey(post.postId) !== key) return null;
  const have = new Set(threads.get(key)?.comments.map((c) => c.comment_id));
  // Newest first, as the answer has them.
  const shown = answer.filter((c) => !have.has(c.comment_id));
  if (shown.length === 0) return null;
  if (oldest) {
    shown.reverse();
    threads.update(key, (t) => ({ ...t, comments: [...t.comments, ...shown] }));
  } else {
    threads.update(key, (t) => ({ ...t, comments: [...shown, ...t.comments] }));
  }
  markFresh(shown.flatMap((c) => [c.comment_id, ...c.replies.map((r) => r.comment_id)]));
  return shown[0]?.comment_id ?? null;
}

/** Keeps one post's thread live from change `after` on; returns the function that stops it. */
export function keepThreadLive(post: Post, after: number): () => void {
  const streamUrl = `/api/blog/posts/${post.postId}/comments/stream`;
  let last = after;
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const reload = () => threads.refresh(currentKey(post.postId));
  const seen = (event: MessageEvent) => {
    const id = Number(event.lastEventId);
    if (Number.isInteger(id) && id > last) last = id;
  };

  function poll() {
    timer = setTimeout(async () => {
      try {
        const answer = await read(
          api.blog.posts[':postId'].comments.changes.$get({
            param: { postId: String(post.postId) },
            query: { after: String(last) },
          }),
        );
        if (answer.reset) reload();
        else for (const change of answer.changes) receive(post, change);
        last = Math.max(last, answer.last);
      } catch (error) {
        // No such post any more: nothing to keep live. Otherwise (offline for a moment, no live
        // updates on this instance) the next question catches up.
        if (error instanceof ApiError && error.status === 404) return;
      }
      if (!stopped && !document.hidden) poll();
    }, THREAD_POLL_MS);
  }

  function open() {
    if (stopped || source || timer !== undefined) return;
    if (typeof EventSource === 'undefined') return poll();
    const stream = new EventSource(`${streamUrl}?after=${last}`);
    source = stream;
    stream.addEventListener('change', (event: MessageEvent<string>) => {
      seen(event);
      const change: unknown = JSON.parse(event.data);
      // Not one this page understands (an older page, a newer server): load the thread afresh.
      if (isThreadChange(change)) receive(post, change);
      else reload();
    });
    stream.addEventListener('reset', (event) => {
      seen(event);
      reload();
    });
    stream.addEventListener('ready', seen);
    // The browser reconnects by itself (with the last id); a refusal closes the stream: ask instead.
    stream.onerror = () => {
      if (stream.readyState !== EventSource.CLOSED) return;
      source = null;
      poll();
    };
  }

  function close() {
    source?.close();
    source = null;
    clearTimeout(timer);
    timer = undefined;
  }

  const onVisibility = () => (document.hidden ? close() : open());
  document.addEventListener('visibilitychange', onVisibility);
  if (!document.hidden) open();
  return () => {
    stopped = true;
    close();
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
