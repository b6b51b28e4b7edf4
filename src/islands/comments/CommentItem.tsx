import type { ReactNode } from 'react';
import type { Comment, Reply } from '../../../api/contract.ts';
import { useTimeLabels } from '../../lib/time.ts';
import { Avatar } from './Avatar.tsx';
import { HeartIcon, ReplyIcon } from '../../components/icons.tsx';
import { RoleMark } from './RoleMark.tsx';
import { AWAITING_REVIEW, DELETED_PLACEHOLDER, HELD_PLACEHOLDER, REMOVED_PLACEHOLDER } from './messages.ts';

/** What the viewer may do with a comment, and the handlers. */
export interface CommentActions {
  /** Signed in and not in demo mode: the like button; otherwise the count only. */
  canLike: boolean;
  likingId: number | null;
  onLike: (commentId: number) => void;
  /** Signed in: top-level comments offer Reply. */
  canReply: boolean;
  replyingTo: number | null;
  onReply: (commentId: number) => void;
  /** Report (signed-out readers are asked to sign in instead). */
  onReport: (comment: Reply) => void;
  /** The author's Edit, while the edit window lasts (`now` decides). */
  editingId: number | null;
  onEdit: (comment: Reply) => void;
  /** The author's Delete; a moderator's Remove of someone else's comment. */
  onDelete: (comment: Reply) => void;
  moderator: boolean;
  now: number;
  /** Demo mode shows the role an author's name implies (docs/product.md). */
  demoMode: boolean;
  /** Comments that arrived live since the page loaded, marked "New". */
  fresh?: ReadonlySet<number>;
}

interface Props {
  comment: Comment | Reply;
  actions: CommentActions;
  /** The reply box, rendered under this comment when it is open. */
  replyBox?: ReactNode;
  /** The edit box, rendered in place of the text of the comment being edited (actions.editingId). */
  editBox?: ReactNode;
}

export function replyButtonId(commentId: number): string {
  return `reply-button-${commentId}`;
}

export function editButtonId(commentId: number): string {
  return `edit-button-${commentId}`;
}

/** The anchor of a comment in its post page (the console links to it). */
export function commentAnchor(commentId: number): string {
  return `comment-${commentId}`;
}

function isTopLevel(comment: Comment | Reply): comment is Comment {
  return 'replies' in comment;
}

const PLACEHOLDERS = { held: HELD_PLACEHOLDER, removed: REMOVED_PLACEHOLDER, deleted: DELETED_PLACEHOLDER };

/** Why there is no text: a placeholder, with the removal reason for its author (and moderators). */
function Placeholder({ comment, moderator }: { comment: Reply; moderator: boolean }) {
  if (comment.status === 'visible' || comment.status === 'pending') return null;
  return (
    <div className="text-muted mt-1 text-sm">
      <p className="italic">{PLACEHOLDERS[comment.status]}</p>
      {comment.status_reason && (comment.status === 'removed' || moderator) && (
        <p className="mt-0.5">
          {comment.status === 'removed' ? 'Reason' : 'Why'}: {comment.status_reason}
        </p>
      )}
    </div>
  );
}

const action =
  'inline-flex items-center gap-1 rounded-md px-1.5 py-1 font-medium aria-disabled:cursor-wait aria-disabled:opacity-70';

/**
 * One comment (or reply): its text or the placeholder that stands in for it, its likes, Reply,
 * Report, the author's Edit and Delete, a moderator's Remove and, for a top-level one, its replies.
 */
