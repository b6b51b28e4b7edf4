// @vitest-environment jsdom
// A running publish's progress on the two screens that show it (docs/product.md, "Publishing",
// "The studio"): /admin's publishing panel and the studio's publish status, in jsdom with the real
// islands and stores; only the network is stubbed (globalThis.fetch answers the API's JSON, one
// answer after another as the run moves on). Each screen keeps its own words and adds the bar.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublishProgress, PublishRun, PublishStatus } from '../../api/contract.ts';
import type { StudioPublishAnswer } from '../../api/contract/studio.ts';
import AdminPublish from '../../src/islands/AdminPublish.tsx';
import { PostActions } from '../../src/islands/studio/PostActions.tsx';
import { $toasts } from '../../src/stores/toast.ts';
import { signInAs } from '../helpers/signed-in.ts';

const realFetch = globalThis.fetch;
afterEach(() => {
  cleanup();
  globalThis.fetch = realFetch;
  $toasts.set([]);
});

/**
 * Answers each `METHOD /path` with the next of its bodies, the last one from then on; counts the
 * requests. Anything else is a 404.
 */
function stubFetch(answers: Record<string, unknown[]>) {
  const asked: Record<string, number> = {};
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const n = (asked[key] = (asked[key] ?? 0) + 1);
    const bodies = answers[key];
    const body = bodies ? bodies[Math.min(n, bodies.length) - 1] : { error: 'Not found' };
    return new Response(JSON.stringify(body), {
      status: bodies ? 200 : 404,
      headers: { 'Content-Type': 'application/json' },
    });
  }) as typeof fetch;
  return asked;
}

const run = (id: number, state: PublishRun['state'], progress: PublishProgress | null): PublishRun => ({
  id,
  trigger: 'admin (ari@example.com)',
  state,
  live: state === 'succeeded',
  requestedAt: '2026-11-22T12:00:00Z',
  startedAt: state === 'queued' ? null : '2026-11-22T12:00:01Z',
  finishedAt: state === 'succeeded' ? '2026-11-22T12:01:00Z' : null,
  durationMs: state === 'succeeded' ? 59_000 : null,
  postsChanged: 1,
  postCount: state === 'queued' ? null : 12,
  contentAsOf: state === 'queued' ? null : '2026-11-22T12:00:01Z',
  error: null,
  progress,
});

const rendering: PublishProgress = { phase: 'rendering', done: 1200, total: 3400, incremental: true };
const compressing: PublishProgress = { phase: 'compressing', done: 4, total: 9, incremental: false };

const status = (current: PublishRun | null): PublishStatus => {
  const live = run(11, 'succeeded', null);
  return { current, recent: current ? [current, live] : [live], live, previous: null };
};

describe('/admin while a publish runs', () => {
  it(
    'keeps its words, adds the phase, the counts and a bar, follows the run every two seconds, and drops the bar when it is done',
    { timeout: 20_000 },
    async () => {
      const asked = stubFetch({
        'GET /api/admin/publish': [
          status(run(12, 'building', rendering)),
          status(run(12, 'building', compressing)),
          status(null),
        ],
      });
      signInAs('admin');
      render(<AdminPublish />);

      await screen.findByText('Release #12: Building…');
      const bar = screen.getByRole('progressbar', { name: 'Release #12: Rendering pages' });
      expect(bar.getAttribute('value')).toBe('1200');
      expect(bar.getAttribute('max')).toBe('3400');
      expect(screen.getByText('1,200 of 3,400 pages')).toBeTruthy();
      expect(screen.getByText('Only the pages this change touches')).toBeTruthy();
      // Not inside the live region: the counts are not read out each time they move.
      expect(screen.getByText('Release #12: Building…').contains(bar)).toBe(false);
      expect(bar.closest('[aria-live]')).toBeNull();
      // The table the end-to-end tests read is as it was.
      const table = screen.getByRole('table', { name: /Recent releases/ });
      expect(within(table).getAllByRole('row')).toHaveLength(3);
      expect(within(table).queryByRole('progressbar')).toBeNull();

      // The next look comes two seconds later while a run is in progress (with room for a busy machine).
      const next = await screen.findByRole(
        'progressbar',
        { name: 'Release #12: Compressing' },
        { timeout: 4_000 },
      );
      expect(next.getAttribute('value')).toBe('4');
      expect(next.getAttribute('max')).toBe('9');
      expect(screen.getByText('4 of 9 files')).toBeTruthy();
      expect(screen.getByText('The whole site')).toBeTruthy();
      expect(asked['GET /api/admin/publish']).toBe(2);

      await screen.findByText('Nothing is running.', undefined, { timeout: 4_000 });
      expect(screen.queryByRole('progressbar')).toBeNull();
      expect(screen.queryByText('The whole site')).toBeNull();
    },
  );

  it('shows no bar for a run that is only queued', async () => {
    stubFetch({ 'GET /api/admin/publish': [status(run(13, 'queued', null))] });
    signInAs('admin');
    render(<AdminPublish />);
    await screen.findByText('Release #13: Queued…');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});

describe('the studio while a publish runs', () => {
  it(
    'keeps "Building the site…" as its status, shows the progress beside it, and "Live" once done',
    { timeout: 20_000 },
    async () => {
      const answer: StudioPublishAnswer = {
        status: 'published',
        publishAt: '2026-11-22T12:00:00Z',
        releaseId: 12,
      };
      stubFetch({
        'POST /api/studio/posts/7/publish': [answer],
        'GET /api/studio/releases/12': [run(12, 'building', rendering), run(12, 'succeeded', null)],
      });
      const uid = signInAs('editor');
      const user = userEvent.setup();
      render(
        <PostActions
          uid={uid}
          role="editor"
          postId={7}
          status="draft"
          slug="car-seats"
          saveFirst={() => Promise.resolve(7)}
        />,
      );
      await user.click(screen.getByRole('button', { name: 'Publish now' }));

      const bar = await screen.findByRole('progressbar', { name: 'Publishing: Rendering pages' });
      expect(screen.getByRole('status').textContent).toBe('Building the site…');
      expect(screen.getByRole('status').contains(bar)).toBe(false);
      expect(bar.getAttribute('value')).toBe('1200');
      expect(bar.getAttribute('max')).toBe('3400');
      expect(screen.getByText('1,200 of 3,400 pages')).toBeTruthy();
      expect(screen.getByText('Only the pages this change touches')).toBeTruthy();

      await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Live: open the post'), {
        timeout: 4_000,
      });
      expect(screen.queryByRole('progressbar')).toBeNull();
    },
  );
});
