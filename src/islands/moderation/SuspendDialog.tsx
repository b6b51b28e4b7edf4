// Suspending a parent from the moderation console.
import { useId, useState } from 'react';
import { SUSPENSION_DAYS_MAX } from '../../../api/contract.ts';
import { ActionDialog } from '../dialogs/ActionDialog.tsx';

/** Suspending a parent: for a number of days or until lifted, with a reason. */
export function SuspendDialog({
  name,
  onConfirm,
  onClose,
  fallbackFocus,
}: {
  name: string;
  onConfirm: (days: number | null, reason: string) => Promise<void>;
  onClose: () => void;
  fallbackFocus: () => HTMLElement | null;
}) {
  const id = useId();
  const [length, setLength] = useState<'days' | 'lifted'>('days');
  const [days, setDays] = useState('7');
  const [daysError, setDaysError] = useState<string | null>(null);
  return (
    <ActionDialog
      title={`Suspend ${name || 'this parent'}?`}
      description="A suspended parent can still read, but every write (comments, replies, edits, likes, reports) is refused with your reason and the end date."
      confirmLabel="Suspend"
      reason="required"
      reasonLabel="Reason (shown to the parent)"
      destructive
      onClose={onClose}
      fallbackFocus={fallbackFocus}
      onConfirm={async (reason) => {
        const count = Number(days);
        if (length === 'days' && !(Number.isInteger(count) && count >= 1 && count <= SUSPENSION_DAYS_MAX)) {
          const message = `Enter a whole number of days from 1 to ${SUSPENSION_DAYS_MAX}.`;
          setDaysError(message);
          throw new Error(message);
        }
        setDaysError(null);
        await onConfirm(length === 'days' ? count : null, reason ?? '');
      }}
    >
      <fieldset>
        <legend className="text-ink text-sm font-medium">How long</legend>
        <div className="mt-2 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <input
              id={`${id}-days-choice`}
              type="radio"
              name={`${id}-length`}
              checked={length === 'days'}
              onChange={() => setLength('days')}
              className="accent-brand h-4 w-4"
            />
            <label htmlFor={`${id}-days-choice`} className="text-ink text-sm">
              For a number of days
            </label>
            <label htmlFor={`${id}-days`} className="sr-only">
              Number of days
            </label>
            <input
              id={`${id}-days`}
              type="number"
              inputMode="numeric"
              min={1}
              max={SUSPENSION_DAYS_MAX}
              value={days}
              disabled={length !== 'days'}
              onChange={(event) => setDays(event.target.value)}
              aria-invalid={daysError ? true : undefined}
              className="border-sand text-ink focus:border-brand focus:ring-brand/30 w-24 rounded-lg border bg-white px-3 py-1.5 focus:ring-2 focus:outline-none disabled:bg-gray-100"
            />
          </div>
          <div className="flex items-center gap-2">
            <input
              id={`${id}-lifted`}
              type="radio"
              name={`${id}-length`}
              checked={length === 'lifted'}
              onChange={() => setLength('lifted')}
              className="accent-brand h-4 w-4"
            />
            <label htmlFor={`${id}-lifted`} className="text-ink text-sm">
              Until a moderator lifts it
            </label>
          </div>
        </div>
      </fieldset>
    </ActionDialog>
  );
}
