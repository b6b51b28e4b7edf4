// Two parents on one post, in Chromium against the real server (emulator sign-in): one writes, and
// the other's open page says "1 new comment" without a reload, shows it on request (its content
// asked for then; focus on it, marked New; offline, it says so and keeps it waiting) and puts a
// reply under its parent; at 390 and 1280 px, axe clean. A browser without EventSource asks for
// the thread's changes every THREAD_POLL_MS instead, and shows them the same way.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  closeContexts,
  closePage,
  expectNoAxeViolations,
  openPage,
  signInWithEmail,
  workerBrowser,
} from '../helpers/browser.ts';
import { THREAD_POLL_MS } from '../../api/contract/live-threads.ts';
import { type Person, signedUpParent } from '../helpers/e2e-people.ts';

const PASSWORD = 'correct-horse-9';
let browser: Browser;
let writer: Person;
let reader: Person;
let posts: { postId: number; slug: string }[];

beforeAll(async () => {
  browser = await workerBrowser();
  [writer, reader] = await Promise.all([signedUpParent('Wren', PASSWORD), signedUpParent('Rosa', PASSWORD)]);
  posts = (await (await fetch(`${inject('authBaseURL')}/api/blog/posts`)).json()) as typeof posts;
});
afterAll(async () => {
  await closeContexts(browser);
});

/** The writer's comment or reply, through the API as their page would send it. */
async function write(
  postId: number,
  content: string,
  parentCommentId: number | null = null,
): Promise<number> {
  const res = await fetch(`${inject('authBaseURL')}/api/blog/posts/${postId}/comments`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${writer.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ content, parentCommentId }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { comment: { comment_id: number } }).comment.comment_id;
}

/** The reader's page on the post, signed in, with its thread's stream open (or, without one, asking). */
async function readerPage(width: number, slug: string, withEventSource = true): Promise<Page> {
  const page = await openPage(browser, 15_000, { viewport: { width, height: 900 } });
  if (!withEventSource)
    await page.addInitScript(() => {
      Reflect.deleteProperty(window, 'EventSource');
    });
  const stream = withEventSource
    ? page.waitForResponse((res) => res.url().includes('/comments/stream'))
    : Promise.resolve(null);
  await page.goto(`${inject('authBaseURL')}/blog/${slug}`);
  const heading = page.getByRole('heading', { level: 2, name: /^Comments \(\d+\)$/ });
  await heading.waitFor();
  // The comments island hydrates when it scrolls into view (client:visible).
  await heading.scrollIntoViewIfNeeded();
  // Signed in, the page loads the reader's own thread; comments written after that are new to them.
  const own = page.waitForResponse(
    (res) => /\/comments$/.test(res.url()) && res.request().headers().authorization !== undefined,
  );
  await signInWithEmail(page, reader.email, PASSWORD);
  expect((await stream)?.status() ?? 200).toBe(200);
  expect((await own).status()).toBe(200);
  return page;
}

describe('a live thread', () => {
  for (const [i, width] of [390, 1280].entries()) {
    it(`shows another parent's new comment on request and their reply in place, at ${width} px`, async () => {
      const post = posts[4 + i]!;
      const page = await readerPage(width, post.slug);
      const text = `Just ordered the same one (${width} px)`;
      const commentId = await write(post.postId, text);

      // Announced, waiting above the thread: the page does not move under the reader.
      const show = page.getByRole('button', { name: '1 new comment — show' });
      await show.waitFor();
      expect(await page.getByText(text).count()).toBe(0);
      await expectNoAxeViolations(page);

      if (width === 1280) {
        // Offline at the moment they press it: the page says so, and the comment keeps waiting.
        await page.route('**/comments/by-id?*', (route) => route.abort('internetdisconnected'));
        await show.click();
        await page.getByRole('alert').getByText('The new comments could not be loaded.').waitFor();
        expect(await show.count()).toBe(1);
        await page.unroute('**/comments/by-id?*');
      }
      // Its content is asked for when the reader shows it (the stream only announced it).
      const fetched = page.waitForResponse((res) => res.url().endsWith(`/comments/by-id?ids=${commentId}`));
      await show.click();
      expect((await fetched).status()).toBe(200);
      const comment = page.locator(`#comment-${commentId}`);
      await comment.getByText(text).waitFor();
      await comment.getByText('New', { exact: true }).waitFor();
      await page.waitForFunction((id) => document.activeElement?.id === `comment-${id}`, commentId);
      expect(await show.count()).toBe(0);
      expect(await page.getByRole('alert').getByText('could not be loaded').count()).toBe(0);

      // A reply appears under its parent at once.
      await write(post.postId, 'It arrived in two days.', commentId);
      await comment.getByText('It arrived in two days.').waitFor();
      await expectNoAxeViolations(page);
      await closePage(page);
    });
  }

  it('asks for the changes every little while where the browser has no EventSource', async () => {
    const post = posts[6]!;
    const page = await readerPage(1280, post.slug, false);
    const asked = page.waitForResponse((res) => /\/comments\/changes\?after=\d+$/.test(res.url()), {
      timeout: THREAD_POLL_MS + 10_000,
    });
    const text = 'Does it fold flat for the car?';
    const commentId = await write(post.postId, text);
    expect((await asked).status()).toBe(200);
    // Another file's parents may write here too: the count is theirs and ours.
    // The first question may have gone before the comment was written: then the next one has it.
    await page
      .getByRole('button', { name: /^\d+ new comments? — show$/ })
      .click({ timeout: THREAD_POLL_MS + 10_000 });
    await page.locator(`#comment-${commentId}`).getByText(text).waitFor();
    expect(await page.evaluate(() => 'EventSource' in window)).toBe(false);
    await closePage(page);
  });
});
