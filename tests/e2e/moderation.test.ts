// Trust and safety end to end, in Chromium against the emulator-backed `npm start` server: a parent
// reports a comment, a moderator removes it in /moderation with a reason, the thread shows the
// placeholder and its author the reason; pre-moderation, edits and deletion by keyboard; and a
// child-safety escalation that reaches a webhook listener which is down at first.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Comment, EscalationStatus } from '../../api/contract.ts';
import {
  AWAITING_REVIEW,
  HELD_PLACEHOLDER,
  REMOVED_PLACEHOLDER,
} from '../../src/islands/comments/messages.ts';
import {
  closeContexts,
  closePage,
  expectNoAxeViolations,
  inSight,
  openPage,
  signInWithEmail,
  waitForIsland,
  workerBrowser,
} from '../helpers/browser.ts';
import { type Person, signedUpParent } from '../helpers/e2e-people.ts';
import { startListener } from '../helpers/listener.ts';
import { setRole } from '../helpers/roles.ts';

const PASSWORD = 'correct-horse-9';
let browser: Browser;
let base: string;

interface PostSummary {
  postId: number;
  slug: string;
  title: string;
  commentCount: number;
}

beforeAll(async () => {
  base = inject('authBaseURL');
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
});

const person = (first: string) => signedUpParent(first, PASSWORD);

