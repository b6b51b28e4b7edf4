// The moderation console (/moderation): open reports grouped by comment (child safety first, then
// oldest, with due times), comments awaiting review, escalations that have not arrived, suspended
// parents and the audit log. Moderators and admins only; everyone else sees why.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import {
  canModerate,
  EVIDENCE_RETENTION_DAYS,
  type ModeratedComment,
  type ReportGroup,
} from '../../api/contract.ts';
import { $auth, accountEmail, initAuth } from '../stores/auth.ts';
import {
  auditLog,
  escalations,
  liftSuspension,
  loadMoreAudit,
  pendingComments,
  refreshAll,
  reportQueue,
  resolveReport,
  reviewComment,
  suspendParent,
  suspensions,
} from '../stores/moderation.ts';
import { useShowMore } from '../components/ShowMore.tsx';
import { ActionDialog, type ActionDialogProps } from './dialogs/ActionDialog.tsx';
import { PendingCard, ReportCard } from './moderation/parts.tsx';
import { SuspendDialog } from './moderation/SuspendDialog.tsx';
import {
  AuditSection,
  EscalationsSection,
  Loading,
  Section,
  SuspensionsSection,
} from './moderation/sections.tsx';
import { ModeratorsOnly, RESOLVE_TEXT } from './moderation/texts.tsx';
import { type Access, hasAccess, RoleGate } from './RoleGate.tsx';

const REFRESH_MS = 30_000;

type Dialog =
  | { kind: 'action'; props: Omit<ActionDialogProps, 'onClose'> }
  | { kind: 'suspend'; uid: string; name: string };

export default function ModerationConsole() {
  const auth = useStore($auth, { ssr: 'initial' });
  const access: Access = { role: canModerate };
  const uid = hasAccess(auth, access) ? (auth.user?.uid ?? null) : null;

  useEffect(() => initAuth(), []);

  return (
    <RoleGate
      auth={auth}
      access={access}
      signIn="Sign in with a moderator account to review reports."
      forbidden={<ModeratorsOnly email={accountEmail(auth)} />}
    >
      {uid && <Console moderatorUid={uid} />}
    </RoleGate>
  );
}

