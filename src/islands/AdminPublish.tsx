// The editors' publishing panel (docs/product.md, "Publishing"): the live release, a Publish
// button, a Roll back button with a confirm step, and the recent releases (runs of every instance,
// read from the database). Admins only; everyone else sees why, with a way to sign in.
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import {
  isAdmin,
  type PublishRun,
  type PublishState,
  type PublishStatus,
  RELEASES_KEPT,
} from '../../api/contract.ts';
import { ColumnHeads } from '../components/ColumnHeads.tsx';
import { errorMessage } from '../lib/api.ts';
import { publishing, publishNow, rollBack } from '../stores/admin.ts';
import { $auth, accountEmail, initAuth } from '../stores/auth.ts';
import { type Access, hasAccess, RoleGate, StaffOnly } from './RoleGate.tsx';

// The dialog (and Radix with it) loads only when an admin asks to roll back.
const ActionDialog = lazy(() =>
  import('./dialogs/ActionDialog.tsx').then((m) => ({ default: m.ActionDialog })),
);

const POLL_MS = 2_000;
const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);

const STATE_LABELS: Record<PublishState, string> = {
  queued: 'Queued',
  syncing: 'Syncing content',
  building: 'Building',
  succeeded: 'Published',
  failed: 'Failed',
  rolled_back: 'Rolled back',
  retired: 'Retired',
};

function posts(run: PublishRun): string {
  if (run.postCount === null) return '—';
  return `${run.postCount} (${run.postsChanged} changed)`;
}

const button =
  'rounded-full px-6 py-3 font-semibold disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:opacity-60';

export default function AdminPublish() {
  const auth = useStore($auth, { ssr: 'initial' });
  const access: Access = { role: isAdmin };
  const uid = hasAccess(auth, access) ? (auth.user?.uid ?? null) : null;
  const { data: status, error: loadError } = useStore(publishing.store(uid));
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => initAuth(), []);

  // While a release runs, look every 2 s; otherwise every 10 s (other admins, other instances).
  const busy = status?.current !== null && status?.current !== undefined;
  useEffect(() => {
    if (!uid) return;
    const timer = setInterval(() => publishing.refresh(uid), busy ? POLL_MS : POLL_MS * 5);
    return () => clearInterval(timer);
  }, [uid, busy]);

  async function publish(admin: string) {
    setPending(true);
    setDone(null);
    setError(null);
    try {
      const run = await publishNow(admin);
      setDone(`Release #${run.id} is ${STATE_LABELS[run.state].toLowerCase()}.`);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  }

  /** Throws on failure, which the dialog shows; it closes on success. */
  async function rollback(admin: string, reason: string | null) {
    const result = await rollBack(admin, reason);
    setDone(`Rolled back: release #${result.to.id} is live again instead of #${result.from.id}.`);
  }

  return (
    <RoleGate
      auth={auth}
      access={access}
      signIn="Sign in with an admin account to publish posts."
      forbidden={<StaffOnly staff="admins" email={accountEmail(auth)} />}
    >
      {uid && (
        <Panel
          status={status ?? null}
          error={error ?? (loadError ? errorMessage(loadError) : null)}
          done={done}
          pending={pending}
          onPublish={() => void publish(uid)}
          confirming={confirming}
          setConfirming={setConfirming}
          onRollback={(reason) => rollback(uid, reason)}
        />
      )}
    </RoleGate>
  );
}

interface PanelProps {
  status: PublishStatus | null;
  error: string | null;
  done: string | null;
  pending: boolean;
  onPublish: () => void;
  confirming: boolean;
  setConfirming: (open: boolean) => void;
  onRollback: (reason: string | null) => Promise<void>;
}

function Panel({
  status,
  error,
  done,
  pending,
  onPublish,
  confirming,
  setConfirming,
  onRollback,
}: PanelProps) {
  const live = status?.live ?? null;
  const previous = status?.previous ?? null;
  const runs = status?.recent ?? [];
  return (
    <div>
      <section aria-labelledby="live-release" className="border-sand rounded-2xl border bg-white p-5">
        <h2 id="live-release" className="text-ink text-lg font-bold">
          Live release
        </h2>
        <p className="text-muted mt-1">
          {live
            ? `Release #${live.id}: ${posts(live)} posts, with everything published up to ${time(live.contentAsOf)}.`
            : status
              ? 'Nothing has been published yet.'
              : 'Loading…'}
        </p>
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <button
            type="button"
            onClick={onPublish}
            disabled={pending}
            className={`${button} bg-brand hover:bg-brand-dark text-white`}
          >
            {pending ? 'Publishing…' : 'Publish'}
          </button>
          <button
            type="button"
            // aria-disabled rather than disabled: the button keeps focus after a rollback it ends.
            onClick={() => previous && setConfirming(true)}
            aria-disabled={!previous || undefined}
            aria-describedby="rollback-help"
            className={`${button} border-sand text-ink hover:bg-sand border bg-white`}
          >
            {previous ? `Roll back to release #${previous.id}` : 'Roll back'}
          </button>
          <p id="rollback-help" className="text-muted text-sm">
            {previous
              ? `Readers get release #${previous.id} again: its pages and the API's answers together.`
              : 'There is no earlier release to go back to.'}
          </p>
        </div>
      </section>

      <p aria-live="polite" className="text-muted mt-4">
        {status?.current
          ? `Release #${status.current.id}: ${STATE_LABELS[status.current.state]}…`
          : 'Nothing is running.'}
      </p>
      {done && (
        <p role="status" className="bg-brand-light text-brand-dark mt-4 rounded-xl p-4">
          {done}
        </p>
      )}
      {error && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 p-4 text-red-900">
          {error}
        </p>
      )}
      <table className="mt-6 w-full text-left text-sm">
        <caption className="text-ink mb-2 text-left">
          <span className="font-semibold">Recent releases</span>{' '}
          <span className="text-muted">(the newest {RELEASES_KEPT} builds are kept to roll back to)</span>
        </caption>
        <ColumnHeads columns={['Release', 'State', 'Started', 'Duration', 'Posts', 'Error']} />
        <tbody>
          {runs.length === 0 ? (
            <tr>
              <td colSpan={6} className="text-muted py-3">
                No releases yet.
              </td>
            </tr>
          ) : (
            runs.map((run) => (
              <tr key={run.id} className="border-sand border-b align-top">
                <td className="py-2 pr-4">
                  #{run.id} <span className="text-muted">({run.trigger})</span>
                </td>
                <td className="py-2 pr-4 font-semibold">
                  {STATE_LABELS[run.state]}
                  {run.live && (
                    <span className="bg-brand-light text-brand-dark ml-2 rounded-full px-2 py-0.5 text-xs">
                      Live
                    </span>
                  )}
                </td>
                <td className="py-2 pr-4">{time(run.startedAt)}</td>
                <td className="py-2 pr-4">{seconds(run.durationMs)}</td>
                <td className="py-2 pr-4">{posts(run)}</td>
                <td className="py-2 text-red-900">{run.error ?? ''}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>

      {confirming && live && previous && (
        <Suspense fallback={null}>
          <ActionDialog
            title={`Roll back to release #${previous.id}?`}
            description={
              <>
                Readers get release #{previous.id} again, its pages and the API&apos;s answers together,
                within a second. Release #{live.id} is marked rolled back and is never offered again. content/
                does not change: the next publish releases whatever it holds then.
              </>
            }
            confirmLabel="Roll back"
            reason="optional"
            destructive
            onConfirm={onRollback}
            onClose={() => setConfirming(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
