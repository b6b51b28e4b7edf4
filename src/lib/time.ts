// Times for comments, account and staff screens. Apart from format.ts so that islands
// which only format counts do not download date-fns.
import { formatDistance } from 'date-fns/formatDistance';
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

// The product's one way to write a time (docs/product.md, "Dates and times"): relative while it is
// within a week, else the site's long date ("November 20, 2026"), in the reader's time zone.
const RECENT_MS = 7 * 24 * 60 * MINUTE_MS;
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });
const longDateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' });

const valid = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** "November 20, 2026", in the reader's time zone; '—' for a missing or invalid time. */
export function formatDate(iso: string | null): string {
  const date = iso ? valid(iso) : null;
  return date ? longDate.format(date) : '—';
}

/** "November 20, 2026 at 1:14 PM", in the reader's time zone; '—' for a missing or invalid time. */
export function formatDateTime(iso: string | null): string {
  const date = iso ? valid(iso) : null;
  return date ? longDateTime.format(date) : '—';
}

/** A time as "3 hours ago" (within a week) or its long date, and in full with its time of day. */
export function timeLabels(iso: string, now: number): { relative: string; absolute: string } | null {
  const date = valid(iso);
  if (!date) return null;
  return {
    relative:
      Math.abs(date.getTime() - now) < RECENT_MS
        ? formatDistance(date, now, { addSuffix: true })
        : longDate.format(date),
    absolute: longDateTime.format(date),
  };
}

// The same words on the build machine and in every browser: the day in UTC.
const stableDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/**
 * The labels to show now. Pre-rendered HTML was written at build time, in the build machine's
 * time zone, so until the island has hydrated it shows the UTC day, which reads the same
 * everywhere (React refuses hydration when text differs); right after, the labels of timeLabels.
 */
export function useTimeLabels(iso: string | null): { relative: string; absolute: string } | null {
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  if (!iso) return null;
  if (hydrated) return timeLabels(iso, Date.now());
  const date = valid(iso);
  if (!date) return null;
  const day = stableDay.format(date);
  return { relative: day, absolute: day };
}
