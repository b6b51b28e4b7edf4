// The editors' publishing panel (issue 5): the current and recent runs, and a Publish button.
// Admins only; everyone else sees why, with a way to sign in.
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState } from 'react';
import { isAdmin as isAdminRole, type PublishStatus } from '../../api/contract.ts';
import { api, errorMessage, read, withToken } from '../lib/api.ts';
import { $auth, getIdToken, initAuth } from '../stores/auth.ts';
import { ColumnHeads } from '../components/ColumnHeads.tsx';
import { SignInPrompt } from '../components/SignInPrompt.tsx';

const POLL_MS = 2_000;
const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);

export default function AdminPublish() {
  const auth = useStore($auth, { ssr: 'initial' });
  const [status, setStatus] = useState<PublishStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const isAdmin = isAdminRole(auth.profile?.role) && !auth.demoMode;

  useEffect(() => initAuth(), []);

  const refresh = useCallback(async () => {
    try {
      const token = await getIdToken();
      setStatus(await read(api.admin.publish.$get(undefined, withToken(token))));
      setError(null);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }, []);

  const busy = status?.current !== null && status?.current !== undefined;
  useEffect(() => {
    if (!isAdmin) return;
    const first = setTimeout(() => void refresh(), 0);
    const timer = setInterval(() => void refresh(), busy ? POLL_MS : POLL_MS * 5);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [isAdmin, busy, refresh]);

  async function publish() {
    setPending(true);
    try {
      const token = await getIdToken();
      await read(api.admin.publish.$post(undefined, withToken(token)));
      await refresh();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  }

  if (auth.loading) return <p className="text-muted">Checking your account…</p>;
  if (!auth.user) return <SignInPrompt text="Sign in with an admin account to publish posts." />;
  if (!isAdmin) {
    return (
      <p role="alert" className="rounded-2xl bg-amber-50 p-6 text-amber-950">
        Only admins may publish. Ask an admin to run <code>npm run user:role -- {auth.user.email} admin</code>{' '}
        for you.
      </p>
    );
  }
  const runs = [...(status?.current ? [status.current] : []), ...(status?.recent ?? [])];
  return (
    <div>
      <div className="flex flex-wrap items-center gap-4">
        <button
          type="button"
          onClick={() => void publish()}
          disabled={pending}
          className="bg-brand hover:bg-brand-dark rounded-full px-6 py-3 font-semibold text-white disabled:opacity-60"
        >
          {pending ? 'Publishing…' : 'Publish'}
        </button>
        <p aria-live="polite" className="text-muted">
          {status?.current ? `A run is ${status.current.state}…` : 'Nothing is running.'}
        </p>
      </div>
      {error && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 p-4 text-red-900">
          {error}
        </p>
      )}
      <table className="mt-6 w-full text-left text-sm">
        <caption className="text-ink mb-2 text-left font-semibold">Recent runs</caption>
        <ColumnHeads columns={['Run', 'State', 'Started', 'Duration', 'Posts changed', 'Error']} />
        <tbody>
          {runs.length === 0 ? (
            <tr>
              <td colSpan={6} className="text-muted py-3">
                No runs since the server started.
              </td>
            </tr>
          ) : (
            runs.map((run) => (
              <tr key={run.id} className="border-sand border-b align-top">
                <td className="py-2 pr-4">
                  #{run.id} <span className="text-muted">({run.trigger})</span>
                </td>
                <td className="py-2 pr-4 font-semibold">{run.state}</td>
                <td className="py-2 pr-4">{time(run.startedAt)}</td>
                <td className="py-2 pr-4">{seconds(run.durationMs)}</td>
                <td className="py-2 pr-4">{run.postsChanged}</td>
                <td className="py-2 text-red-900">{run.error ?? ''}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
