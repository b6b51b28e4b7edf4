// The post's history (docs/product.md, "The studio"): every saved revision with who and when,
// newest first; one chosen is compared with the text being edited, and "Restore" makes it the
// current draft (a new revision; it never publishes).
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import type { StudioPostFields, StudioRevision } from '../../../api/contract/studio.ts';
import { errorMessage } from '../../lib/api.ts';
import { postRevisions } from '../../stores/studio.ts';
import { When } from '../moderation/parts.tsx';
import { buttons } from '../dialogs/DialogShell.tsx';
import { DiffView } from './DiffView.tsx';

interface Props {
  postId: number;
  current: StudioPostFields;
  currentRevision: number | null;
  onRestore: (revision: number) => Promise<void>;
}

export function HistoryPanel({ postId, current, currentRevision, onRestore }: Props) {
  const { data, error } = useStore(postRevisions.store(String(postId)));
  const [chosen, setChosen] = useState<number | null>(null);
  const [working, setWorking] = useState(false);
  const [notice, setNotice] = useState<{ text: string; failed: boolean } | null>(null);
  const revision = data?.find((r) => r.revision === chosen) ?? null;

  async function restore(r: StudioRevision) {
    if (working) return;
    setWorking(true);
    setNotice(null);
    try {
      await onRestore(r.revision);
      setNotice({
        text: `Revision ${r.revision} is the current draft again. Nothing was published: publish when it is ready.`,
        failed: false,
      });
      setChosen(null);
    } catch (failure) {
      setNotice({ text: `Could not restore: ${errorMessage(failure)}`, failed: true });
    } finally {
      setWorking(false);
    }
  }

  return (
    <section aria-labelledby="history-heading" className="border-sand rounded-2xl border bg-white p-5">
      <h2 id="history-heading" className="text-ink text-lg font-bold">
        History
      </h2>
      {notice && (
        <p
          role={notice.failed ? 'alert' : 'status'}
          className={`mt-3 rounded-lg p-3 text-sm ${notice.failed ? 'bg-red-50 text-red-900' : 'bg-brand-light text-brand-dark'}`}
        >
          {notice.text}
        </p>
      )}
      {!data ? (
        <p className="text-muted mt-2 text-sm" role={error ? 'alert' : undefined}>
          {error ? `Failed to load the history: ${errorMessage(error)}` : 'Loading the history…'}
        </p>
      ) : (
        <ol className="mt-3 space-y-2" aria-label="Revisions, newest first">
          {data.map((r) => (
            <li key={r.revision} className="border-sand rounded-lg border p-3 text-sm">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="text-ink font-semibold">Revision {r.revision}</span>
                {r.revision === currentRevision && <span className="text-muted">(current)</span>}
                <span className="text-muted">
                  {r.savedBy || 'Someone'}, <When iso={r.savedAt} />
                  {r.restoredFrom !== null && `, restored from revision ${r.restoredFrom}`}
                </span>
                <button
                  type="button"
                  aria-expanded={chosen === r.revision}
                  aria-controls={chosen === r.revision ? `revision-${r.revision}-diff` : undefined}
                  onClick={() => setChosen(chosen === r.revision ? null : r.revision)}
                  className="text-brand-dark ml-auto font-semibold underline underline-offset-4"
                >
                  {chosen === r.revision ? 'Hide changes' : `Compare revision ${r.revision}`}
                </button>
              </div>
              {revision?.revision === r.revision && (
                <div id={`revision-${r.revision}-diff`} className="mt-3 space-y-3">
                  <DiffView
                    before={revision}
                    after={current}
                    beforeLabel={`revision ${r.revision}`}
                    afterLabel="the text you are editing"
                  />
                  <button
                    type="button"
                    className={buttons.secondary}
                    aria-disabled={working || undefined}
                    onClick={() => void restore(r)}
                  >
                    {working ? 'Restoring…' : `Restore revision ${r.revision}`}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
