// Pieces of the moderation console: a moderated comment, a report group and a comment awaiting
// review (the suspension dialog is in SuspendDialog.tsx).
import { type ModeratedComment, REPORT_CATEGORY_LABELS, type ReportGroup } from '../../../api/contract.ts';
import { dueLabel, formatDate, formatDateTime, useClock, useTimeLabels } from '../../lib/time.ts';

export function When({ iso, prefix = '' }: { iso: string | null; prefix?: string }) {
  const labels = useTimeLabels(iso);
  if (!iso || !labels) return <span>—</span>;
  return (
    <time dateTime={iso} title={labels.absolute}>
      {prefix}
      {labels.relative}
    </time>
  );
}

const STATUS_LABELS: Record<ModeratedComment['status'], string> = {
  visible: 'Shown',
  held: 'Hidden for review',
  pending: 'Awaiting review',
  removed: 'Removed',
  deleted: 'Deleted by its author',
};

const badge = 'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What else the console knows of the author: a suspension, other open reports, past removals. */
function Standing({ comment }: { comment: ModeratedComment }) {
  const standing = comment.authorStanding;
  if (!standing) return null;
  const name = comment.authorName || 'The author';
  const { suspension, otherOpenReports, removedComments } = standing;
  return (
    <ul aria-label={`About ${name}`} className="mt-2 flex flex-wrap gap-2 text-sm">
      {suspension && (
        <li className={`${badge} bg-red-100 text-red-900`}>
          Suspended{' '}
          {suspension.until ? `until ${formatDateTime(suspension.until)}` : 'until a moderator lifts it'}
        </li>
      )}
      <li
        className={`${badge} ${otherOpenReports ? 'bg-amber-100 text-amber-950' : 'bg-gray-100 text-gray-800'}`}
      >
        {plural(otherOpenReports, 'other open report', 'other open reports')}
      </li>
      <li
        className={`${badge} ${removedComments ? 'bg-amber-100 text-amber-950' : 'bg-gray-100 text-gray-800'}`}
      >
        {plural(removedComments, 'comment removed before', 'comments removed before')}
      </li>
    </ul>
  );
}

/** The comment under review: who wrote it where and when, its status and its words. */
export function ModeratedText({ comment }: { comment: ModeratedComment }) {
  return (
    <div className="mt-3">
      <p className="text-muted text-sm">
        {comment.parentCommentId === null ? 'Comment' : 'Reply'} by{' '}
        <span className="text-ink font-semibold">{comment.authorName || 'a parent'}</span> on{' '}
        <a
          href={`/blog/${comment.postSlug}#comment-${comment.commentId}`}
          className="text-brand-dark font-medium underline underline-offset-4"
        >
          {comment.postTitle}
        </a>
        , <When iso={comment.createdAt} />
        {comment.editedAt && ' (edited)'} ·{' '}
        <span className={`${badge} bg-gray-100 text-gray-800`}>{STATUS_LABELS[comment.status]}</span>
      </p>
      {comment.content ? (
        <blockquote className="border-sand text-ink bg-cream mt-2 rounded-lg border-l-4 p-3 break-words whitespace-pre-line">
          {comment.content}
        </blockquote>
      ) : (
        <p className="text-muted mt-2 text-sm italic">No text is kept for this comment.</p>
      )}
      {comment.purgeAfter && (
        <p className="mt-2 text-sm text-purple-900">
          Preserved as child-safety evidence until{' '}
          <time dateTime={comment.purgeAfter}>{formatDate(comment.purgeAfter)}</time>, then purged.
        </p>
      )}
      <Standing comment={comment} />
    </div>
  );
}

/** Time left on an open group, to the minute (`due`, kept current by the card's clock). */
function DueTime({ dueAt, due }: { dueAt: string; due: ReturnType<typeof dueLabel> }) {
  const absolute = useTimeLabels(dueAt)?.absolute;
  return (
    <time dateTime={dueAt} title={absolute} className={due.overdue ? 'font-semibold text-red-800' : ''}>
      {due.text}
    </time>
  );
}

const actionButton =
  'border-sand text-ink hover:bg-sand rounded-lg border bg-white px-3 py-1.5 text-sm font-semibold';
const dangerButton = 'rounded-lg bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800';

export interface GroupActions {
  onResolve: (group: ReportGroup, action: 'remove' | 'restore' | 'dismiss') => void;
  onSuspend: (uid: string, name: string, card: string) => void;
}

