// The publishing panel's list of recent releases, and the words for a release's state and origin.
import { type PublishRun, type PublishState, RELEASES_KEPT } from '../../../api/contract.ts';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { formatDateTime } from '../../lib/time.ts';

const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);

export const STATE_LABELS: Record<PublishState, string> = {
  queued: 'Queued',
  syncing: 'Gathering posts',
  building: 'Building',
  succeeded: 'Published',
  failed: 'Failed',
  rolled_back: 'Rolled back',
  retired: 'Retired',
};

/** Who or what asked for a release, in words (the run keeps how it was started). */
function origin(trigger: string): string {
  if (trigger.startsWith('admin')) return 'published from this page';
  if (trigger === 'start') return 'made when the site started';
  if (trigger === 'command line') return 'published on the server';
  if (trigger.startsWith('schedule')) return 'for a post’s scheduled time';
  if (trigger.startsWith('recall confirmed')) return 'after a recall was confirmed';
  if (trigger.startsWith('recall')) return 'with new recall data';
  return 'made automatically';
}

export function posts(run: PublishRun): string {
  if (run.postCount === null) return '—';
  return `${run.postCount} (${run.postsChanged} changed)`;
}

const releaseColumns: Column<PublishRun>[] = [
  {
    head: 'Release',
    cell: (run) => (
      <>
        #{run.id} <span className="text-muted">({origin(run.trigger)})</span>
      </>
    ),
  },
  {
    head: 'State',
    cell: (run) => (
      <span className="font-semibold">
        {STATE_LABELS[run.state]}
        {run.live && (
          <span className="bg-brand-light text-brand-dark ml-2 rounded-full px-2 py-0.5 text-xs">Live</span>
        )}
      </span>
    ),
  },
  { head: 'Started', cell: (run) => formatDateTime(run.startedAt) },
  { head: 'Duration', cell: (run) => seconds(run.durationMs) },
  { head: 'Posts', cell: (run) => posts(run) },
  {
    head: 'Problem',
    cell: (run) =>
      run.error ? (
        <>
          <span className="text-red-900">Not published: readers kept the release before it.</span>
          <details className="mt-1">
            <summary className="text-muted cursor-pointer">What went wrong</summary>
            <code className="mt-1 block text-xs break-all">{run.error}</code>
          </details>
        </>
      ) : (
        '—'
      ),
  },
];

export function ReleasesTable({ runs }: { runs: PublishRun[] }) {
  return (
    <DataTable
      caption={
        <>
          Recent releases{' '}
          <span className="text-muted font-normal">
            (the newest {RELEASES_KEPT} builds are kept to roll back to)
          </span>
        </>
      }
      columns={releaseColumns}
      rows={runs}
      rowKey={(run) => run.id}
      empty="No releases yet."
    />
  );
}
