// @vitest-environment jsdom
// The favourites store (src/stores/favourites.ts) with its real API client. Only the network is
// stubbed: globalThis.fetch answers as the API would, and the test decides when the first list's
// answer arrives.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Item } from '../../api/contract.ts';
import { $auth, resetAuthForTests } from '../../src/stores/auth.ts';
import { $favourites, isSaved, toggleFavourite, watchFavourites } from '../../src/stores/favourites.ts';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

const item = (itemId: string): Item => ({
  itemId,
  itemName: `Item ${itemId}`,
  category: 'toys',
  listingPrice: '10.00',
  imageUrl: null,
  condition: null,
  brand: null,
  ageGroup: '0-12 months',
  checks: { checkedAt: '2026-11-28T00:00:00.000Z', ran: ['rules'] },
  safetyNotes: [],
});

const saved = (itemId: string) => ({
  itemId,
  savedAt: '2026-11-28T00:00:00.000Z',
  priceWhenSaved: '10.00',
  state: 'available',
  removedForSafety: false,
  item: item(itemId),
  itemName: `Item ${itemId}`,
});

// The store is the page's one (module state), and an earlier file in this worker may have left a
// parent signed in to it: it starts from a signed-out page, as a page does.
beforeEach(() => {
  $auth.set({ user: null, profile: null, loading: false, demoMode: false });
});
afterEach(() => {
  resetAuthForTests();
  vi.unstubAllGlobals();
});

describe('hearts pressed while the first list is on its way', () => {
  it('keeps them pressed when the older list arrives, and asks again once they are answered', async () => {
    // The server's saved items; the first list is answered as they were when it was asked.
    const server: string[] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let lists = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const request =
          input instanceof Request ? input : new Request(new URL(String(input), 'http://x'), init);
        const path = new URL(request.url).pathname;
        if (path === '/api/favourites' && request.method === 'GET') {
          lists += 1;
          const snapshot = server.map(saved);
          if (lists === 1) await firstHeld;
          return json({ items: snapshot });
        }
        const id = /^\/api\/favourites\/(.+)$/.exec(path)?.[1];
        if (id && request.method === 'PUT') {
          if (!server.includes(id)) server.unshift(id);
          return json({ count: server.length });
        }
        return new Response('{"error":"not here"}', { status: 404 });
      }),
    );
    watchFavourites(true);
    $auth.set({
      user: {
        uid: 'parent-1',
        displayName: 'Ann',
        email: null,
        photoURL: null,
        emailVerified: true,
        isAnonymous: false,
      },
      profile: null,
      loading: false,
      demoMode: false,
    });
    await vi.waitFor(() => expect(lists).toBe(1));

    await Promise.all([toggleFavourite(item('a')), toggleFavourite(item('b'))]);
    expect($favourites.get()).toMatchObject({ count: 2 });
    releaseFirst();

    // The list asked for before the hearts is not applied; the one asked after them is.
    await vi.waitFor(() => expect(lists).toBe(2));
    await vi.waitFor(() => expect($favourites.get().ids).toEqual(['b', 'a']));
    const state = $favourites.get();
    expect(state.count).toBe(2);
    expect(isSaved(state, 'a') && isSaved(state, 'b')).toBe(true);
  });
});
