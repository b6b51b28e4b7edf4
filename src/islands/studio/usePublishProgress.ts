// A publish's progress, followed until it has finished (docs/product.md, "Publishing"): the run
// is asked for every two seconds while it is queued or building, with what it is doing meanwhile.
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { PublishProgress, PublishRun } from '../../../api/contract.ts';
import { followRun, publishRun } from '../../stores/studio.ts';

export const PROGRESS_POLL_MS = 2_000;

const FINISHED = new Set<PublishRun['state']>(['succeeded', 'failed', 'rolled_back', 'retired']);

export type Progress =
  /** `step`: the phase and counts while the run syncs or builds; null while it is queued. */
  | { kind: 'building'; step: PublishProgress | null }
  | { kind: 'live' }
  | { kind: 'ready' }
  | { kind: 'failed'; error: string };

/** What a run means for the post: still building, live, built for a time to come, or failed. */
export function progressOf(run: PublishRun | undefined, scheduled: boolean): Progress {
  if (!run || !FINISHED.has(run.state)) return { kind: 'building', step: run?.progress ?? null };
  if (run.state === 'failed') return { kind: 'failed', error: run.error ?? 'the build failed' };
  return scheduled ? { kind: 'ready' } : { kind: 'live' };
}

export function usePublishProgress(releaseId: number | null, scheduled: boolean): Progress | null {
  const { data } = useStore(publishRun.store(releaseId === null ? null : String(releaseId)));
  const progress = progressOf(data, scheduled);
  const building = releaseId !== null && progress.kind === 'building';
  useEffect(() => {
    if (!building || releaseId === null) return;
    const timer = setInterval(() => followRun(releaseId), PROGRESS_POLL_MS);
    return () => clearInterval(timer);
  }, [building, releaseId]);
  return releaseId === null ? null : progress;
}