async function api<T>(path: string, token: string | null, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

async function somePost(index: number): Promise<PostSummary> {
  const posts = await api<PostSummary[]>('/api/blog/posts', null);
  return posts[index % posts.length]!;
}

async function comment(post: PostSummary, author: Person, content: string): Promise<number> {
  const posted = await api<{ comment: { comment_id: number } }>(
    `/api/blog/posts/${post.postId}/comments`,
    author.token,
    {
      method: 'POST',
      body: { content },
    },
  );
  return posted.comment.comment_id;
}

/** Opens a post and waits for its comments island. */
async function openPost(page: Page, slug: string): Promise<void> {
  await page.goto(`${base}/blog/${slug}`);
  const heading = page.getByRole('heading', { level: 2, name: /^Comments \(\d+\)$/ });
  await heading.scrollIntoViewIfNeeded();
  await waitForIsland(page, 'CommentsSection');
}

const shownCounts = async (page: Page) => ({
  header: await page.getByTestId('comment-count').textContent(),
  heading: await page.getByRole('heading', { level: 2, name: /^Comments \(\d+\)$/ }).textContent(),
});
const counted = (n: number) => ({
  header: `${n} ${n === 1 ? 'comment' : 'comments'}`,
  heading: `Comments (${n})`,
});

/**
 * The page's two counts agree with the readers' count the API gives now. Other browser files
 * comment on the same posts, and the live thread shows their comments too, so a count taken
 * before would not hold; a comment waiting for review counted on the page would not agree.
 */
async function countsAgree(page: Page, slug: string): Promise<void> {
  await expect
    .poll(async () => {
      const posts = await api<PostSummary[]>('/api/blog/posts', null);
      const readers = posts.find((p) => p.slug === slug)!.commentCount;
      return JSON.stringify(await shownCounts(page)) === JSON.stringify(counted(readers));
    })
    .toBe(true);
}

describe('reports and the moderation console', () => {
  it('a parent reports a comment; a moderator removes it with a reason; the thread and its author show it', async () => {
    const post = await somePost(1);
    const [author, reporter, moderator] = await Promise.all([person('Ada'), person('Ben'), person('Mo')]);
    await setRole(moderator.email, 'moderator');
    const text = `Buy my recalled car seat, cheap! ${crypto.randomUUID().slice(0, 6)}`;
    const id = await comment(post, author, text);
    const linky = `Great deals: https://a.example https://b.example https://c.example ${crypto.randomUUID().slice(0, 6)}`;
    const pendingId = await comment(post, author, linky);

    // The reporter, by keyboard, on a phone whose screen is shorter than the dialog.
    const page = await openPage(browser);
    await page.setViewportSize({ width: 390, height: 600 });
    await openPost(page, post.slug);
    await signInWithEmail(page, reporter.email, PASSWORD);
    const target = page.getByRole('article', { name: `Comment by ${author.name}` }).filter({ hasText: text });
    const reportButton = target.getByRole('button', { name: `Report comment by ${author.name}` });
    await reportButton.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Report this comment' }).waitFor();
    // Its title changes once the report is in.
    const dialog = page.getByRole('dialog');
    // Its actions, and then its error, are in sight without scrolling, though the dialog scrolls.
    expect(await dialog.evaluate((d) => d.scrollHeight > d.clientHeight)).toBe(true);
    expect(await inSight(page, dialog.getByRole('button', { name: 'Send Report' }))).toBe(true);
    expect(await inSight(page, dialog.getByRole('button', { name: 'Cancel' }))).toBe(true);
    await dialog.getByRole('button', { name: 'Send Report' }).press('Enter');
    await dialog.getByRole('alert').getByText('Please choose what is wrong with this comment.').waitFor();
    expect(await inSight(page, dialog.getByRole('alert'))).toBe(true);
    expect(await inSight(page, dialog.getByRole('button', { name: 'Send Report' }))).toBe(true);
    await dialog.getByRole('radio', { name: /^Unsafe item/ }).press('Space');
    expect(await dialog.getByRole('radio', { name: /^Unsafe item/ }).isChecked()).toBe(true);
    // Answered, the error goes.
    expect(await dialog.getByRole('alert').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await dialog.getByLabel('Add a note (optional)').fill('This model was recalled last year.');
    await dialog.getByText('34/1000 characters').waitFor();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Send Report' }).press('Enter');
    await page.getByRole('dialog', { name: 'Report received' }).waitFor();
    await dialog
      .getByText('Your report was received. A parent moderator will review it within 24 hours.')
      .waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Radix gives focus back in a task after the dialog has gone: polled, not read at once.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe(`Report comment by ${author.name}`);
    // The comment awaiting review is not shown to the reporter.
    expect(await page.getByText(linky).count()).toBe(0);

    // A plain parent at /moderation: a clear 403, and the API says 403 too.
    await page.goto(`${base}/moderation`);
    await page.getByRole('heading', { name: 'This page is for Nestling’s moderators' }).waitFor();
    // In plain words: no command to run, and where to report instead.
    expect(await page.getByText(/npm run|user:role/).count()).toBe(0);
    await page.getByRole('link', { name: 'how reports work' }).waitFor();
    const forbidden = await fetch(`${base}/api/moderation/reports?status=open`, {
      headers: { Authorization: `Bearer ${reporter.token}` },
    });
    expect(forbidden.status).toBe(403);
    await closePage(page);

    // The moderator.
    const console = await openPage(browser);
    await console.goto(`${base}/moderation`);
    await waitForIsland(console, 'ModerationConsole');
    await console.getByText('Sign in with a moderator account to review reports.').waitFor();
    await signInWithEmail(console, moderator.email, PASSWORD);
    // The account menu leads moderators here.
    await console.getByTestId('account-menu-button').click();
    expect(await console.getByRole('menuitem', { name: 'Moderation' }).getAttribute('href')).toBe(
      '/moderation',
    );
    await console.keyboard.press('Escape');
    const card = console.getByRole('article').filter({ hasText: text });
    await card.waitFor();
    await card.getByText('1 parent reported it · Unsafe item').waitFor();
    await card.getByText('This model was recalled last year.').waitFor();
    // An unsafe item is due in 24 hours, counted to the minute.
    await card.getByText(/^Due in (23 h 59 min|24 h)$/).waitFor();
    expect(await card.getByRole('link', { name: post.title }).getAttribute('href')).toBe(
      `/blog/${post.slug}#comment-${id}`,
    );
    await expectNoAxeViolations(console);

    // Suspend the author for 3 days, then lift it again, each with a reason.
    await card.getByRole('button', { name: `Suspend ${author.name}` }).click();
    const suspend = console.getByRole('dialog', { name: `Suspend ${author.name}?` });
    await suspend.getByRole('radio', { name: 'For a number of days' }).check();
    await suspend.getByRole('spinbutton', { name: 'Number of days' }).fill('3');
    await suspend.getByLabel('Reason (shown to the parent)').fill('Selling recalled gear');
    await expectNoAxeViolations(console);
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await suspend.waitFor({ state: 'detached' });
    // Each decision is announced where the moderator is, not in a line at the top of the page.
    const notices = console.getByRole('region', { name: /Notifications/ });
    await notices.getByText(`${author.name} is suspended for 3 days.`).waitFor();
    const refused = await fetch(`${base}/api/blog/posts/${post.slug}/like`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${author.token}` },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^Your account is suspended until .* UTC \(Selling recalled gear\)\./,
    );
    // The author learns it before typing: the comment box says why and until when (the browser's
    // long date, in its time zone), and takes no text.
    const authorPage = await openPage(browser);
    await openPost(authorPage, post.slug);
    await signInWithEmail(authorPage, author.email, PASSWORD);
    await authorPage
      .getByText(
        /^Your account is suspended until (\d{1,2} \w+|\w+ \d{1,2},) 2026 at \d{1,2}:\d\d( [AP]M)? \(Selling recalled gear\)\. You can still read, but you cannot comment, reply, like or report while it lasts\.$/,
      )
      .waitFor();
    expect(await authorPage.getByRole('textbox', { name: /^Comment as / }).count()).toBe(0);
    expect(await authorPage.getByRole('button', { name: /^Reply to / }).count()).toBe(0);
    await expectNoAxeViolations(authorPage);
    await closePage(authorPage);
    const suspendedRow = console.getByRole('listitem').filter({ hasText: author.name });
    await suspendedRow.getByRole('button', { name: 'Lift suspension' }).click();
    const lift = console.getByRole('dialog', { name: `Lift ${author.name}’s suspension?` });
    await lift.getByLabel('Reason').fill('Agreed to stop');
    await lift.getByRole('button', { name: 'Lift suspension' }).click();
    await notices.getByText(`${author.name}’s suspension was lifted.`).waitFor();

    await card.getByRole('button', { name: 'Remove comment' }).click();
    const remove = console.getByRole('dialog', { name: 'Remove this comment?' });
    await remove.getByRole('button', { name: 'Remove comment' }).click();
    await remove.getByText('Please write a reason.').waitFor();
    const reason = 'Recalled car seats may not be sold here.';
    await remove.getByLabel('Reason (shown to its author)').fill(reason);
    await expectNoAxeViolations(console);
    await remove.getByRole('button', { name: 'Remove comment' }).click();
    await remove.waitFor({ state: 'detached' });
    await notices.getByText('Remove comment: done. 1 report resolved.').waitFor();
    await card.waitFor({ state: 'detached' });

    // The comment with more than two links waits for review: approve it.
    const waiting = console.getByRole('article').filter({ hasText: linky });
    await waiting.getByRole('heading', { name: 'More than 2 links' }).waitFor();
    await waiting.getByRole('button', { name: 'Approve' }).click();
    const approve = console.getByRole('dialog', { name: 'Approve this comment?' });
    await approve.getByRole('button', { name: 'Approve' }).click();
    await approve.waitFor({ state: 'detached' });
    await waiting.waitFor({ state: 'detached' });

    // The audit log says who did what and why.
    const audit = console.getByRole('table', { name: 'Audit log, newest first' });
    await audit.getByRole('row').filter({ hasText: reason }).getByText('removed a comment').waitFor();
    await audit
      .getByRole('row')
      .filter({ has: console.locator(`a[href="/blog/${post.slug}#comment-${pendingId}"]`) })
      .getByText('approved a comment')
      .waitFor();
    await closePage(console);

    // Readers see the placeholder in place; the approved comment is shown.
    const reader = await openPage(browser);
    await openPost(reader, post.slug);
    const removed = reader.locator(`#comment-${id}`);
    await removed.getByText(REMOVED_PLACEHOLDER).waitFor();
    expect(await reader.getByText(text).count()).toBe(0);
    expect(await removed.getByText(/^Reason:/).count()).toBe(0);
    await reader.getByText(linky).waitFor();
    await closePage(reader);

    // Its author sees why.
    const own = await openPage(browser);
    await openPost(own, post.slug);
    await signInWithEmail(own, author.email, PASSWORD);
    await own.locator(`#comment-${id}`).getByText(`Reason: ${reason}`).waitFor();
    await expectNoAxeViolations(own);
    await closePage(own);
    // Four people on five pages with six accessibility checks: about 25 s alone, more beside the
    // other browser files.
  }, 120_000);
});

describe("parents' control of their own words", () => {
  it('waits for review, edits within the window and deletes with a confirmation, counts agreeing everywhere', async () => {
    const post = await somePost(2);
    const author = await person('Cleo');
    const page = await openPage(browser);
    await openPost(page, post.slug);
    await signInWithEmail(page, author.email, PASSWORD);
    await countsAgree(page, post.slug);

    // More than two links: only its author sees it, awaiting review, and the counts do not move.
    const box = page.getByLabel(`Comment as ${author.name}`);
    const linky = `Links: https://a.example https://b.example https://c.example ${crypto.randomUUID().slice(0, 6)}`;
    await box.fill(linky);
    await page.getByRole('button', { name: 'Post Comment' }).click();
    const waiting = page.getByRole('article', { name: `Comment by ${author.name}, awaiting review` });
    await waiting.getByText(AWAITING_REVIEW, { exact: true }).waitFor();
    await waiting.getByText('Only you can see this until a moderator approves it.').waitFor();
    await page.getByText(/Your comment is awaiting review/).waitFor();
    await countsAgree(page, post.slug);
    const anonymous = await api<Comment[]>(`/api/blog/posts/${post.postId}/comments`, null);
    expect(anonymous.some((c) => c.content === linky)).toBe(false);

    // A plain comment: posted, counted, then edited within the window.
    const text = `A first thought ${crypto.randomUUID().slice(0, 6)}`;
    await box.fill(text);
    await page.getByRole('button', { name: 'Post Comment' }).click();
    const mine = page.getByRole('article', { name: `Comment by ${author.name}` }).filter({ hasText: text });
    await mine.waitFor();
    await countsAgree(page, post.slug);

    await mine.getByRole('button', { name: 'Edit your comment' }).press('Enter');
    const edit = page.getByRole('textbox', { name: 'Edit your comment' });
    await edit.waitFor();
    await page.getByText(/You can edit it for (1[0-5]|[0-9]) minutes? more\./).waitFor();
    await edit.fill(`${text}, on second thought`);
    await page.getByRole('button', { name: 'Save' }).press('Enter');
    const edited = page
      .getByRole('article', { name: `Comment by ${author.name}` })
      .filter({ hasText: `${text}, on second thought` });
    await edited.getByText('(edited').waitFor();
    await expectNoAxeViolations(page);
    await countsAgree(page, post.slug);

    // Delete, with a confirmation.
    await edited.getByRole('button', { name: 'Delete your comment' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete your comment?' });
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'detached' });
    await edited.waitFor({ state: 'detached' });
    await countsAgree(page, post.slug);
    // Focus went somewhere sensible, not to the page's body.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('comments-heading');
    await closePage(page);
  });
});

describe('child-safety escalation', () => {
  it('hides the comment at once and reaches a webhook listener that is down at first', async () => {
    const post = await somePost(3);
    const [author, reporter, moderator] = await Promise.all([person('Dee'), person('Eli'), person('Max')]);
    await setRole(moderator.email, 'moderator');
    const text = `Worrying words ${crypto.randomUUID().slice(0, 6)}`;
    const id = await comment(post, author, text);
    const filed = await api<{ reportId: number; status: string; comment: Comment }>(
      `/api/blog/comments/${id}/reports`,
      reporter.token,
      { method: 'POST', body: { category: 'child_safety', note: 'Asking children to message privately' } },
    );
    expect(filed.comment.status).toBe('held');

    // Nothing listens yet: the first attempt fails, and the console shows it waiting.
    const mine = async () =>
      (await api<EscalationStatus>('/api/moderation/escalations', moderator.token)).waiting.find(
        (d) => d.reportId === filed.reportId,
      );
    for (let seen = await mine(); !seen?.failed; seen = await mine()) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The technical error is for admins; a moderator learns only that it failed.
    expect((await mine())!.lastError).toBeNull();

    // The listener comes up; the retry gets there.
    const hook = await startListener({ port: inject('escalationPort') });
    try {
      const [request] = await hook.waitFor(1);
      expect(request).toMatchObject({
        method: 'POST',
        path: '/escalations',
        body: {
          type: 'nestling.child_safety_report',
          report: {
            reportId: filed.reportId,
            category: 'child_safety',
            note: 'Asking children to message privately',
          },
          comment: { commentId: id, content: text, authorName: author.name },
        },
      });
      expect((request!.body as { consoleUrl: string }).consoleUrl).toMatch(
        new RegExp(`/moderation#report-${filed.reportId}$`),
      );
      for (let seen = await mine(); seen; seen = await mine()) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await hook.close();
    }

    // Readers see the held placeholder in the comment's place.
    const page = await openPage(browser);
    await openPost(page, post.slug);
    await page.locator(`#comment-${id}`).getByText(HELD_PLACEHOLDER).waitFor();
    expect(await page.getByText(text).count()).toBe(0);
    await closePage(page);
  });
});
