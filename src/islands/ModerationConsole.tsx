// The moderation console (/moderation): open reports grouped by comment (child safety first, then
// oldest, with due times), comments awaiting review, escalations that have not arrived, suspended
// parents and the audit log. Moderators and admins only; everyone else sees why.
import { useStore } from '@nanostores/react';
import { type ReactNode, useEffect, useState } from 'react';
import {
  auditActionLabel,
  auditTargetLabel,
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
import { ColumnHeads } from '../components/ColumnHeads.tsx';
import { ShowMore, useShowMore } from '../components/ShowMore.tsx';
import { SignInPrompt } from '../components/SignInPrompt.tsx';
import { ActionDialog, type ActionDialogProps } from './dialogs/ActionDialog.tsx';
import { PendingCard, ReportCard, SuspendDialog, When } from './moderation/parts.tsx';

const REFRESH_MS = 30_000;

type Dialog =
  | { kind: 'action'; props: Omit<ActionDialogProps, 'onClose'> }
  | { kind: 'suspend'; uid: string; name: string };

const RESOLVE_TEXT = {
  remove: {
    title: 'Remove this comment?',
    description:
      'The thread shows “This comment was removed by a moderator.” in its place; its replies stay. Its author sees your reason. Every open report of it is resolved.',
    confirm: 'Remove comment',
  },
  restore: {
    title: 'Restore this comment?',
    description: 'It is shown again and counted, and every open report of it is resolved.',
    confirm: 'Restore comment',
  },
  dismiss: {
    title: 'Dismiss these reports?',
    description:
      'The reports are closed as not breaking the rules; a comment hidden for review is shown again.',
    confirm: 'Dismiss reports',
  },
} as const;

function Section({
  id,
  title,
  count,
  children,
}: {
  id: string;
  title: string;
  count?: number;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-24">
      <h2 id={`${id}-heading`} className="text-ink text-2xl font-bold">
        {title}
        {count !== undefined && <span className="text-muted font-semibold"> ({count})</span>}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function Loading({ what, failed }: { what: string; failed: boolean }) {
  return failed ? (
    <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-900">
      Failed to load {what}. Use Refresh to try again.
    </p>
  ) : (
    <p className="text-muted" aria-busy="true">
      Loading {what}…
    </p>
  );
}

export default function ModerationConsole() {
  const auth = useStore($auth, { ssr: 'initial' });
  const uid = auth.user?.uid ?? null;
  const allowed = !auth.loading && !auth.demoMode && canModerate(auth.profile?.role);
  const key = allowed ? uid : null;
  const reports = useStore(reportQueue.store(key));
  const pending = useStore(pendingComments.store(key));
  const suspended = useStore(suspensions.store(key));
  const waiting = useStore(escalations.store(key));
  const audit = useStore(auditLog.store(key));
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [status, setStatus] = useState('');
  const moreAudit = useShowMore(() => (key ? loadMoreAudit(key) : Promise.resolve()));

  useEffect(() => initAuth(), []);

  // New reports arrive while the console is open: look again now and then.
  useEffect(() => {
    if (!key) return;
    const timer = setInterval(() => refreshAll(key), REFRESH_MS);
    return () => clearInterval(timer);
  }, [key]);

  if (auth.loading || (auth.user && !auth.profile && !auth.demoMode)) {
    return <p className="text-muted">Checking your account…</p>;
  }
  if (!auth.user) return <SignInPrompt text="Sign in with a moderator account to review reports." />;
  if (!allowed || !key) {
    return (
      <section aria-labelledby="forbidden-heading" className="rounded-2xl bg-amber-50 p-6 text-amber-950">
        <h2 id="forbidden-heading" className="text-xl font-bold">
          403: for moderators only
        </h2>
        <p className="mt-2">
          The moderation console is for Nestling&apos;s parent moderators and admins, and{' '}
          {accountEmail(auth) || 'this account'} is neither. If you should be a moderator, ask an admin to run{' '}
          <code>npm run user:role -- {accountEmail(auth) || 'you@example.com'} moderator</code>.
        </p>
        <p className="mt-2">
          To report a comment, use the Report button under it. See{' '}
          <a href="/safety#report" className="font-semibold underline underline-offset-4">
            how reports work
          </a>
          .
        </p>
      </section>
    );
  }

  const moderatorUid = key;
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

      <Section id="escalations" title="Escalations" count={waiting.data?.waiting.length}>
        {!waiting.data ? (
          <Loading what="escalations" failed={waiting.error !== undefined} />
        ) : (
          <>
            {!waiting.data.configured && (
              <p role="note" className="mb-4 rounded-xl bg-amber-50 p-4 text-amber-950">
                SAFETY_ESCALATION_URL is not set, so child-safety reports are not sent to an on-call channel:
                they wait here until it is configured. Review them in the open reports above right away.
              </p>
            )}
            {waiting.data.waiting.length === 0 ? (
              <p className="text-muted">Every escalation has been delivered.</p>
            ) : (
              <table className="w-full text-left text-sm">
                <caption className="text-muted mb-2 text-left">
                  Escalations not yet delivered; failed ones are retried until they arrive.
                </caption>
                <ColumnHeads columns={['Report', 'Queued', 'Attempts', 'Next attempt', 'Last error']} />
                <tbody>
                  {waiting.data.waiting.map((d) => (
                    <tr key={d.id} className="border-sand border-b align-top">
                      <td className="py-2 pr-4">
                        {d.reportId === null ? (
                          `#${d.id}`
                        ) : (
                          <a href={`#report-${d.reportId}`} className="underline underline-offset-4">
                            Report #{d.reportId}
                          </a>
                        )}
                      </td>
                      <td className="py-2 pr-4">
                        <When iso={d.createdAt} />
                      </td>
                      <td className="py-2 pr-4">{d.attempts}</td>
                      <td className="py-2 pr-4">
                        {d.target === null ? 'Waiting for a URL' : <When iso={d.nextAttemptAt} />}
                      </td>
                      <td className="py-2 text-red-900">{d.lastError ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </Section>

      <Section id="suspensions" title="Suspended parents" count={suspended.data?.length}>
        {!suspended.data ? (
          <Loading what="suspensions" failed={suspended.error !== undefined} />
        ) : suspended.data.length === 0 ? (
          <p className="text-muted">No parent is suspended.</p>
        ) : (
          <ul className="space-y-3">
            {suspended.data.map((s) => (
              <li
                key={s.id}
                className="border-sand flex flex-wrap items-center gap-3 rounded-xl border bg-white p-4"
              >
                <p className="min-w-0 flex-1 text-sm">
                  <span className="text-ink font-semibold">{s.userName}</span>{' '}
                  {s.until ? (
                    <>
                      until <When iso={s.until} prefix="" />
                    </>
                  ) : (
                    'until lifted'
                  )}{' '}
                  · {s.reason} <span className="text-muted">(by {s.createdByName})</span>
                </p>
                <button
                  type="button"
                  className="border-sand text-ink hover:bg-sand rounded-lg border bg-white px-3 py-1.5 text-sm font-semibold"
                  onClick={() =>
                    confirm({
                      title: `Lift ${s.userName}’s suspension?`,
                      description: 'They can comment, reply, like and report again at once.',
                      confirmLabel: 'Lift suspension',
                      reason: 'required',
                      onConfirm: async (reason) => {
                        await liftSuspension(moderatorUid, s.uid, reason ?? '');
                        setStatus(`${s.userName}’s suspension was lifted.`);
                      },
                    })
                  }
                >
                  Lift suspension
                </button>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="audit" title="Audit log">
        <p className="text-muted mb-4 text-sm">
          Every moderation action, who took it and why. Entries cannot be edited or deleted.
        </p>
        {!audit.data ? (
          <Loading what="the audit log" failed={audit.error !== undefined} />
        ) : (
          <>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Audit log, newest first</caption>
              <ColumnHeads columns={['When', 'Who', 'What', 'Which', 'Why']} />
              <tbody>
                {audit.data.entries.length === 0 ? (
                  <tr>
                    <td colSpan={5} className="text-muted py-3">
                      Nothing has happened yet.
                    </td>
                  </tr>
                ) : (
                  audit.data.entries.map((entry) => (
                    <tr key={entry.id} className="border-sand border-b align-top">
                      <td className="py-2 pr-4 whitespace-nowrap">
                        <When iso={entry.at} />
                      </td>
                      <td className="py-2 pr-4">{entry.actorName}</td>
                      <td className="py-2 pr-4">{auditActionLabel(entry.action)}</td>
                      <td className="py-2 pr-4">
                        {auditTargetLabel(entry.targetType)} #{entry.targetId}
                      </td>
                      <td className="py-2">{entry.reason ?? '—'}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
            {audit.data.next !== null && (
              <ShowMore
                state={moreAudit.state}
                onClick={moreAudit.run}
                label="Show older entries"
                loadingLabel="Loading older entries…"
                failure="Failed to load older entries. Please try again."
              />
            )}
          </>
        )}
      </Section>

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
