// Relative times for comments and the moderation console. Apart from format.ts so that islands
// which only format counts do not download date-fns.
import { formatDistanceToNow } from 'date-fns';

/** A time as "3 hours ago" and in full ("22 November 2026 at 12:00"); null for an invalid one. */
export function timeLabels(iso: string): { relative: string; absolute: string } | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return {
    relative: formatDistanceToNow(date, { addSuffix: true }),
    absolute: date.toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' }),
  };
}
