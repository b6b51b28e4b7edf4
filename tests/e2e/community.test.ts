// The post page's community islands in Chromium against the real `npm start` servers:
// likes, comments, replies and comment likes through the Auth emulator (authBaseURL), and demo
// mode's simulated comments (baseURL).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createEmulatorUser } from '../../scripts/lib/auth-emulator.ts';
import {
  closeContexts,
  closePage,
  expectNoAxeViolations,
  openPage,
  signInWithEmail,
  workerBrowser,
} from '../helpers/browser.ts';

interface PostSummary {
  postId: number;
  slug: string;
  likeCount: number;
  commentCount: number;
}
interface ApiComment {
  comment_id: number;
  content: string;
  author_name: string;
  like_count: number;
  replies: { comment_id: number; content: string; author_name: string }[];
}

let browser: Browser;
const TIMEOUT = 15_000;

beforeAll(async () => {
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
});

async function listPosts(base: string): Promise<PostSummary[]> {
  const posts = (await (await fetch(`${base}/api/blog/posts`)).json()) as PostSummary[];
  expect(posts.length).toBeGreaterThanOrEqual(4);
  return posts;
}

async function getComments(base: string, postId: number): Promise<ApiComment[]> {
  return (await (await fetch(`${base}/api/blog/posts/${postId}/comments`)).json()) as ApiComment[];
}

const newPage = () => openPage(browser, TIMEOUT);

/** Opens a post and waits for the comments island and its thread. */
async function openPost(page: Page, base: string, slug: string): Promise<void> {
  await page.goto(`${base}/blog/${slug}`);
  const heading = page.getByRole('heading', { level: 2, name: /^Comments \(\d+\)$/ });
  await heading.waitFor();
  // The comments island hydrates when it scrolls into view (client:visible).
  await heading.scrollIntoViewIfNeeded();
}

const likeButton = (page: Page) => page.getByRole('button', { name: /^Like this post, \d+ likes?$/ });

async function likeState(page: Page): Promise<{ pressed: string | null; name: string | null }> {
  const button = likeButton(page);
  return {
    pressed: await button.getAttribute('aria-pressed'),
    name: await button.getAttribute('aria-label'),
  };
}

const likesLabel = (n: number) => `Like this post, ${n} ${n === 1 ? 'like' : 'likes'}`;

describe('community islands, signed out', () => {
  it('prompts to sign in to comment and to like, and passes axe', async () => {
    const base = inject('authBaseURL');
    const [, , , post] = await listPosts(base);
    const page = await newPage();
    await openPost(page, base, post!.slug);

    await page.getByText('Please sign in to post comments and participate in discussions.').waitFor();
    await page
      .getByRole('complementary', { name: 'Your account' })
      .getByRole('button', { name: 'Sign in with Google' })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Post Comment' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Reply to / }).count()).toBe(0);

    await likeButton(page).click();
    const notifications = page.getByRole('region', { name: /Notifications/ });
    await notifications.getByText('Please sign in to like posts').waitFor();
    expect(await likeButton(page).getAttribute('aria-pressed')).toBe('false');
    expect((await listPosts(base)).find((p) => p.slug === post!.slug)!.likeCount).toBe(post!.likeCount);

    await expectNoAxeViolations(page);
    await closePage(page);
  });
});

