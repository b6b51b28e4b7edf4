// @vitest-environment jsdom
// Pre-rendered times hydrate without a mismatch however long after the build the page is read.
import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTimeLabels } from '../../src/lib/time.ts';

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
    expect(html).toContain('on 20 Nov 2026');

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