/** One comment's open reports, with the decisions a moderator can take. */
export function ReportCard({ group, actions }: { group: ReportGroup; actions: GroupActions }) {
  const { comment } = group;
  const headingId = `report-${group.reportId}-heading`;
  const hidden = comment.status === 'held' || comment.status === 'removed';
  const due = dueLabel(group.dueAt, useClock());
  const overdue = group.overdue || due.overdue;
  return (
    <article
      id={`report-${group.reportId}`}
      aria-labelledby={headingId}
      // Focus comes here when a decision took the card before it away.
      tabIndex={-1}
      className={`focus-visible:outline-brand-dark scroll-mt-24 rounded-2xl border bg-white p-5 shadow-sm ${group.childSafety ? 'border-red-300' : 'border-sand'}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-ink text-lg font-semibold">
          {group.childSafety ? 'Child safety concern' : 'Reported comment'}
          <span className="sr-only"> #{group.reportId}</span>
        </h3>
        {group.childSafety && <span className={`${badge} bg-red-100 text-red-900`}>Escalated</span>}
        {overdue && <span className={`${badge} bg-red-700 text-white`}>Overdue</span>}
      </div>
      <p className="text-muted mt-1 text-sm">
        {group.reporterCount} {group.reporterCount === 1 ? 'parent' : 'parents'} reported it ·{' '}
        {group.categories
          .map(
            ({ category, count }) => `${REPORT_CATEGORY_LABELS[category]}${count > 1 ? ` × ${count}` : ''}`,
          )
          .join(', ')}
      </p>
      <p className="text-muted mt-1 text-sm">
        Opened <When iso={group.openedAt} /> · <DueTime dueAt={group.dueAt} due={due} />
      </p>
      <ModeratedText comment={comment} />
      {group.notes.length > 0 && (
        <div className="mt-3">
          <h4 className="text-ink text-sm font-semibold">Reporters’ notes</h4>
          <ul className="mt-1 space-y-1">
            {group.notes.map((note) => (
              <li key={note.reportId} className="text-ink text-sm">
                <span className="text-muted">{REPORT_CATEGORY_LABELS[note.category]}:</span> {note.note}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        {comment.status !== 'removed' && (
          <button type="button" className={dangerButton} onClick={() => actions.onResolve(group, 'remove')}>
            Remove comment
          </button>
        )}
        {hidden && (
          <button type="button" className={actionButton} onClick={() => actions.onResolve(group, 'restore')}>
            Restore comment
          </button>
        )}
        <button type="button" className={actionButton} onClick={() => actions.onResolve(group, 'dismiss')}>
          Dismiss reports
        </button>
        {comment.authorUid && !comment.authorStanding?.suspension && (
          <button
            type="button"
            className={actionButton}
            onClick={() =>
              actions.onSuspend(comment.authorUid!, comment.authorName, `report-${group.reportId}`)
            }
          >
            Suspend {comment.authorName || 'author'}
          </button>
        )}
      </div>
    </article>
  );
}

/** A comment waiting for review, with Approve and Reject. */
export function PendingCard({
  comment,
  onReview,
  onSuspend,
}: {
  comment: ModeratedComment;
  onReview: (comment: ModeratedComment, action: 'approve' | 'reject') => void;
  onSuspend: (uid: string, name: string, card: string) => void;
}) {
  const headingId = `pending-${comment.commentId}-heading`;
  return (
    <article
      id={`pending-${comment.commentId}`}
      aria-labelledby={headingId}
      tabIndex={-1}
      className="border-sand scroll-mt-24 rounded-2xl border bg-white p-5 shadow-sm"
    >
      <h3 id={headingId} className="text-ink text-lg font-semibold">
        {comment.statusReason ?? 'Awaiting review'}
      </h3>
      <ModeratedText comment={comment} />
      <div className="mt-4 flex flex-wrap gap-2">
        <button
          type="button"
          className="bg-brand hover:bg-brand-dark rounded-lg px-3 py-1.5 text-sm font-semibold text-white"
          onClick={() => onReview(comment, 'approve')}
        >
          Approve
        </button>
        <button type="button" className={dangerButton} onClick={() => onReview(comment, 'reject')}>
          Reject
        </button>
        {comment.authorUid && !comment.authorStanding?.suspension && (
          <button
            type="button"
            className={actionButton}
            onClick={() => onSuspend(comment.authorUid!, comment.authorName, `pending-${comment.commentId}`)}
          >
            Suspend {comment.authorName || 'author'}
          </button>
        )}
      </div>
    </article>
  );
}