describe('community islands, signed in (Auth emulator)', () => {
  it('likes and unlikes a post; the count comes from the server and survives a reload', async () => {
    const base = inject('authBaseURL');
    const [, post] = await listPosts(base);
    const user = await createEmulatorUser(inject('authEmulatorHost'), {
      email: `liker-${crypto.randomUUID().slice(0, 8)}@example.com`,
      password: 'correct-horse-9',
      displayName: 'Lee Liker',
    });
    const page = await newPage();
    await openPost(page, base, post!.slug);
    await signInWithEmail(page, user.email, 'correct-horse-9');
    const before = post!.likeCount;
    await page.waitForFunction(
      (name) => document.querySelector(`button[aria-label="${name}"][aria-pressed="false"]`) !== null,
      likesLabel(before),
    );

    await likeButton(page).click();
    await page.waitForFunction(
      () =>
        document.querySelector('button[aria-label^="Like this post"]')?.getAttribute('aria-pressed') ===
        'true',
    );
    expect(await likeState(page)).toEqual({ pressed: 'true', name: likesLabel(before + 1) });

    await page.reload();
    await page.waitForFunction(
      () =>
        document.querySelector('button[aria-label^="Like this post"]')?.getAttribute('aria-pressed') ===
        'true',
    );
    expect(await likeState(page)).toEqual({ pressed: 'true', name: likesLabel(before + 1) });

    await likeButton(page).click();
    await page.waitForFunction(
      () =>
        document.querySelector('button[aria-label^="Like this post"]')?.getAttribute('aria-pressed') ===
        'false',
    );
    expect(await likeState(page)).toEqual({ pressed: 'false', name: likesLabel(before) });
    await page.reload();
    await page.waitForFunction(
      (name) => document.querySelector(`button[aria-label="${name}"][aria-pressed="false"]`) !== null,
      likesLabel(before),
    );
    await closePage(page);
  });

  it('posts a comment, replies to it and likes it; replies offer no reply box', async () => {
    const base = inject('authBaseURL');
    const [, , post] = await listPosts(base);
    const name = 'Casey Commenter';
    const user = await createEmulatorUser(inject('authEmulatorHost'), {
      email: `commenter-${crypto.randomUUID().slice(0, 8)}@example.com`,
      password: 'correct-horse-9',
      displayName: name,
    });
    const page = await newPage();
    await openPost(page, base, post!.slug);
    await signInWithEmail(page, user.email, 'correct-horse-9');

    const box = page.getByLabel(`Comment as ${name}`);
    const postButton = page.getByRole('button', { name: 'Post Comment' });
    await box.waitFor();
    expect(await postButton.isDisabled()).toBe(true);
    await box.fill('   \n  ');
    expect(await postButton.isDisabled()).toBe(true);

    // Every place that shows the post's comment count shows the same number, before and after.
    const counts = async () => ({
      header: await page.getByTestId('comment-count').textContent(),
      heading: await page.getByRole('heading', { level: 2, name: /^Comments \(\d+\)$/ }).textContent(),
    });
    const shown = (n: number) => ({
      header: `${n} ${n === 1 ? 'comment' : 'comments'}`,
      heading: `Comments (${n})`,
    });
    const countBefore = (await listPosts(base)).find((p) => p.slug === post!.slug)!.commentCount;
    await page.getByTestId('comment-count').getByText(shown(countBefore).header).waitFor();
    expect(await counts()).toEqual(shown(countBefore));

    const text = `Our toddler loves this. ${crypto.randomUUID().slice(0, 8)}\nSecond line.`;
    await box.fill(text);
    expect(await postButton.isDisabled()).toBe(false);
    await postButton.click();
    const mine = page.getByRole('article', { name: `Comment by ${name}` });
    await mine.waitFor();
    await page
      .getByTestId('comment-count')
      .getByText(shown(countBefore + 1).header)
      .waitFor();
    expect(await counts()).toEqual(shown(countBefore + 1));
    expect(await mine.getByText('Second line.', { exact: false }).count()).toBe(1);
    expect(await mine.locator('time').textContent()).toMatch(/ago$/);
    expect(await box.inputValue()).toBe('');
    expect(await postButton.isDisabled()).toBe(true);

    // Reply.
    await mine.getByRole('button', { name: `Reply to ${name}` }).click();
    const replyBox = page.getByRole('textbox', { name: `Your reply to ${name}` });
    await replyBox.fill('Thanks, everyone!');
    await page.getByRole('button', { name: 'Post Reply' }).click();
    const reply = page
      .getByRole('list', { name: `Replies to ${name}` })
      .getByRole('article', { name: `Reply by ${name}` });
    await reply.waitFor();
    await replyBox.waitFor({ state: 'detached' });
    await page
      .getByTestId('comment-count')
      .getByText(shown(countBefore + 2).header)
      .waitFor();
    expect(await counts()).toEqual(shown(countBefore + 2));
    // One reply level: a reply has no Reply button of its own.
    expect(await reply.getByRole('button', { name: /^Reply/ }).count()).toBe(0);

    // Like the comment: the count comes back from the reloaded thread.
    await mine.getByRole('button', { name: `Like comment by ${name}, 0 likes` }).click();
    await mine.getByRole('button', { name: `Like comment by ${name}, 1 like` }).waitFor();

    const stored = (await getComments(base, post!.postId)).find((c) => c.content === text);
    expect(stored).toMatchObject({ author_name: name, like_count: 1 });
    expect(stored!.replies.map((r) => r.content)).toEqual(['Thanks, everyone!']);

    await expectNoAxeViolations(page);
    await closePage(page);
  });
});

describe('demo mode (default configuration)', () => {
  it('offers Try Demo Mode and simulates a posted comment without storing it', async () => {
    const base = inject('baseURL');
    const [post] = await listPosts(base);
    const before = await getComments(base, post!.postId);
    const page = await newPage();
    await openPost(page, base, post!.slug);

    const sidebar = page.getByRole('complementary', { name: 'Your account' });
    await sidebar.getByRole('button', { name: 'Sign in with Google' }).click();
    await sidebar.getByText(/Demo mode is active.*not configured in this environment/).waitFor();
    await sidebar.getByRole('button', { name: 'Try Demo Mode' }).click();
    await sidebar.getByRole('button', { name: 'Exit Demo Mode' }).waitFor();

    // The simulated thread, with the demo roles' icons.
    await page.getByRole('article', { name: 'Comment by Sam Admin' }).waitFor();
    await page.getByRole('article', { name: 'Comment by Riley Moderator' }).waitFor();

    const text = `Simulated hello ${crypto.randomUUID().slice(0, 8)}`;
    await page.getByRole('textbox', { name: /^Comment as / }).fill(text);
    const started = Date.now();
    await page.getByRole('button', { name: 'Post Comment' }).click();
    await page.getByRole('list', { name: 'Comments' }).getByText(text).waitFor();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(5_000);

    expect(await getComments(base, post!.postId)).toEqual(before);
    await expectNoAxeViolations(page);
    await closePage(page);
  });
});
