// Reporting a comment: one of the five categories (a labelled radio group), an optional note, and
// what happens next. Loaded on the first Report click (docs/decisions/003).
import { type SubmitEvent, useId, useState } from 'react';
import {
  REPORT_CATEGORIES,
  REPORT_CATEGORY_LABELS,
  REPORT_NOTE_MAX,
  type ReportCategory,
  type Reply,
} from '../../../api/contract.ts';
import { errorMessage } from '../../lib/api.ts';
import { buttons, CountedTextarea, DialogFooter, DialogShell } from '../dialogs/DialogShell.tsx';

const HINTS: Record<ReportCategory, string> = {
  child_safety: 'Anything that could put a child at risk. Escalated to our safety team at once.',
  unsafe_item: 'Recalled, damaged or unsafe children’s items.',
  inappropriate_content: 'Abuse, harassment, hate or content not suitable for a family community.',
  suspicious_behavior: 'Scams, pressure to trade off the platform, or anything that feels off.',
  suspected_non_parent: 'Someone who does not seem to be a parent or carer.',
};

interface Props {
  comment: Reply;
  /** Sends the report; returns the comment as it now stands (held, if this report hid it). */
  onSubmit: (report: { category: ReportCategory; note: string | null }) => Promise<Reply>;
  onClose: () => void;
  fallbackFocus: () => HTMLElement | null;
}

export function ReportDialog({ comment, onSubmit, onClose, fallbackFocus }: Props) {
  const id = useId();
  const [category, setCategory] = useState<ReportCategory | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const [done, setDone] = useState<{ category: ReportCategory; held: boolean } | null>(null);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (working) return;
    if (!category) {
      setError('Please choose what is wrong with this comment.');
      document.getElementById(`${id}-${REPORT_CATEGORIES[0]}`)?.focus();
      return;
    }
    setWorking(true);
    setError(null);
    try {
      const after = await onSubmit({ category, note: note.trim() || null });
      setDone({ category, held: after.status === 'held' });
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setWorking(false);
    }
  }

  if (done) {
    return (
      <DialogShell
        title="Report received"
        description="Thank you for looking out for the community."
        onClose={onClose}
        fallbackFocus={fallbackFocus}
      >
        <div role="status" className="text-ink space-y-2">
          {done.category === 'child_safety' ? (
            <p>
              Your report was received and escalated to our safety team at once. A moderator will review it
              within the hour. If a child is in danger right now, call your local emergency number.
            </p>
          ) : (
            <p>Your report was received. A parent moderator will review it within 24 hours.</p>
          )}
          {done.held && <p>The comment is hidden while a moderator reviews it.</p>}
        </div>
        <div className="mt-5 flex justify-end">
          <button type="button" onClick={onClose} className={buttons.primary} autoFocus>
            Close
          </button>
        </div>
      </DialogShell>
    );
  }

  return (
    <DialogShell
      title="Report this comment"
      description={
        <>
          Reports go to Nestling&apos;s parent moderators, who review them within 24 hours; child safety
          concerns at once.
          {comment.author_name ? ` ${comment.author_name} will not see who reported them.` : ''}
        </>
      }
      onClose={onClose}
      fallbackFocus={fallbackFocus}
    >
      <form onSubmit={submit} noValidate className="space-y-4" aria-busy={working || undefined}>
        <fieldset aria-describedby={error && !category ? `${id}-error` : undefined}>
          <legend className="text-ink text-sm font-semibold">What is wrong with this comment?</legend>
          <div className="mt-2 space-y-2">
            {REPORT_CATEGORIES.map((value) => (
              <label
                key={value}
                htmlFor={`${id}-${value}`}
                className="border-sand has-checked:border-brand has-checked:bg-brand-light/50 flex cursor-pointer gap-3 rounded-lg border p-3"
              >
                <input
                  id={`${id}-${value}`}
                  type="radio"
                  name={`${id}-category`}
                  value={value}
                  checked={category === value}
                  onChange={() => {
                    setCategory(value);
                    // A choice answers the missing-choice error; after a failed send, it is a new try.
                    setError(null);
                  }}
                  aria-describedby={`${id}-${value}-hint`}
                  className="accent-brand mt-1 h-4 w-4 shrink-0"
                />
                <span>
                  <span className="text-ink block text-sm font-medium">{REPORT_CATEGORY_LABELS[value]}</span>
                  <span id={`${id}-${value}-hint`} className="text-muted block text-xs">
                    {HINTS[value]}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <CountedTextarea
          id={`${id}-note`}
          label="Add a note (optional)"
          value={note}
          onChange={setNote}
          max={REPORT_NOTE_MAX}
        />
        <DialogFooter
          error={error}
          errorId={`${id}-error`}
          onCancel={onClose}
          submitLabel={working ? 'Sending…' : 'Send Report'}
          working={working}
        />
      </form>
    </DialogShell>
  );
}
