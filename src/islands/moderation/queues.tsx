// The console's two queues of decisions: open reports and comments awaiting review.
import { EVIDENCE_RETENTION_DAYS, type ModeratedComment } from '../../../api/contract.ts';
import type { pendingComments, reportQueue } from '../../stores/moderation.ts';
import { type GroupActions, PendingCard, ReportCard } from './parts.tsx';
import { type Data, type Loaded, Loading, Section } from './sections.tsx';

export function ReportsSection({
  reports,
  actions,
}: {
  reports: Loaded<Data<typeof reportQueue>>;
  actions: GroupActions;
}) {
  return (
    <Section id="reports" title="Open reports" count={reports.data?.length}>
      <p className="text-muted mb-4 text-sm">
        Child safety concerns come first and are due within the hour; every other report within 24 hours.
        Content removed for child safety is preserved out of sight for {EVIDENCE_RETENTION_DAYS} days as
        evidence that authorities may request, then purged automatically.
      </p>
      {!reports.data ? (
        <Loading what="reports" failed={reports.error !== undefined} />
      ) : reports.data.length === 0 ? (
        <p className="text-muted">No open reports. Thank you for keeping watch.</p>
      ) : (
        <div className="space-y-4">
          {reports.data.map((group) => (
            <ReportCard key={group.reportId} group={group} actions={actions} />
          ))}
        </div>
      )}
    </Section>
  );
}

export function PendingSection({
  pending,
  onReview,
  onSuspend,
}: {
  pending: Loaded<Data<typeof pendingComments>>;
  onReview: (comment: ModeratedComment, action: 'approve' | 'reject') => void;
  onSuspend: GroupActions['onSuspend'];
}) {
  return (
    <Section id="pending" title="Awaiting review" count={pending.data?.length}>
      <p className="text-muted mb-4 text-sm">
        A parent’s first comment and any comment with more than two links wait here; only their authors see
        them until you approve.
      </p>
      {!pending.data ? (
        <Loading what="comments awaiting review" failed={pending.error !== undefined} />
      ) : pending.data.length === 0 ? (
        <p className="text-muted">Nothing is waiting for review.</p>
      ) : (
        <div className="space-y-4">
          {pending.data.map((comment) => (
            <PendingCard
              key={comment.commentId}
              comment={comment}
              onReview={onReview}
              onSuspend={onSuspend}
            />
          ))}
        </div>
      )}
    </Section>
  );
}
