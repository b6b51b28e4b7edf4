// @vitest-environment jsdom
// The post stores (src/stores/posts.ts) with their real query layer. Only the network is stubbed:
// globalThis.fetch answers, and the test decides when a slow answer arrives.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { exitDemoMode, startDemoMode } from '../../src/stores/auth.ts';
import { likeStatus, postStats, toggleLike } from '../../src/stores/posts.ts';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  startDemoMode(); // a token for the like, without the identity provider
});
afterEach(() => {
  exitDemoMode();
  vi.unstubAllGlobals();
});

describe('a like and a slow like-status answer', () => {
  it('keeps the count the like answered when the status asked before it arrives after it', async () => {
    const slug = 'a-slow-post';
    let releaseStatus!: () => void;
    const statusHeld = new Promise<void>((resolve) => (releaseStatus = resolve));
    const statusAnswered = vi.fn();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input instanceof Request ? input.url : input);
        const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
        if (url.endsWith(`/${slug}/stats`))
          return json({ postId: 1, viewCount: 5, likeCount: 12, commentCount: 0 });
        if (url.endsWith(`/${slug}/like-status`)) {
          // Answered by the server before the like, delivered after it.
          const before = json({ liked: false, likeCount: 12 });
          await statusHeld;
          statusAnswered();
          return before;
        }
        if (url.endsWith(`/${slug}/like`) && method === 'POST') return json({ liked: true, likeCount: 13 });
        return new Response('{"error":"not here"}', { status: 404 });
      }),
    );

    // The page's islands keep both stores listened to.
    const stopStats = postStats.store(slug).listen(() => {});
    await vi.waitFor(() => expect(postStats.get(slug)?.likeCount).toBe(12));
    const status = likeStatus.store(`${slug}|demo`);
    const unsubscribe = status.listen(() => {});
    await vi.waitFor(() =>
      expect(vi.mocked(fetch).mock.calls.some(([u]) => String(u).endsWith('like-status'))).toBe(true),
    );

    expect(await toggleLike(slug, 'demo')).toEqual({ liked: true, likeCount: 13 });
    expect(postStats.get(slug)?.likeCount).toBe(13);

    releaseStatus();
    await vi.waitFor(() => expect(statusAnswered).toHaveBeenCalled());
    await vi.waitFor(() => expect(status.get().loading).toBe(false));
    expect(likeStatus.get(`${slug}|demo`)).toEqual({ liked: true, likeCount: 13 });
    expect(postStats.get(slug)?.likeCount).toBe(13);
    unsubscribe();
    stopStats();
  });
});
