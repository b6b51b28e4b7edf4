// The moderation console (/moderation): open reports grouped by comment (child safety first, then
// oldest, with due times), comments awaiting review, listings the screening held, possible recalls,
// escalations that have not arrived, suspended parents and the audit log. Moderators and admins only; everyone else sees why.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { canModerate, type ModeratedComment, type ReportGroup } from '../../api/contract.ts';
import type { ListingDecision, ScreenedListing } from '../../api/contract/screening.ts';
import { accountEmail } from '../stores/auth.ts';
import { heldListings } from '../stores/listings.ts';
import {
  auditLog,
  escalations,
  liftSuspension,
  loadMoreAudit,
  pendingComments,
  recallMatches,
  refreshAll,
  reportQueue,
  resolveReport,
  reviewComment,
  suspendParent,
  suspensions,
} from '../stores/moderation.ts';
import { useShowMore } from '../components/ShowMore.tsx';
import { ActionDialog, type ActionDialogProps } from './dialogs/ActionDialog.tsx';
import { announce, focusAfter } from './moderation/announce.ts';
import { listingCardId, listingDecision, ListingsSection, ReageDialog } from './moderation/listings.tsx';
import { PendingSection, ReportsSection } from './moderation/queues.tsx';
import { openMatches, recallCardId, recallDecision, RecallsSection } from './moderation/recalls.tsx';
import { SuspendDialog } from './moderation/SuspendDialog.tsx';
import { AuditSection, EscalationsSection, SuspensionsSection } from './moderation/sections.tsx';
import { ModeratorsOnly, RESOLVE_TEXT } from './moderation/texts.tsx';
import { type Access, RoleGate, useGatedAccount } from './RoleGate.tsx';

const REFRESH_MS = 30_000;

type Dialog =
  | { kind: 'action'; props: Omit<ActionDialogProps, 'onClose'> }
  | { kind: 'suspend'; uid: string; name: string; card: string }
  | { kind: 'reage'; listing: ScreenedListing; fallbackFocus: () => HTMLElement | null };

const access: Access = { role: canModerate };

/** Loads every list of the console afresh. */
function refresh(uid: string) {
  refreshAll(uid);
  heldListings.refresh(uid);
}

