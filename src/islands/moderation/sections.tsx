// The moderation console's sections that list rather than decide: escalations not yet delivered,
// suspended parents and the audit log, with the section frame and loading state all share.
import { type ReactNode, useRef } from 'react';
import { type AuditEntry, auditActionLabel, type WaitingDelivery } from '../../../api/contract.ts';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { ShowMore, type useShowMore } from '../../components/ShowMore.tsx';
import { formatDateTime } from '../../lib/time.ts';
import type { auditLog, escalations, suspensions } from '../../stores/moderation.ts';
import { useFocusKeptIn } from './announce.ts';
import { When } from './parts.tsx';

/** What a keyed store gives an island: its data once loaded, and its error. */
export interface Loaded<T> {
  data?: T;
  error?: unknown;
}
export type Data<Q> = Q extends { get: (id: string) => infer T | undefined } ? T : never;

export function Section({
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
  const element = useRef<HTMLElement>(null);
  useFocusKeptIn(element, id);
  return (
    <section ref={element} id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-24">
      <h2 id={`${id}-heading`} tabIndex={-1} className="text-ink text-2xl font-bold focus:outline-none">
        {title}
        {count !== undefined && <span className="text-muted font-semibold"> ({count})</span>}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

export function Loading({ what, failed }: { what: string; failed: boolean }) {
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

/** A delivery that has not arrived, in words a moderator can act on; the error itself for admins. */
function DeliveryState({ delivery }: { delivery: WaitingDelivery }) {
  if (delivery.target === null) return <>Waiting for an alert channel to be set up.</>;
  if (!delivery.failed) return <>On its way.</>;
  return (
    <>
      <span className="text-red-900">
        The safety team’s alert channel is not answering. We keep trying, waiting longer each time; tell an
        admin.
      </span>
      {delivery.lastError && (
        <details className="mt-1">
          <summary className="text-muted cursor-pointer">Technical details (for admins)</summary>
          <code className="mt-1 block text-xs break-all">{delivery.lastError}</code>
        </details>
      )}
    </>
  );
}

const escalationColumns: Column<WaitingDelivery>[] = [
  {
    head: 'Report',
    cell: (d) =>
      d.reportId === null ? (
        'A child-safety report'
      ) : (
        <a href={`#report-${d.reportId}`} className="underline underline-offset-4">
          Child-safety report #{d.reportId}
        </a>
      ),
  },
  { head: 'Queued', cell: (d) => <When iso={d.createdAt} /> },
  { head: 'Tries', cell: (d) => d.attempts },
  { head: 'Next try', cell: (d) => (d.target === null ? '—' : <When iso={d.nextAttemptAt} />) },
  { head: 'State', cell: (d) => <DeliveryState delivery={d} /> },
];

export function EscalationsSection({ waiting }: { waiting: Loaded<Data<typeof escalations>> }) {
  return (
    <Section id="escalations" title="Escalations" count={waiting.data?.waiting.length}>
      {!waiting.data ? (
        <Loading what="escalations" failed={waiting.error !== undefined} />
      ) : (
        <>
          {!waiting.data.configured && (
            <p role="note" className="mb-4 rounded-xl bg-amber-50 p-4 text-amber-950">
              No alert channel is set up for the safety team, so child-safety reports are not sent anywhere:
              they wait here until an admin sets one up. Review them in the open reports above right away.
            </p>
          )}
          {waiting.data.waiting.length === 0 ? (
            <p className="text-muted">Every escalation has reached the safety team.</p>
          ) : (
            <DataTable
              caption="Escalations not yet delivered; each is tried again until it arrives."
              columns={escalationColumns}
              rows={waiting.data.waiting}
              rowKey={(d) => d.id}
            />
          )}
        </>
      )}
    </Section>
  );
}

export function SuspensionsSection({
  suspended,
  onLift,
}: {
  suspended: Loaded<Data<typeof suspensions>>;
  onLift: (suspension: Data<typeof suspensions>[number]) => void;
}) {
  return (
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
              id={`suspension-${s.id}`}
              tabIndex={-1}
              className="border-sand flex flex-wrap items-center gap-3 rounded-xl border bg-white p-4"
            >
              <p className="min-w-0 flex-1 text-sm">
                <span className="text-ink font-semibold">{s.userName}</span>{' '}
                {s.until ? (
                  <>
                    until <time dateTime={s.until}>{formatDateTime(s.until)}</time>
                  </>
                ) : (
                  'until lifted'
                )}{' '}
                · {s.reason} <span className="text-muted">(by {s.createdByName})</span>
              </p>
              <button
                type="button"
                className="border-sand text-ink hover:bg-sand rounded-lg border bg-white px-3 py-1.5 text-sm font-semibold"
                onClick={() => onLift(s)}
              >
                Lift suspension
              </button>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

const auditColumns: Column<AuditEntry>[] = [
  { head: 'When', cell: (entry) => <When iso={entry.at} />, className: 'sm:whitespace-nowrap' },
  { head: 'Who', cell: (entry) => entry.actorName },
  { head: 'What', cell: (entry) => auditActionLabel(entry.action) },
  {
    head: 'Which',
    cell: ({ target }) =>
      target.href ? (
        <a href={target.href} className="underline underline-offset-4">
          {target.name}
        </a>
      ) : (
        target.name
      ),
  },
  { head: 'Why', cell: (entry) => entry.reason ?? '—', className: 'break-words' },
];

export function AuditSection({
  audit,
  more,
}: {
  audit: Loaded<Data<typeof auditLog>>;
  more: ReturnType<typeof useShowMore>;
}) {
  return (
    <Section id="audit" title="Audit log">
      <p className="text-muted mb-4 text-sm">
        Every moderation action, who took it and why. Entries cannot be edited or deleted.
      </p>
      {!audit.data ? (
        <Loading what="the audit log" failed={audit.error !== undefined} />
      ) : (
        <>
          <DataTable
            caption="Audit log, newest first"
            captionHidden
            columns={auditColumns}
            rows={audit.data.entries}
            rowKey={(entry) => entry.id}
            empty="Nothing has happened yet."
          />
          {audit.data.next !== null && (
            <ShowMore
              state={more.state}
              onClick={more.run}
              label="Show older entries"
              loadingLabel="Loading older entries…"
              failure="Failed to load older entries. Please try again."
            />
          )}
        </>
      )}
    </Section>
  );
}
