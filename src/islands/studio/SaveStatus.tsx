// The editor's status line: whether the server has the draft, or why not.
import { timeOfDay } from './parts.tsx';
import type { SaveState } from './useDraftKeeping.ts';

export const OFFLINE_TEXT =
  'Offline: your changes are kept in this browser and will be saved when you’re back online';

export function statusText(state: SaveState): string {
  switch (state.kind) {
    case 'idle':
      return 'No changes yet';
    case 'unsaved':
      return 'Unsaved changes';
    case 'saving':
      return 'Saving…';
    case 'saved':
      return `Saved ${timeOfDay(state.at)}`;
    case 'offline':
      return OFFLINE_TEXT;
    case 'failed':
      return `Not saved: ${state.message.replace(/\.?$/, '.')} Your changes are kept in this browser.`;
    case 'conflict':
      return 'Not saved: someone else saved this post since you opened it.';
  }
}

export function SaveStatus({ state, onShowConflict }: { state: SaveState; onShowConflict: () => void }) {
  const problem = state.kind === 'offline' || state.kind === 'failed' || state.kind === 'conflict';
  return (
    <p
      role="status"
      className={`text-sm ${problem ? 'rounded-lg bg-amber-50 px-3 py-2 text-amber-950' : 'text-muted'}`}
    >
      {statusText(state)}
      {state.kind === 'conflict' && (
        <button type="button" onClick={onShowConflict} className="ml-2 font-semibold underline">
          Show what changed
        </button>
      )}
    </p>
  );
}
