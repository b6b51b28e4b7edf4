import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import {
  COMMENT_SORT_LABELS,
  COMMENT_SORTS,
  type CommentSort,
  isCommentSort,
} from '../../../api/contract/live-threads.ts';
import { newCommentsLabel } from '../../lib/live-thread.ts';
import { $commentSort, chooseCommentSort, initCommentSort } from '../../stores/comment-sort.ts';
import { currentKey, type Post, threads } from '../../stores/comments.ts';
import { $waiting, keepThreadLive, notShown, showWaiting } from '../../stores/live-thread.ts';
import { commentAnchor } from './CommentItem.tsx';
import { focusLater } from './focus.ts';

/**
 * Keeps the thread live once the viewer's thread has loaded (not in demo mode's simulated thread):
 * from the last change its first page shows, while the page is visible. `comments` changes when it
 * loads; one stream per page carries every order's changes, so a new order does not restart it.
 */
function useLiveThread(post: Post, enabled: boolean, comments: unknown): void {
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (!enabled || stop.current) return;
    const event = threads.get(currentKey(post.postId))?.event;
    if (event !== null && event !== undefined) stop.current = keepThreadLive(post, event);
  }, [enabled, comments, post]);
  useEffect(
    () => () => {
      stop.current?.();
      stop.current = null;
    },
    [],
  );
}

interface Props {
  post: Post;
  /** Live updates and the order apply to the real thread, not demo mode's simulated one. */
  live: boolean;
  /** What the thread shows (the stream starts once the viewer's own has loaded). */
  comments: unknown;
}

/**
 * Above the thread: the order it is read in, and "3 new comments — show" when top-level comments
 * have arrived since (they wait, so the page does not move under the reader), announced politely.
 */
export function ThreadControls({ post, live, comments }: Props) {
  const sort = useStore($commentSort);
  const waiting = notShown(
    post.postId,
    useStore($waiting, { keys: [String(post.postId)] })[post.postId] ?? [],
  );
  useEffect(() => {
    if (live) initCommentSort();
  }, [live]);
  useLiveThread(post, live, comments);
  const [showing, setShowing] = useState(false);
  const [failed, setFailed] = useState(false);

  async function show() {
    if (showing) return;
    setShowing(true);
    setFailed(false);
    try {
      const first = await showWaiting(post);
      // Focus goes to the first comment shown, not back to the top of the page.
      if (first !== null) focusLater(commentAnchor(first));
    } catch {
      // They stay waiting, and the button with them.
      setFailed(true);
    } finally {
      setShowing(false);
    }
  }

  return (
    <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
      {live && (
        <label className="text-muted flex items-center gap-2 text-sm">
          Sort by
          <select
            value={sort}
            onChange={(e) => {
              const value = e.target.value;
              if (isCommentSort(value)) chooseCommentSort(value as CommentSort);
            }}
            className="border-sand text-ink rounded-lg border bg-white px-2 py-1.5 text-sm"
          >
            {COMMENT_SORTS.map((s) => (
              <option key={s} value={s}>
                {COMMENT_SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
      )}
      {waiting.length > 0 && (
        <button
          type="button"
          onClick={() => void show()}
          aria-disabled={showing || undefined}
          className="bg-brand-light text-brand-dark hover:bg-brand rounded-full px-4 py-1.5 text-sm font-semibold hover:text-white aria-disabled:cursor-wait aria-disabled:opacity-70"
        >
          {newCommentsLabel(waiting.length)} — show
        </button>
      )}
      {failed && waiting.length > 0 && (
        <p role="alert" className="w-full text-sm text-red-700">
          The new comments could not be loaded. Check your connection and try again.
        </p>
      )}
      <p aria-live="polite" className="sr-only">
        {waiting.length > 0 ? newCommentsLabel(waiting.length) : ''}
      </p>
    </div>
  );
}