export function CommentItem({ comment, actions, replyBox, editBox }: Props) {
  const topLevel = isTopLevel(comment);
  const kind = topLevel ? 'comment' : 'reply';
  const time = useTimeLabels(comment.created_at);
  const edited = useTimeLabels(comment.edited_at);
  const likes = `${comment.like_count} ${comment.like_count === 1 ? 'like' : 'likes'}`;
  const liking = actions.likingId === comment.comment_id;
  const replyOpen = actions.replyingTo === comment.comment_id;
  const visible = comment.status === 'visible';
  const deleted = comment.status === 'deleted';
  const name = comment.author_name || 'A parent';
  const label = deleted
    ? `Deleted ${kind}`
    : `${topLevel ? 'Comment' : 'Reply'} by ${name}${comment.status === 'pending' ? `, ${AWAITING_REVIEW.toLowerCase()}` : ''}`;
  const canEdit =
    comment.is_own && comment.can_edit_until !== null && Date.parse(comment.can_edit_until) > actions.now;
  const canDelete = comment.is_own ? !deleted : actions.moderator && comment.status !== 'removed' && !deleted;
  const editing = actions.editingId === comment.comment_id && editBox;
  return (
    <li className={topLevel ? 'py-5' : 'pt-4'}>
      <article
        id={commentAnchor(comment.comment_id)}
        aria-label={label}
        tabIndex={-1}
        className="flex scroll-mt-24 gap-3 focus:outline-none"
      >
        {deleted ? (
          <span
            aria-hidden="true"
            className={`bg-sand shrink-0 rounded-full ${topLevel ? 'h-10 w-10' : 'h-8 w-8'}`}
          />
        ) : (
          <Avatar name={name} photoUrl={comment.author_avatar_url} size={topLevel ? 'md' : 'sm'} />
        )}
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-sm">
            {!deleted && <span className="text-ink font-semibold">{name}</span>}
            {actions.demoMode && <RoleMark name={name} />}
            {time && (
              <time dateTime={comment.created_at} title={time.absolute} className="text-muted">
                {time.relative}
              </time>
            )}
            {edited && visible && (
              <time dateTime={comment.edited_at!} title={`Edited ${edited.absolute}`} className="text-muted">
                (edited<span className="sr-only"> {edited.relative}</span>)
              </time>
            )}
            {actions.fresh?.has(comment.comment_id) && (
              <span className="bg-brand-light text-brand-dark rounded-full px-2 py-0.5 text-xs font-semibold">
                New
              </span>
            )}
            {comment.status === 'pending' && (
              <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                {AWAITING_REVIEW}
              </span>
            )}
          </p>
          <Placeholder comment={comment} moderator={actions.moderator} />
          {editing ? (
            <div className="mt-2">{editBox}</div>
          ) : (
            comment.content &&
            (visible || comment.status === 'pending' ? (
              <p className="text-ink mt-1 break-words whitespace-pre-line">{comment.content}</p>
            ) : (
              <div className="border-sand mt-1 border-l-4 pl-3 text-sm">
                <p className="text-muted text-xs font-semibold">Only moderators see this text:</p>
                <p className="text-ink break-words whitespace-pre-line">{comment.content}</p>
              </div>
            ))
          )}
          {comment.status === 'pending' && comment.is_own && (
            <p className="mt-1 text-sm text-amber-900">
              Only you can see this until a moderator approves it.
            </p>
          )}
          <div className="text-muted mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            {visible &&
              (actions.canLike ? (
                <button
                  type="button"
                  onClick={() => {
                    if (!liking) actions.onLike(comment.comment_id);
                  }}
                  aria-disabled={liking || undefined}
                  aria-label={`Like ${kind} by ${name}, ${likes}`}
                  className={`${action} hover:bg-accent-light hover:text-accent font-normal`}
                >
                  <HeartIcon className="h-4 w-4" />
                  <span>{comment.like_count}</span>
                </button>
              ) : (
                <span className="inline-flex items-center gap-1 px-1.5 py-1">
                  <HeartIcon className="h-4 w-4" />
                  <span className="sr-only">{likes}</span>
                  <span aria-hidden="true">{comment.like_count}</span>
                </span>
              ))}
            {topLevel && visible && actions.canReply && (
              <button
                type="button"
                id={replyButtonId(comment.comment_id)}
                onClick={() => actions.onReply(comment.comment_id)}
                aria-expanded={replyOpen}
                aria-label={`Reply to ${name}`}
                className={`${action} hover:bg-brand-light hover:text-brand-dark`}
              >
                <ReplyIcon className="h-4 w-4" />
                Reply
              </button>
            )}
            {canEdit && !editing && (
              <button
                type="button"
                id={editButtonId(comment.comment_id)}
                onClick={() => actions.onEdit(comment)}
                aria-label={`Edit your ${kind}`}
                className={`${action} hover:bg-brand-light hover:text-brand-dark`}
              >
                Edit
              </button>
            )}
            {canDelete && (
              <button
                type="button"
                onClick={() => actions.onDelete(comment)}
                aria-label={comment.is_own ? `Delete your ${kind}` : `Remove ${kind} by ${name}`}
                className={`${action} hover:bg-red-50 hover:text-red-800`}
              >
                {comment.is_own ? 'Delete' : 'Remove'}
              </button>
            )}
            {visible && !comment.is_own && (
              <button
                type="button"
                onClick={() => actions.onReport(comment)}
                aria-label={`Report ${kind} by ${name}`}
                aria-haspopup="dialog"
                className={`${action} hover:bg-sand hover:text-ink ml-auto`}
              >
                Report
              </button>
            )}
          </div>
          {replyOpen && actions.canReply && replyBox && <div className="mt-3">{replyBox}</div>}
          {topLevel && comment.replies.length > 0 && (
            <ul
              aria-label={`Replies to ${deleted ? 'a deleted comment' : name}`}
              className="border-sand mt-1 border-l-2 pl-4"
            >
              {comment.replies.map((reply) => (
                <CommentItem key={reply.comment_id} comment={reply} actions={actions} editBox={editBox} />
              ))}
            </ul>
          )}
        </div>
      </article>
    </li>
  );
}
