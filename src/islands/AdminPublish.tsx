// The editors' publishing panel (docs/product.md, "Publishing"): the live release, a Publish
// button, a Roll back button with a confirm step, and the recent releases (runs of every instance,
// read from the database). Admins only; everyone else sees why, with a way to sign in.
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { isAdmin, type PublishStatus } from '../../api/contract.ts';
import { PublishProgressBar } from '../components/PublishProgressBar.tsx';
import { errorMessage } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';
import { publishing, publishNow, rollBack } from '../stores/admin.ts';
import { accountEmail } from '../stores/auth.ts';
import { posts, ReleasesTable, STATE_LABELS } from './admin/releases.tsx';
import { type Access, RoleGate, StaffOnly, useGatedAccount } from './RoleGate.tsx';

// The dialog (and Radix with it) loads only when an admin asks to roll back.
const ActionDialog = lazy(() =>
  import('./dialogs/ActionDialog.tsx').then((m) => ({ default: m.ActionDialog })),
);

const POLL_MS = 2_000;

const button =
  'rounded-full px-6 py-3 font-semibold disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:opacity-60';

const access: Access = { role: isAdmin };

export default function AdminPublish() {
  const { auth, uid } = useGatedAccount(access);
  const { data: status, error: loadError } = useStore(publishing.store(uid));
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState(false);

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
  const current = status?.current ?? null;
  return (
    <div>
      <section aria-labelledby="live-release" className="border-sand rounded-2xl border bg-white p-5">
        <h2 id="live-release" className="text-ink text-lg font-bold">
          Live release
        </h2>
        <p className="text-muted mt-1">
          {live
            ? `Release #${live.id}: ${posts(live)} posts, with everything published up to ${formatDateTime(live.contentAsOf)}.`
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
              ? `Readers get release #${previous.id} again: every page and every count together.`
              : 'There is no earlier release to go back to.'}
          </p>
        </div>
      </section>

      <p aria-live="polite" className="text-muted mt-4">
        {current ? `Release #${current.id}: ${STATE_LABELS[current.state]}…` : 'Nothing is running.'}
      </p>
      {/* Outside the live region: a count that moves every second would be read out each time. */}
      {current?.progress && (
        <div className="border-sand mt-2 max-w-xl rounded-xl border bg-white p-4">
          <PublishProgressBar progress={current.progress} name={`Release #${current.id}`} />
        </div>
      )}
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
      <div className="mt-6">
        <ReleasesTable runs={runs} />
      </div>

      {confirming && live && previous && (
        <Suspense fallback={null}>
          <ActionDialog
            title={`Roll back to release #${previous.id}?`}
            description={
              <>
                Readers get release #{previous.id} again, every page and every count together, within a
                second. Release #{live.id} is marked rolled back and is never offered again. The posts
                themselves do not change: the next publish releases them as they are then.
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
