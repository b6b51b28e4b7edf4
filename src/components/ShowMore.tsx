import { useState } from 'react';

export type MoreState = 'idle' | 'loading' | 'failed';

/** Loading the next page of a list on demand: what the button shows, and the action. */
export function useShowMore(load: () => Promise<void>, onError?: (error: unknown) => void) {
  const [state, setState] = useState<MoreState>('idle');
  async function run() {
    if (state === 'loading') return;
    setState('loading');
    try {
      await load();
      setState('idle');
    } catch (error) {
      onError?.(error);
      setState('failed');
    }
  }
  return { state, run: () => void run() };
}

/** "Show more …" under a paged list (comments, the audit log, the outbox), with its failure. */
export function ShowMore({
  state,
  onClick,
  label,
  loadingLabel,
  failure,
}: {
  state: MoreState;
  onClick: () => void;
  label: string;
  loadingLabel: string;
  failure: string;
}) {
  return (
    <div className="mt-4 text-center">
      <button
        type="button"
        onClick={onClick}
        aria-disabled={state === 'loading' || undefined}
        aria-busy={state === 'loading' || undefined}
        className="border-brand text-brand-dark hover:bg-brand-light rounded-full border px-5 py-2 text-sm font-semibold aria-disabled:cursor-wait aria-disabled:opacity-70"
      >
        {state === 'loading' ? loadingLabel : label}
      </button>
      {state === 'failed' && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {failure}
        </p>
      )}
    </div>
  );
}
