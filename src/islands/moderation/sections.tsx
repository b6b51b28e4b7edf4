// The moderation console's sections that list rather than decide: escalations not yet delivered,
// suspended parents and the audit log, with the section frame and loading state all share.
import type { ReactNode } from 'react';
import { auditActionLabel, auditTargetLabel } from '../../../api/contract.ts';
import { ColumnHeads } from '../../components/ColumnHeads.tsx';
import { ShowMore, type useShowMore } from '../../components/ShowMore.tsx';
import type { auditLog, escalations, suspensions } from '../../stores/moderation.ts';
import { When } from './parts.tsx';

/** What a keyed store gives an island: its data once loaded, and its error. */
interface Loaded<T> {
  data?: T;
  error?: unknown;
}
type Data<Q> = Q extends { get: (id: string) => infer T | undefined } ? T : never;

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

export function EscalationsSection({ waiting }: { waiting: Loaded<Data<typeof escalations>> }) {
  return (
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
