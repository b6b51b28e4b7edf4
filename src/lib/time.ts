// Relative times for comments and the moderation console. Apart from format.ts so that islands
// which only format counts do not download date-fns.
import { formatDistanceToNow } from 'date-fns';
import { useSyncExternalStore } from 'react';

/** A time as "3 hours ago" and in full ("22 November 2026 at 12:00"); null for an invalid one. */
function timeLabels(iso: string): { relative: string; absolute: string } | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return {
    relative: formatDistanceToNow(date, { addSuffix: true }),
    absolute: date.toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' }),
  };
}

// The same words on the build machine and in every browser: the day in UTC.
const stableDay = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

const noSubscription = () => () => {};

/**
 * The labels to show now. Pre-rendered HTML was written at build time, in the build machine's
 * locale, so until the island has hydrated it shows the day, which reads the same everywhere
 * (React refuses hydration when text differs); right after, the relative time and local date.
 */
export function useTimeLabels(iso: string | null): { relative: string; absolute: string } | null {
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  if (!iso) return null;
  if (hydrated) return timeLabels(iso);
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const day = stableDay.format(date);
  return { relative: `on ${day}`, absolute: day };
}
