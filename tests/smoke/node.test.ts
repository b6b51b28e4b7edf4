// The one browser test that also runs on the newest Node (.ci/run): the real `npm start` server on
// this Node, with better-sqlite3 built for it, migrates, seeds and publishes into its database, then
// serves a post whose comments island hydrates in Chromium, and counts a view.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BlogPost, ViewRecorded } from '../../api/contract.ts';
import { closePage, launchBrowser, openPage, waitForIsland } from '../helpers/browser.ts';
import { expectJson } from '../helpers/parents.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe(`npm start on Node ${process.versions.node}`, () => {
  it('serves a post whose comments island hydrates, and counts a view', async () => {
    const base = inject('baseURL');
    const posts = await expectJson<BlogPost[]>(fetch(`${base}/api/blog/posts`), 200);
    const post = [...posts].sort((a, b) => b.commentCount - a.commentCount)[0]!;
    expect(post.commentCount).toBeGreaterThan(0);

    const page = await openPage(browser);
    await page.goto(`${base}/blog/${post.slug}`);
    // The thread's island hydrates when it comes into view.
    await page.locator('#comments').scrollIntoViewIfNeeded();
    await waitForIsland(page, 'CommentsSection');
    await page.getByRole('heading', { level: 2, name: `Comments (${post.commentCount})` }).waitFor();
    await page.getByRole('list', { name: 'Comments' }).getByRole('article').first().waitFor();
    await closePage(page);

    // The view beacon answers with the count, this view included (other tests may add theirs).
    const view = await expectJson<ViewRecorded>(
      fetch(`${base}/api/blog/posts/${post.slug}/view`, { method: 'POST' }),
      200,
    );
    expect(view.viewCount).toBeGreaterThan(post.viewCount);
  });
});
