// "Schedule…": a date and time in the editor's own time zone (named beside it), sent as an ISO
// time in UTC. A time already past is refused here, with a message.
import { type SubmitEvent, useId, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/time.ts';
import { buttons, DialogShell } from '../dialogs/DialogShell.tsx';
import { field, hint, label, timeZoneName } from './parts.tsx';

const pad = (n: number) => String(n).padStart(2, '0');

/** A time as a datetime-local input writes it, in this browser's time zone: "2026-11-26T14:30". */
export function localInputValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The UTC time of a datetime-local value, or why it cannot be scheduled. */
export function scheduleTime(value: string, now: number): { at: string } | { problem: string } {
  const date = value ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return { problem: 'Choose a date and time.' };
  if (date.getTime() <= now) return { problem: 'That time has passed: choose a time in the future.' };
  return { at: date.toISOString() };
}

interface Props {
  onSchedule: (at: string) => Promise<void>;
  onClose: () => void;
}

export function ScheduleDialog({ onSchedule, onClose }: Props) {
  const id = useId();
  const zone = timeZoneName();
  const [value, setValue] = useState(() => localInputValue(new Date(Date.now() + 60 * 60_000)));
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (working) return;
    const time = scheduleTime(value, Date.now());
    if ('problem' in time) {
      setError(time.problem);
      document.getElementById(`${id}-at`)?.focus();
      return;
    }
    setWorking(true);
    setError(null);
    try {
      await onSchedule(time.at);
      onClose();
    } catch (failure) {
      setError(errorMessage(failure));
      setWorking(false);
    }
  }

  const chosen = scheduleTime(value, 0);
  return (
    <DialogShell
      title="Schedule this post"
      description="It goes live for readers within a minute of the time you choose: its page, the blog list, the feed and search together."
      onClose={onClose}
    >
      <form onSubmit={submit} noValidate className="space-y-4" aria-busy={working || undefined}>
        <div>
          <label htmlFor={`${id}-at`} className={label}>
            Date and time ({zone})
          </label>
          <input
            id={`${id}-at`}
            type="datetime-local"
            value={value}
            min={localInputValue(new Date())}
            required
            onChange={(event) => setValue(event.target.value)}
            aria-describedby={`${id}-zone${error ? ` ${id}-error` : ''}`}
            aria-invalid={error ? true : undefined}
            className={field}
          />
          <p id={`${id}-zone`} className={hint}>
            In your time zone, {zone}
            {'at' in chosen ? ` (${formatDateTime(chosen.at)})` : ''}.
          </p>
        </div>
        {error && (
          <p id={`${id}-error`} role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className={buttons.secondary}>
            Cancel
          </button>
          <button type="submit" aria-disabled={working || undefined} className={buttons.primary}>
            {working ? 'Scheduling…' : 'Schedule'}
          </button>
        </div>
      </form>
    </DialogShell>
  );
}