/** The console itself, for a moderator or admin. */
function Console({ moderatorUid }: { moderatorUid: string }) {
  const key = moderatorUid;
  const reports = useStore(reportQueue.store(key));
  const pending = useStore(pendingComments.store(key));
  const suspended = useStore(suspensions.store(key));
  const waiting = useStore(escalations.store(key));
  const audit = useStore(auditLog.store(key));
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [status, setStatus] = useState('');
  const moreAudit = useShowMore(() => loadMoreAudit(key));

  // New reports arrive while the console is open: look again now and then.
  useEffect(() => {
    const timer = setInterval(() => refreshAll(key), REFRESH_MS);
    return () => clearInterval(timer);
  }, [key]);

  const close = () => setDialog(null);
  // A decision usually takes its card away: focus then goes to what the console says happened.
  const afterDialog = () => document.getElementById('console-status');
  const confirm = (props: Omit<ActionDialogProps, 'onClose'>) => setDialog({ kind: 'action', props });

  function resolve(group: ReportGroup, action: 'remove' | 'restore' | 'dismiss') {
    const text = RESOLVE_TEXT[action];
    confirm({
      title: text.title,
      description: text.description,
      confirmLabel: text.confirm,
      reason: 'required',
      reasonLabel: action === 'remove' ? 'Reason (shown to its author)' : 'Reason',
      destructive: action === 'remove',
      onConfirm: async (reason) => {
        const result = await resolveReport(moderatorUid, group.reportId, action, reason ?? '');
        const n = result.resolvedReportIds.length;
        setStatus(`${text.confirm}: done. ${n} ${n === 1 ? 'report' : 'reports'} resolved.`);
      },
    });
  }

  function review(comment: ModeratedComment, action: 'approve' | 'reject') {
    confirm({
      title: action === 'approve' ? 'Approve this comment?' : 'Reject this comment?',
      description:
        action === 'approve'
          ? 'It is shown to everyone and counted. The parent’s next comments no longer wait (unless they carry more than two links).'
          : 'It is not shown to anyone; its author sees “This comment was removed by a moderator.” and your reason.',
      confirmLabel: action === 'approve' ? 'Approve' : 'Reject',
      reason: action === 'approve' ? 'optional' : 'required',
      reasonLabel: action === 'reject' ? 'Reason (shown to its author)' : 'Note',
      destructive: action === 'reject',
      onConfirm: async (reason) => {
        await reviewComment(moderatorUid, comment.commentId, action, reason);
        setStatus(action === 'approve' ? 'The comment was approved.' : 'The comment was rejected.');
      },
    });
  }

  const suspend = (target: string, name: string) => setDialog({ kind: 'suspend', uid: target, name });

  const sections = [
    { id: 'reports', title: 'Open reports', count: reports.data?.length },
    { id: 'pending', title: 'Awaiting review', count: pending.data?.length },
    { id: 'escalations', title: 'Escalations', count: waiting.data?.waiting.length },
    { id: 'suspensions', title: 'Suspended parents', count: suspended.data?.length },
    { id: 'audit', title: 'Audit log' },
  ];

  return (
    <div className="space-y-12">
      <div className="flex flex-wrap items-center gap-4">
        <nav aria-label="Console sections">
          <ul className="flex flex-wrap gap-2">
            {sections.map((s) => (
              <li key={s.id}>
                <a
                  href={`#${s.id}`}
                  className="border-sand text-ink hover:bg-sand inline-block rounded-full border bg-white px-3 py-1.5 text-sm font-semibold"
                >
                  {s.title}
                  {s.count !== undefined ? ` (${s.count})` : ''}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button
          type="button"
          onClick={() => refreshAll(moderatorUid)}
          className="border-brand text-brand-dark hover:bg-brand-light ml-auto rounded-full border px-4 py-1.5 text-sm font-semibold"
        >
          Refresh
        </button>
      </div>
      <p
        id="console-status"
        role="status"
        tabIndex={-1}
        className="text-ink min-h-6 font-medium focus:outline-none"
      >
        {status}
      </p>

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
              <ReportCard
                key={group.reportId}
                group={group}
                actions={{ onResolve: resolve, onSuspend: suspend }}
              />
            ))}
          </div>
        )}
      </Section>

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
              <PendingCard key={comment.commentId} comment={comment} onReview={review} onSuspend={suspend} />
            ))}
          </div>
        )}
      </Section>

      <EscalationsSection waiting={waiting} />
      <SuspensionsSection
        suspended={suspended}
        onLift={(lifted) =>
          confirm({
            title: `Lift ${lifted.userName}’s suspension?`,
            description: 'They can comment, reply, like and report again at once.',
            confirmLabel: 'Lift suspension',
            reason: 'required',
            onConfirm: async (reason) => {
              await liftSuspension(moderatorUid, lifted.uid, reason ?? '');
              setStatus(`${lifted.userName}’s suspension was lifted.`);
            },
          })
        }
      />
      <AuditSection audit={audit} more={moreAudit} />

      {dialog?.kind === 'action' && (
        <ActionDialog {...dialog.props} onClose={close} fallbackFocus={afterDialog} />
      )}
      {dialog?.kind === 'suspend' && (
        <SuspendDialog
          name={dialog.name}
          onClose={close}
          fallbackFocus={afterDialog}
          onConfirm={async (days, reason) => {
            await suspendParent(moderatorUid, dialog.uid, days, reason);
            setStatus(
              `${dialog.name || 'The parent'} is suspended ${days === null ? 'until lifted' : `for ${days} days`}.`,
            );
          }}
        />
      )}
    </div>
  );
}
