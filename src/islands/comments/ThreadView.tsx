import { useStore } from '@nanostores/react';
import { type ReactNode, useMemo } from 'react';
import type { Comment } from '../../../api/contract.ts';
import { ShowMore, useShowMore } from '../../components/ShowMore.tsx';
import { loadMoreComments, reloadThread } from '../../stores/comments.ts';
import { type CommentActions, CommentItem } from './CommentItem.tsx';
import { LOAD_FAILED } from './messages.ts';
import { ThreadControls } from './ThreadControls.tsx';
import { $fresh } from '../../stores/live-thread.ts';

interface Props {
  postId: number;
  slug: string;
  /** null while the thread loads. */
  comments: Comment[] | null;
  hasMore: boolean;
  failed: boolean;
  actions: CommentActions;
  /** The open reply box (under the comment it answers) and edit box, if any. */
  replyBox?: ReactNode;
  editBox?: ReactNode;
}

/** The thread: a loading skeleton, "No comments yet", or the comments and Show more. */
export function ThreadView({ postId, slug, comments, hasMore, failed, actions, replyBox, editBox }: Props) {
  // Comments shown since the page loaded are marked "New".
  const fresh = useStore($fresh);
  const shownActions = { ...actions, fresh };
  const post = useMemo(() => ({ postId, slug }), [postId, slug]);
  const more = useShowMore(
    () => loadMoreComments(postId),
    (error) => console.error('Failed to load more comments', error),
  );
  return (
    <div className="mt-4" aria-busy={comments === null || undefined}>
      <ThreadControls post={post} live={!actions.demoMode} comments={comments} />
      {failed && (
        <div role="alert" className="rounded-lg bg-red-50 p-4 text-red-800">
          <p>{LOAD_FAILED}</p>
          <button
            type="button"
            onClick={() => reloadThread(postId)}
            className="mt-2 rounded-lg border border-red-800 px-3 py-1.5 text-sm font-semibold hover:bg-red-100"
          >
            Retry
          </button>
        </div>
      )}
      {comments === null ? (
        <div className="animate-pulse space-y-6 py-5">
          <span className="sr-only">Loading comments…</span>
          {[0, 1].map((i) => (
            <div key={i} className="flex gap-3">
              <div className="bg-sand h-10 w-10 rounded-full" />
              <div className="flex-1 space-y-2">
                <div className="bg-sand h-4 w-1/3 rounded" />
                <div className="bg-sand h-4 w-full rounded" />
                <div className="bg-sand h-4 w-2/3 rounded" />
              </div>
            </div>
          ))}
        </div>
      ) : comments.length === 0 ? (
        <p className="text-muted py-8 text-center">No comments yet. Be the first to share your thoughts!</p>
      ) : (
        <ul aria-label="Comments" className="divide-sand divide-y">
          {comments.map((comment) => (
            <CommentItem
              key={comment.comment_id}
              comment={comment}
              actions={shownActions}
              replyBox={comment.comment_id === actions.replyingTo ? replyBox : undefined}
              editBox={editBox}
            />
          ))}
        </ul>
      )}
      {hasMore && (
        <ShowMore
          state={more.state}
          onClick={more.run}
          label="Show more comments"
          loadingLabel="Loading more comments…"
          failure={`${LOAD_FAILED}. Please try again.`}
        />
      )}
    </div>
  );
}
