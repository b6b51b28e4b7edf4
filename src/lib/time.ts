// Relative times for comments and the moderation console. Apart from format.ts so that islands
// which only format counts do not download date-fns.
import { formatDistanceToNow } from 'date-fns';
import { useSyncExternalStore } from 'react';

const MINUTE_MS = 60_000;

/** A span to the minute: "less than 1 min", "47 min", "1 h 5 min", "3 h"; whole days past two. */
function span(ms: number): string {
  const minutes = Math.floor(Math.abs(ms) / MINUTE_MS);
  if (minutes === 0) return 'less than 1 min';
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) {
    const rest = minutes % 60;
    return `${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''}`;
  }
  return `${Math.floor(minutes / (24 * 60))} days`;
}

/**
 * How long a moderator has left, exactly (docs/product.md, "Reports"): "Due in 47 min",
 * "Overdue by 12 min". Rounded down, so what it says is never more time than there is.
 */
export function dueLabel(dueAt: string, now: number): { text: string; overdue: boolean } {
  const left = Date.parse(dueAt) - now;
  return left >= 0
    ? { text: `Due in ${span(left)}`, overdue: false }
    : { text: `Overdue by ${span(left)}`, overdue: true };
}

const noSubscription = () => () => {};

// One clock for every label that counts minutes, read every 15 s while something shows one.
let clockNow = Date.now();
const clockListeners = new Set<() => void>();
let clockTimer: ReturnType<typeof setInterval> | null = null;

function subscribeClock(listener: () => void): () => void {
  clockListeners.add(listener);
  if (!clockTimer) {
    clockNow = Date.now();
    clockTimer = setInterval(() => {
      clockNow = Date.now();
      for (const notify of clockListeners) notify();
    }, MINUTE_MS / 4);
  }
  return () => {
    clockListeners.delete(listener);
    if (clockListeners.size === 0 && clockTimer) {
      clearInterval(clockTimer);
      clockTimer = null;
    }
  };
}

/**
 * The time now, moving on while `active` (for labels that count minutes: a due time, the edit
 * window). Inactive, nothing ticks and nothing re-renders.
 */
export function useClock(active = true): number {
  return useSyncExternalStore(
    active ? subscribeClock : noSubscription,
    () => clockNow,
    () => clockNow,
  );
}

/** "14 minutes", "1 minute", "less than a minute": what is left of a window (the edit window). */
export function minutesLeft(until: string | null, now: number): string {
  const minutes = Math.floor(((until ? Date.parse(until) : now) - now) / MINUTE_MS);
  if (minutes < 1) return 'less than a minute';
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

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
