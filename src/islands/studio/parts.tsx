// Pieces the studio's screens share: a post's state as a badge, field styles, and the editor's
// short time of day.
import { POST_STATUS_LABELS, type PostStatus } from '../../../api/contract/studio.ts';

const STATUS_STYLES: Record<PostStatus, string> = {
  draft: 'bg-gray-100 text-gray-800',
  review: 'bg-amber-100 text-amber-950',
  scheduled: 'bg-sky-100 text-sky-950',
  published: 'bg-green-100 text-green-950',
  withdrawn: 'bg-red-100 text-red-900',
};

export function StatusBadge({ status }: { status: PostStatus }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[status]}`}
    >
      {POST_STATUS_LABELS[status]}
    </span>
  );
}

export const field =
  'border-sand text-ink focus:border-brand focus:ring-brand/30 mt-1 block w-full rounded-lg border bg-white px-3 py-2 focus:ring-2 focus:outline-none';
export const label = 'text-ink text-sm font-semibold';
export const hint = 'text-muted mt-1 text-xs';

const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

/** "12:04", in the editor's time zone. */
export function timeOfDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : clock.format(date);
}

/** The editor's time zone, named: "Europe/Berlin". */
export function timeZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