export default function ModerationConsole() {
  const { auth, uid } = useGatedAccount(access);

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
  const recalls = useStore(recallMatches.store(key));
  const listings = useStore(heldListings.store(key));
  const audit = useStore(auditLog.store(key));
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const moreAudit = useShowMore(() => loadMoreAudit(key));

  // New reports arrive while the console is open: look again now and then.
  useEffect(() => {
    const timer = setInterval(() => refresh(key), REFRESH_MS);
    return () => clearInterval(timer);
  }, [key]);

  const close = () => setDialog(null);
  const confirm = (props: Omit<ActionDialogProps, 'onClose'>, fallbackFocus: () => HTMLElement | null) =>
    setDialog({ kind: 'action', props: { ...props, fallbackFocus } });

  function resolve(group: ReportGroup, action: 'remove' | 'restore' | 'dismiss') {
    const text = RESOLVE_TEXT[action];
    const ids = (reports.data ?? []).map((g) => `report-${g.reportId}`);
    confirm(
      {
        title: text.title,
        description: text.description,
        confirmLabel: text.confirm,
        reason: 'required',
        reasonLabel: action === 'remove' ? 'Reason (shown to its author)' : 'Reason',
        destructive: action === 'remove',
        onConfirm: async (reason) => {
          const result = await resolveReport(moderatorUid, group.reportId, action, reason ?? '');
          const n = result.resolvedReportIds.length;
          announce(
            moderatorUid,
            `${text.confirm}: done. ${n} ${n === 1 ? 'report' : 'reports'} resolved.`,
            result.undo,
          );
        },
      },
      focusAfter(ids, `report-${group.reportId}`, 'reports'),
    );
  }

  function review(comment: ModeratedComment, action: 'approve' | 'reject') {
    const ids = (pending.data ?? []).map((c) => `pending-${c.commentId}`);
    confirm(
      {
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
          announce(
            moderatorUid,
            action === 'approve' ? 'The comment was approved.' : 'The comment was rejected.',
          );
        },
      },
      focusAfter(ids, `pending-${comment.commentId}`, 'pending'),
    );
  }

  const suspend = (target: string, name: string, card: string) =>
    setDialog({ kind: 'suspend', uid: target, name, card });

  // No Undo here: a decision on a listing has no inverse the API can send (nothing puts a listing
  // back on hold), docs/product.md "Listing screening".
  function decideListing(listing: ScreenedListing, decision: ListingDecision) {
    const fallbackFocus = focusAfter(
      (listings.data ?? []).map(listingCardId),
      listingCardId(listing),
      'listings',
    );
    if (decision === 'reage') setDialog({ kind: 'reage', listing, fallbackFocus });
    else confirm(listingDecision(moderatorUid, listing, decision), fallbackFocus);
  }

  const sections = [
    { id: 'reports', title: 'Open reports', count: reports.data?.length },
    { id: 'pending', title: 'Awaiting review', count: pending.data?.length },
    { id: 'listings', title: 'Listings to check', count: listings.data?.length },
    { id: 'recalls', title: 'Possible recalls', count: recalls.data && openMatches(recalls.data).length },
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
          onClick={() => refresh(moderatorUid)}
          className="border-brand text-brand-dark hover:bg-brand-light ml-auto rounded-full border px-4 py-1.5 text-sm font-semibold"
        >
          Refresh
        </button>
      </div>
      <ReportsSection reports={reports} actions={{ onResolve: resolve, onSuspend: suspend }} />
      <PendingSection pending={pending} onReview={review} onSuspend={suspend} />
      <ListingsSection listings={listings} onDecide={decideListing} />
      <RecallsSection
        matches={recalls}
        onResolve={(match, action) =>
          confirm(
            recallDecision(moderatorUid, match, action),
            focusAfter(openMatches(recalls.data).map(recallCardId), recallCardId(match), 'recalls'),
          )
        }
      />
      <EscalationsSection waiting={waiting} />
      <SuspensionsSection
        suspended={suspended}
        onLift={(lifted) =>
          confirm(
            {
              title: `Lift ${lifted.userName}’s suspension?`,
              description: 'They can comment, reply, like and report again at once.',
              confirmLabel: 'Lift suspension',
              reason: 'required',
              onConfirm: async (reason) => {
                await liftSuspension(moderatorUid, lifted.uid, reason ?? '');
                announce(moderatorUid, `${lifted.userName}’s suspension was lifted.`);
              },
            },
            focusAfter(
              (suspended.data ?? []).map((s) => `suspension-${s.id}`),
              `suspension-${lifted.id}`,
              'suspensions',
            ),
          )
        }
      />
      <AuditSection audit={audit} more={moreAudit} />

      {dialog?.kind === 'action' && <ActionDialog {...dialog.props} onClose={close} />}
      {dialog?.kind === 'reage' && (
        <ReageDialog
          moderatorUid={moderatorUid}
          listing={dialog.listing}
          onClose={close}
          fallbackFocus={dialog.fallbackFocus}
        />
      )}
      {dialog?.kind === 'suspend' && (
        <SuspendDialog
          name={dialog.name}
          onClose={close}
          fallbackFocus={() => document.getElementById(dialog.card)}
          onConfirm={async (days, reason) => {
            await suspendParent(moderatorUid, dialog.uid, days, reason);
            announce(
              moderatorUid,
              `${dialog.name || 'The parent'} is suspended ${days === null ? 'until lifted' : `for ${days} days`}.`,
            );
          }}
        />
      )}
    </div>
  );
}
