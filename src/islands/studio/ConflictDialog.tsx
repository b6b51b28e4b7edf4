// Someone saved the post after the editor opened it (a 409): what they changed, and the two ways
// on. Radix Dialog moves focus into it, keeps it there and closes on Escape.
import type { StudioPostFields, StudioRevision } from '../../../api/contract/studio.ts';
import { formatDateTime } from '../../lib/time.ts';
import { buttons, DialogShell } from '../dialogs/DialogShell.tsx';
import { DiffView } from './DiffView.tsx';

interface Props {
  /** The text the editor's changes were made on. */
  base: StudioPostFields;
  baseRevision: number | null;
  latest: StudioRevision;
  onKeepMine: () => void;
  onUseTheirs: () => void;
  onClose: () => void;
}

export function ConflictDialog({ base, baseRevision, latest, onKeepMine, onUseTheirs, onClose }: Props) {
  return (
    <DialogShell
      title="Someone else saved this post"
      description={
        <>
          {latest.savedBy || 'Someone'} saved revision {latest.revision} on {formatDateTime(latest.savedAt)},
          after the version you were editing{baseRevision === null ? '' : ` (revision ${baseRevision})`}. Your
          changes are not saved yet; they are kept in this browser. Here is what they changed:
        </>
      }
      onClose={onClose}
    >
      <DiffView
        before={base}
        after={latest}
        beforeLabel={baseRevision === null ? 'your starting version' : `revision ${baseRevision}`}
        afterLabel={`revision ${latest.revision}`}
      />
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <button type="button" className={buttons.secondary} onClick={onUseTheirs}>
          Use theirs
        </button>
        <button type="button" className={buttons.primary} onClick={onKeepMine}>
          Keep my version
        </button>
      </div>
      <p className="text-muted mt-3 text-xs">
        “Keep my version” saves your text on top of theirs (their revision stays in the history). “Use theirs”
        replaces your changes with their version.
      </p>
    </DialogShell>
  );
}
