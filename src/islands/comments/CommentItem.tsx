import { formatDistanceToNow } from 'date-fns';
import type { ReactNode } from 'react';
import type { Comment, Reply } from '../../../api/contract.ts';
import { demoRole } from '../../lib/demo-comments.ts';
import { Avatar } from './Avatar.tsx';
import { HeartIcon, ReplyIcon, ShieldIcon, StarBadgeIcon } from '../../components/icons.tsx';

/** 'Comment like' and 'Reply' as the viewer may use them. */
export interface CommentActions {
  /** Signed in and not in demo mode: the like button; otherwise the count only. */
  canLike: boolean;
  likingId: number | null;
  onLike: (commentId: number) => void;
  /** Signed in: top-level comments offer Reply. */
  canReply: boolean;
  replyingTo: number | null;
  onReply: (commentId: number) => void;
  /** Demo mode shows the role an author's name implies (spec §6). */
  demoMode: boolean;
}

interface Props {
  comment: Comment | Reply;
  actions: CommentActions;
  /** The reply box, rendered under this comment when it is open. */
  replyBox?: ReactNode;
}

export function replyButtonId(commentId: number): string {
  return `reply-button-${commentId}`;
}

function isTopLevel(comment: Comment | Reply): comment is Comment {
  return 'replies' in comment;
}

function RoleMark({ name }: { name: string }) {
  const role = demoRole(name);
  if (role === 'admin') {
    return (
      <span className="inline-flex items-center gap-0.5 text-xs font-medium text-purple-800" title="Admin">
        <ShieldIcon className="h-4 w-4" />
        <span className="sr-only">Admin</span>
      </span>
    );
  }
  if (role === 'moderator') {
    return (
      <span className="inline-flex items-center gap-0.5 text-xs font-medium text-blue-800" title="Moderator">
        <StarBadgeIcon className="h-4 w-4" />
        <span className="sr-only">Moderator</span>
      </span>
    );
  }
  return null;
}

function formatTime(iso: string): { relative: string; absolute: string } | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return {
    relative: formatDistanceToNow(date, { addSuffix: true }),
    absolute: date.toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' }),
  };
}

/** One comment (or reply) with its likes, its Reply button and, for a top-level one, its replies. */
export function CommentItem({ comment, actions, replyBox }: Props) {
  const topLevel = isTopLevel(comment);
  const time = formatTime(comment.created_at);
  const likes = `${comment.like_count} ${comment.like_count === 1 ? 'like' : 'likes'}`;
  const liking = actions.likingId === comment.comment_id;
  const replyOpen = actions.replyingTo === comment.comment_id;
  return (
    <li className={topLevel ? 'py-5' : 'pt-4'}>
      <article
        aria-label={`${topLevel ? 'Comment' : 'Reply'} by ${comment.author_name}`}
        className="flex gap-3"
      >
        <Avatar
          name={comment.author_name}
          photoUrl={comment.author_avatar_url}
          size={topLevel ? 'md' : 'sm'}
        />
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-sm">
            <span className="text-ink font-semibold">{comment.author_name}</span>
            {actions.demoMode && <RoleMark name={comment.author_name} />}
            {time && (
              <time dateTime={comment.created_at} title={time.absolute} className="text-muted">
                {time.relative}
              </time>
            )}
          </p>
          <p className="text-ink mt-1 break-words whitespace-pre-line">{comment.content}</p>
          <div className="text-muted mt-2 flex items-center gap-4 text-sm">
            {actions.canLike ? (
              <button
                type="button"
                onClick={() => {
                  if (!liking) actions.onLike(comment.comment_id);
                }}
                aria-disabled={liking || undefined}
                aria-label={`Like ${topLevel ? 'comment' : 'reply'} by ${comment.author_name}, ${likes}`}
                className="hover:bg-accent-light hover:text-accent inline-flex items-center gap-1 rounded-md px-1.5 py-1 aria-disabled:cursor-wait aria-disabled:opacity-70"
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
            )}
            {topLevel && actions.canReply && (
              <button
                type="button"
                id={replyButtonId(comment.comment_id)}
                onClick={() => actions.onReply(comment.comment_id)}
                aria-expanded={replyOpen}
                aria-label={`Reply to ${comment.author_name}`}
                className="hover:bg-brand-light hover:text-brand-dark inline-flex items-center gap-1 rounded-md px-1.5 py-1 font-medium"
              >
                <ReplyIcon className="h-4 w-4" />
                Reply
              </button>
            )}
          </div>
          {replyOpen && actions.canReply && replyBox && <div className="mt-3">{replyBox}</div>}
          {topLevel && comment.replies.length > 0 && (
            <ul aria-label={`Replies to ${comment.author_name}`} className="border-sand mt-1 border-l-2 pl-4">
              {comment.replies.map((reply) => (
                <CommentItem key={reply.comment_id} comment={reply} actions={actions} />
              ))}
            </ul>
          )}
        </div>
      </article>
    </li>
  );
}
