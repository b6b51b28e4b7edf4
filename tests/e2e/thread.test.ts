// A post's thread in the static page and in the island, in Chromium against the real servers:
// comments readable without JavaScript, no layout shift when the island takes over, and
// "Show more comments" paging through a long thread.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createEmulatorUser } from '../../scripts/lib/auth-emulator.ts';
import { closeContexts, closePage, openPage, waitForIsland, workerBrowser } from '../helpers/browser.ts';

interface PostSummary {
  postId: number;
  slug: string;
  commentCount: number;
}
interface ApiComment {
  comment_id: number;
  content: string;
  author_name: string;
  replies: { content: string; author_name: string }[];
}

let browser: Browser;
beforeAll(async () => {
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
});

async function busiestPost(base: string): Promise<PostSummary> {
  const posts = (await (await fetch(`${base}/api/blog/posts`)).json()) as PostSummary[];
  return [...posts].sort((a, b) => b.commentCount - a.commentCount)[0]!;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

describe('the thread in the static page', () => {
  it('carries every comment and reply of the first page in the built HTML', async () => {
    const base = inject('baseURL');
    const post = await busiestPost(base);
    expect(post.commentCount).toBeGreaterThan(0);
    const html = await (await fetch(`${base}/blog/${post.slug}`)).text();
    const thread = (await (
      await fetch(`${base}/api/blog/posts/${post.postId}/comments`)
    ).json()) as ApiComment[];
    expect(thread.length).toBeGreaterThan(0);
    for (const comment of thread) {
      expect(html).toContain(escapeHtml(comment.content));
      expect(html).toContain(escapeHtml(comment.author_name));
      for (const reply of comment.replies) expect(html).toContain(escapeHtml(reply.content));
    }
    expect(html).toContain(`Comments (${post.commentCount})`);
  });

  it('reads without JavaScript', async () => {
    const base = inject('baseURL');
    const post = await busiestPost(base);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/blog/${post.slug}`);
    const thread = (await (
      await fetch(`${base}/api/blog/posts/${post.postId}/comments`)
    ).json()) as ApiComment[];
    const list = page.getByRole('list', { name: 'Comments' });
    for (const comment of thread) {
      await list
        .getByRole('article', { name: `Comment by ${comment.author_name}` })
        .first()
        .waitFor();
    }
    expect(await list.getByRole('article').count()).toBe(
      thread.length + thread.reduce((n, c) => n + c.replies.length, 0),
    );
    await context.close();
  });

  it('shifts no layout when the island hydrates over it and refreshes it (CLS under 0.1)', async () => {
    const base = inject('baseURL');
    const post = await busiestPost(base);
    const page = await openPage(browser);
    await page.addInitScript(() => {
      const w = window as unknown as { __cls: number };
      w.__cls = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[]) {
          if (!entry.hadRecentInput) w.__cls += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const threadLoaded = page.waitForResponse((r) =>
      r.url().endsWith(`/api/blog/posts/${post.postId}/comments`),
    );
    await page.goto(`${base}/blog/${post.slug}`);
    await page.getByRole('heading', { level: 2, name: /^Comments \(\d+\)$/ }).scrollIntoViewIfNeeded();
    await threadLoaded;
    await waitForIsland(page, 'CommentsSection');
    // React has committed the refreshed thread when nothing in it is busy; two frames later the
    // browser has laid it out and reported any shift.
    await expect.poll(() => page.locator('#comments [aria-busy="true"]').count()).toBe(0);
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
    expect(cls).toBeLessThan(0.1);
    await closePage(page);
  });
});

describe('Show more comments', () => {
  it('pages through a thread longer than one page, newest first', async () => {
    const base = inject('authBaseURL');
    const host = inject('authEmulatorHost');
    const posts = (await (await fetch(`${base}/api/blog/posts`)).json()) as PostSummary[];
    const post = posts.at(-1)!;
    // 60 new comments, 5 from each of 12 parents (the per-parent limit is 5 a minute).
    const parents = await Promise.all(Array.from({ length: 12 }, () => createEmulatorUser(host)));
    const texts: string[] = [];
    for (let round = 0; round < 5; round++) {
      for (const [i, parent] of parents.entries()) {
        const content = `Long thread ${round}-${i} ${crypto.randomUUID().slice(0, 6)}`;
        texts.push(content);
        const res = await fetch(`${base}/api/blog/posts/${post.postId}/comments`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${parent.idToken}` },
          body: JSON.stringify({ content, parentCommentId: null }),
        });
        expect(res.status).toBe(201);
      }
    }
    const total = (await (await fetch(`${base}/api/blog/posts/${post.slug}/stats`)).json()) as {
      commentCount: number;
    };
    const page = await openPage(browser);
    await page.goto(`${base}/blog/${post.slug}`);
    await page.getByRole('heading', { level: 2, name: /^Comments \(\d+\)$/ }).scrollIntoViewIfNeeded();
    // The island takes over and shows the live count, which the build never saw.
    await page.getByRole('heading', { level: 2, name: `Comments (${total.commentCount})` }).waitFor();
    const list = page.getByRole('list', { name: 'Comments' });
    // The refreshed first page starts with the newest comment, which the build never saw.
    await list.getByText(texts.at(-1)!).waitFor();
    const topLevel = list.locator(':scope > li');
    expect(await topLevel.count()).toBe(50);

    const more = page.getByRole('button', { name: 'Show more comments' });
    await more.click();
    await list.getByText(texts[0]!).waitFor();
    expect(await topLevel.count()).toBeGreaterThan(50);
    // Every comment shown once, newest first: the new ones in reverse order of posting.
    const shown = await list.locator(':scope > li article > div > p:nth-of-type(2)').allTextContents();
    const ours = shown.filter((t) => t.startsWith('Long thread'));
    expect(ours).toEqual([...texts].reverse());
    while (await more.count()) await more.click();
    expect(await topLevel.count()).toBe(
      ((await (await fetch(`${base}/api/blog/posts/${post.postId}/comments?limit=100`)).json()) as unknown[])
        .length,
    );
    await closePage(page);
  });
});
