// What the writer can do with the post (docs/product.md, "The studio"): an author submits it for
// review; an editor or admin publishes it now, schedules it or withdraws it, and follows the
// publish until it is live. Everyone can preview it in a new tab. Each action saves first.
import { lazy, Suspense, useState } from 'react';
import { canPublishPosts, type PostStatus } from '../../../api/contract/studio.ts';
import { PublishProgressBar } from '../../components/PublishProgressBar.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/time.ts';
import { publishPost, submitPost, withdrawPost } from '../../stores/studio.ts';
import { toast } from '../../stores/toast.ts';
import { buttons } from '../dialogs/DialogShell.tsx';
import { ScheduleDialog } from './ScheduleDialog.tsx';
import { type Progress, usePublishProgress } from './usePublishProgress.ts';

const ActionDialog = lazy(() =>
  import('../dialogs/ActionDialog.tsx').then((m) => ({ default: m.ActionDialog })),
);

interface Props {
  uid: string;
  role: string | null | undefined;
  postId: number | null;
  status: PostStatus;
  slug: string;
  /** Sends what is typed and not yet saved: the post's id once the server has everything, else null. */
  saveFirst: () => Promise<number | null>;
}

interface Run {
  /** What the run makes live: the post, or the site without it. */
  action: 'publish' | 'withdraw';
  releaseId: number | null;
  scheduledFor: string | null;
}

function withdrawText(progress: Progress | null): string {
  switch (progress?.kind) {
    case undefined:
    case 'building':
    case 'ready':
      return 'Withdrawing: building the site without it…';
    case 'live':
      return 'Withdrawn: readers no longer see it.';
    case 'failed':
      return `The withdrawal went wrong: ${progress.error}`;
  }
}

function progressText(progress: Progress | null, run: Run | null): string | null {
  if (!run) return null;
  if (run.action === 'withdraw') return withdrawText(progress);
  const when = run.scheduledFor ? formatDateTime(run.scheduledFor) : null;
  if (!progress) return when ? `Scheduled for ${when}.` : 'Published.';
  switch (progress.kind) {
    case 'building':
      return when ? `Scheduled for ${when}. Building the site…` : 'Building the site…';
    case 'ready':
      return `Scheduled: it goes live on ${when ?? 'its date'}.`;
    case 'live':
      return 'Live';
    case 'failed':
      return `The publish went wrong: ${progress.error}`;
  }
}

export function PostActions({ uid, role, postId, status, slug, saveFirst }: Props) {
  const [working, setWorking] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'schedule' | 'withdraw' | null>(null);
  const [run, setRun] = useState<Run | null>(null);
  const [error, setError] = useState<string | null>(null);
  const progress = usePublishProgress(run?.releaseId ?? null, run?.scheduledFor !== null);
  const editor = canPublishPosts(role);
  const live = status === 'published' || status === 'scheduled';

  /** Saves, then does the action; a failure is shown and thrown on (for a dialog to show). */
  async function act<T>(name: string, action: (id: number) => Promise<T>): Promise<T> {
    setWorking(name);
    setError(null);
    try {
      const id = await saveFirst();
      if (id === null) throw new Error('The draft is not saved yet; see the status above.');
      return await action(id);
    } finally {
      setWorking(null);
    }
  }

  const perform = (name: string, action: (id: number) => Promise<unknown>) =>
    void act(name, action).catch((failure: unknown) => setError(errorMessage(failure)));

  async function publish(at: string | null) {
    const answer = await act('publish', (id) => publishPost(uid, id, at));
    setRun({
      action: 'publish',
      releaseId: answer.releaseId,
      scheduledFor: answer.status === 'scheduled' ? answer.publishAt : null,
    });
  }

  const busy = (name: string) => (working === name ? { 'aria-disabled': true } : {});
  const text = progressText(progress, run);

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        {!editor && status !== 'review' && !live && (
          <button
            type="button"
            className={buttons.primary}
            {...busy('submit')}
            onClick={() =>
              perform('submit', async (id) => {
                await submitPost(uid, id);
                toast({ description: 'Submitted: an editor will review it.' });
              })
            }
          >
            {working === 'submit' ? 'Submitting…' : 'Submit for review'}
          </button>
        )}
        {editor && (
          <>
            <button
              type="button"
              className={buttons.primary}
              {...busy('publish')}
              onClick={() => void publish(null).catch((failure: unknown) => setError(errorMessage(failure)))}
            >
              {working === 'publish' && !dialog ? 'Publishing…' : 'Publish now'}
            </button>
            <button type="button" className={buttons.secondary} onClick={() => setDialog('schedule')}>
              Schedule…
            </button>
            {live && (
              <button type="button" className={buttons.secondary} onClick={() => setDialog('withdraw')}>
                Withdraw
              </button>
            )}
          </>
        )}
        {postId !== null && (
          <a
            href={`/studio/preview/?post=${postId}`}
            target="_blank"
            rel="noopener"
            onClick={() => void saveFirst()}
            className={buttons.secondary}
          >
            Preview<span className="sr-only"> (opens in a new tab)</span>
          </a>
        )}
      </div>
      {!editor && status === 'review' && (
        <p className="text-muted text-sm">Submitted: it waits for an editor to review and publish it.</p>
      )}
      {text && (
        <p
          role="status"
          className={`rounded-lg p-3 text-sm ${progress?.kind === 'failed' ? 'bg-red-50 text-red-900' : 'bg-brand-light text-brand-dark'}`}
        >
          {text}
          {progress?.kind === 'live' && run?.action === 'publish' && (
            <>
              {': '}
              <a href={`/blog/${slug}`} className="font-semibold underline">
                open the post
              </a>
            </>
          )}
        </p>
      )}
      {/* Beside the status, not in it: the status says it once, the counts move every second. */}
      {progress?.kind === 'building' && progress.step && (
        <PublishProgressBar
          progress={progress.step}
          name={run?.action === 'withdraw' ? 'Withdrawing' : 'Publishing'}
        />
      )}
      {error && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
          {error}
        </p>
      )}
      {dialog === 'schedule' && <ScheduleDialog onSchedule={publish} onClose={() => setDialog(null)} />}
      {dialog === 'withdraw' && (
        <Suspense fallback={null}>
          <ActionDialog
            title="Withdraw this post?"
            description="Readers no longer see it once the site is rebuilt; its comments and counts are kept. You can publish it again later."
            confirmLabel="Withdraw"
            reason="none"
            destructive
            onConfirm={async () => {
              const answer = await act('withdraw', (id) => withdrawPost(uid, id));
              setRun({ action: 'withdraw', releaseId: answer.releaseId, scheduledFor: null });
              toast({ description: 'Withdrawn: the site is being rebuilt without it.' });
            }}
            onClose={() => setDialog(null)}
          />
        </Suspense>
      )}
    </div>
  );
}
