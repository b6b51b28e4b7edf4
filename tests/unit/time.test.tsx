// @vitest-environment jsdom
// Pre-rendered times hydrate without a mismatch however long after the build the page is read.
import { act } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRoot, hydrateRoot } from 'react-dom/client';
import {
  dueLabel,
  formatDate,
  formatDateTime,
  timeLabels,
  useClock,
  useTimeLabels,
} from '../../src/lib/time.ts';

function Stamp({ iso }: { iso: string }) {
  const labels = useTimeLabels(iso);
  return <time title={labels?.absolute}>{labels?.relative}</time>;
}

afterEach(() => vi.useRealTimers());

describe('useTimeLabels', () => {
  it('renders the UTC day at build time and the relative time once hydrated, hours later', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-20T23:50:00Z'));
    const iso = '2026-11-20T23:40:00Z';
    const html = renderToString(<Stamp iso={iso} />);
    expect(html).toContain('November 20, 2026');

    // Read three hours later, across midnight: what the first render would now say differs.
    vi.setSystemTime(new Date('2026-11-21T02:50:00Z'));
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const recoverable: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, <Stamp iso={iso} />, { onRecoverableError: (error) => recoverable.push(error) });
    });
    expect(recoverable).toEqual([]);
    expect(container.textContent).toBe('about 3 hours ago');
    container.remove();
  });

  it('shows nothing for a missing or invalid time', () => {
    expect(renderToString(<Stamp iso="not a time" />)).toBe('<time></time>');
  });
});

describe('the one date formatter', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');

  it('is relative within a week, then the long date, with the time of day in full', () => {
    expect(timeLabels('2026-11-24T11:13:00Z', now)?.relative).toBe('about 1 hour ago');
    expect(timeLabels('2026-11-27T12:00:00Z', now)?.relative).toBe('in 3 days');
    expect(timeLabels('2026-11-17T12:00:01Z', now)?.relative).toBe('7 days ago');
    // A week or more away: the date, as posts and every other screen write it.
    expect(timeLabels('2026-11-17T12:00:00Z', now)?.relative).toBe(formatDate('2026-11-17T12:00:00Z'));
    expect(formatDate('2026-10-11T12:00:00Z')).toBe('October 11, 2026');
    expect(formatDateTime('2026-10-11T12:00:00Z')).toMatch(/^October 11, 2026 at \d{1,2}:\d\d [AP]M$/);
    expect(timeLabels('2026-10-11T12:00:00Z', now)?.absolute).toBe(formatDateTime('2026-10-11T12:00:00Z'));
  });

  it('writes a dash for a missing or invalid time', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDateTime('not a time')).toBe('—');
    expect(timeLabels('not a time', now)).toBeNull();
  });
});

describe('dueLabel', () => {
  const due = '2026-11-24T14:00:00.000Z';
  const at = (iso: string) => dueLabel(due, Date.parse(iso));

  it('says the minutes left, rounded down, never more time than there is', () => {
    expect(at('2026-11-24T13:12:30Z')).toEqual({ text: 'Due in 47 min', overdue: false });
    expect(at('2026-11-24T13:00:00.001Z')).toEqual({ text: 'Due in 59 min', overdue: false });
    expect(at('2026-11-24T13:00:00Z')).toEqual({ text: 'Due in 1 h', overdue: false });
    expect(at('2026-11-23T14:55:00Z')).toEqual({ text: 'Due in 23 h 5 min', overdue: false });
    expect(at('2026-11-24T13:59:30Z')).toEqual({ text: 'Due in less than 1 min', overdue: false });
    expect(at('2026-11-24T14:00:00Z')).toEqual({ text: 'Due in less than 1 min', overdue: false });
  });

  it('says how long overdue', () => {
    expect(at('2026-11-24T14:00:00.001Z')).toEqual({ text: 'Overdue by less than 1 min', overdue: true });
    expect(at('2026-11-24T14:12:59Z')).toEqual({ text: 'Overdue by 12 min', overdue: true });
    expect(at('2026-11-24T16:05:00Z')).toEqual({ text: 'Overdue by 2 h 5 min', overdue: true });
    expect(at('2026-11-27T15:00:00Z')).toEqual({ text: 'Overdue by 3 days', overdue: true });
  });
});

describe('useClock', () => {
  function Due({ iso }: { iso: string }) {
    return <span>{dueLabel(iso, useClock()).text}</span>;
  }

  it('moves the label on while it is shown', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-24T13:12:30Z'));
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    await act(async () => root.render(<Due iso="2026-11-24T14:00:00Z" />));
    expect(container.textContent).toBe('Due in 47 min');
    await act(async () => vi.advanceTimersByTime(60_000));
    expect(container.textContent).toBe('Due in 46 min');
    await act(async () => vi.advanceTimersByTime(47 * 60_000));
    expect(container.textContent).toBe('Overdue by less than 1 min');
    await act(async () => root.unmount());
    container.remove();
  });
});
