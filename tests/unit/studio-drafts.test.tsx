// @vitest-environment jsdom
// The studio's draft keeping (docs/product.md, "The studio"): every change is kept in this browser
// until the server has it, through a lost connection and a reload.
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StudioPostFields } from '../../api/contract/studio.ts';
import { statusText } from '../../src/islands/studio/SaveStatus.tsx';
import {
  draftKey,
  type KeptDraft,
  readKept,
  SAVE_DELAY_MS,
  type SaveResult,
  useDraftKeeping,
} from '../../src/islands/studio/useDraftKeeping.ts';
import { ApiError } from '../../src/lib/api.ts';

const fields = (markdown: string): StudioPostFields => ({
  title: 'Car seats, compared',
  slug: 'car-seats-compared',
  excerpt: '',
  markdown,
  categories: [],
  kind: 'article',
  featured: false,
  featuredImageUrl: null,
  featuredImageAlt: null,
});

let online = true;
beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  online = true;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** A server that answers `next` for each save, recording what it was sent. */
function server() {
  const sent: string[] = [];
  let answer: () => Promise<SaveResult> = () =>
    Promise.resolve({ kind: 'saved', at: '2026-11-26T12:04:00Z' });
  return {
    sent,
    answer: (next: () => Promise<SaveResult>) => (answer = next),
    save: (f: StudioPostFields) => {
      sent.push(f.markdown);
      return answer();
    },
  };
}

const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('useDraftKeeping', () => {
  it('keeps every change in this browser at once, sends it a second after typing stops, and forgets it once saved', async () => {
    const api = server();
    const key = draftKey(7);
    const { result } = renderHook(() =>
      useDraftKeeping({ storageKey: key, baseRevision: () => 3, save: api.save }),
    );
    act(() => result.current.edit(fields('First')));
    act(() => result.current.edit(fields('First words')));
    expect(readKept(key)).toMatchObject({ fields: { markdown: 'First words' }, baseRevision: 3 });
    expect(result.current.state.kind).toBe('unsaved');
    await wait(SAVE_DELAY_MS - 100);
    expect(api.sent).toEqual([]);
    await wait(100);
    expect(api.sent).toEqual(['First words']);
    expect(result.current.state).toEqual({ kind: 'saved', at: '2026-11-26T12:04:00Z' });
    expect(statusText(result.current.state)).toMatch(/^Saved \d\d:\d\d$/);
    expect(localStorage.getItem(key)).toBeNull();
  });

  it('keeps the changes while offline, says so, and saves them when the browser is back online', async () => {
    const api = server();
    const key = draftKey(7);
    const { result } = renderHook(() =>
      useDraftKeeping({ storageKey: key, baseRevision: () => 3, save: api.save }),
    );
    // The connection drops in the middle of a save: the request fails without an answer.
    api.answer(() => Promise.reject(new TypeError('Failed to fetch')));
    act(() => result.current.edit(fields('Typed before the connection went')));
    await wait(SAVE_DELAY_MS);
    expect(result.current.state.kind).toBe('offline');
    expect(statusText(result.current.state)).toBe(
      'Offline: your changes are kept in this browser and will be saved when you’re back online',
    );
    expect(readKept(key)?.fields.markdown).toBe('Typed before the connection went');

    // Still offline: more typing is kept, and nothing is sent.
    online = false;
    act(() => result.current.edit(fields('Typed while offline')));
    await wait(SAVE_DELAY_MS * 3);
    expect(api.sent).toEqual(['Typed before the connection went']);
    expect(result.current.state.kind).toBe('offline');
    expect(readKept(key)?.fields.markdown).toBe('Typed while offline');

    online = true;
    api.answer(() => Promise.resolve({ kind: 'saved', at: '2026-11-26T12:10:00Z' }));
    await act(async () => {
      window.dispatchEvent(new Event('online'));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(api.sent.at(-1)).toBe('Typed while offline');
    expect(result.current.state.kind).toBe('saved');
    expect(localStorage.getItem(key)).toBeNull();
  });

  it('keeps typing that arrives while a save is on its way, and saves it next', async () => {
    const api = server();
    const key = draftKey(7);
    let finish: (result: SaveResult) => void = () => undefined;
    api.answer(() => new Promise((resolve) => (finish = resolve)));
    const { result } = renderHook(() =>
      useDraftKeeping({ storageKey: key, baseRevision: () => 3, save: api.save }),
    );
    act(() => result.current.edit(fields('One')));
    await wait(SAVE_DELAY_MS);
    expect(result.current.state.kind).toBe('saving');
    act(() => result.current.edit(fields('One two')));
    await act(async () => finish({ kind: 'saved', at: '2026-11-26T12:04:00Z' }));
    expect(readKept(key)?.fields.markdown).toBe('One two');
    api.answer(() => Promise.resolve({ kind: 'saved', at: '2026-11-26T12:05:00Z' }));
    await wait(SAVE_DELAY_MS);
    expect(api.sent).toEqual(['One', 'One two']);
    expect(localStorage.getItem(key)).toBeNull();
  });

  it('keeps the changes when the server refuses them or someone saved first', async () => {
    const api = server();
    const key = draftKey(null);
    api.answer(() => Promise.reject(new ApiError(400, '400: slug', 'The slug is not valid.')));
    const { result } = renderHook(() =>
      useDraftKeeping({ storageKey: key, baseRevision: () => null, save: api.save }),
    );
    act(() => result.current.edit(fields('Refused')));
    await wait(SAVE_DELAY_MS);
    expect(result.current.state).toEqual({ kind: 'failed', message: 'The slug is not valid.' });
    expect(readKept(key)?.fields.markdown).toBe('Refused');

    api.answer(() => Promise.resolve({ kind: 'conflict' }));
    act(() => result.current.edit(fields('Too late')));
    await wait(SAVE_DELAY_MS);
    expect(result.current.state.kind).toBe('conflict');
    expect(readKept(key)?.fields.markdown).toBe('Too late');
    // "Use theirs": the kept changes are forgotten.
    act(() => result.current.discard('2026-11-26T12:06:00Z'));
    expect(localStorage.getItem(key)).toBeNull();
  });

  it('finds the changes a reload left behind, for that post only', () => {
    const kept: KeptDraft = {
      fields: fields('Never reached the server'),
      baseRevision: 4,
      keptAt: '2026-11-26T12:00:00Z',
    };
    localStorage.setItem(draftKey(7), JSON.stringify(kept));
    localStorage.setItem(draftKey(8), '{not json');
    const save = () => Promise.resolve<SaveResult>({ kind: 'saved', at: '' });
    const seven = renderHook(() => useDraftKeeping({ storageKey: draftKey(7), baseRevision: () => 4, save }));
    expect(seven.result.current.restored).toEqual(kept);
    const eight = renderHook(() => useDraftKeeping({ storageKey: draftKey(8), baseRevision: () => 1, save }));
    expect(eight.result.current.restored).toBeNull();
    const fresh = renderHook(() =>
      useDraftKeeping({ storageKey: draftKey(null), baseRevision: () => null, save }),
    );
    expect(fresh.result.current.restored).toBeNull();
  });
});
