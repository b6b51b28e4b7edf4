// The staff and account screens as a moderator or admin meets them, on a 390 px phone and a
// 1280 px desktop, with data in every list: nothing runs off the screen, axe finds nothing and no
// internal string (a command, a variable, a folder, a network error, a raw enum or a uid) shows.
// Then the moderator's place: a suspension marks every card of the author, a dismissal takes its
// card away, focus goes to the next card, and Undo brings the reports back.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PostSummary } from '../../api/contract.ts';
import {
  closeContexts,
  closePage,
  expectNoAxeViolations,
  openPage,
  signInWithEmail,
  waitForIsland,
  workerBrowser,
} from '../helpers/browser.ts';
import { type Person, signedUpParent } from '../helpers/e2e-people.ts';
import { setRole } from '../helpers/roles.ts';

const PASSWORD = 'correct-horse-9';
let browser: Browser;
let base: string;

beforeAll(async () => {
  base = inject('authBaseURL');
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
});

/**
 * What no staff screen may show: a command, an environment variable, a folder, a network error, a
 * raw enum (words_with_underscores) or a Firebase uid (28 letters and digits).
 */
const INTERNAL =
  /npm run|user:role|SMTP_URL|SAFETY_ESCALATION_URL|content\/|ECONNREFUSED|fetch failed|command line|\b[a-z]+_[a-z_]+\b|\b[A-Za-z0-9]{28}\b/;

async function call(path: string, token: string | null, method = 'GET', body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.ok, `${method} ${path}: ${res.status} ${text}`).toBe(true);
  return text ? (JSON.parse(text) as unknown) : null;
}

async function comment(post: PostSummary, author: Person, content: string): Promise<number> {
  const posted = (await call(`/api/blog/posts/${post.postId}/comments`, author.token, 'POST', {
    content,
  })) as { comment: { comment_id: number } };
  return posted.comment.comment_id;
}

const report = (id: number, reporter: Person, category: string, note: string) =>
  call(`/api/blog/comments/${id}/reports`, reporter.token, 'POST', { category, note });

/** The parent's Firebase uid, from their ID token. */
const uidOf = (person: Person) =>
  (JSON.parse(Buffer.from(person.token.split('.')[1]!, 'base64url').toString()) as { user_id: string })
    .user_id;

/** At a phone's width and a desktop's: no sideways scrolling, no internal words, axe clean. */
async function checkScreen(page: Page, ready: () => Promise<void>): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await ready();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow, `${page.url()} at ${width} px`).toBeLessThanOrEqual(width);
    expect(await page.locator('main').innerText()).not.toMatch(INTERNAL);
    await expectNoAxeViolations(page);
  }
}

describe('staff and account screens', () => {
  it('fit a phone and a desktop with data in them, in plain words', async () => {
    const posts = (await call('/api/blog/posts', null)) as PostSummary[];
    const post = posts[4 % posts.length]!;
    // A long name and address, as wrap tests need.
    const [admin, author, reporter, leaver] = await Promise.all([
      signedUpParent('Wilhelmina-Featherstonehaugh', PASSWORD),
      signedUpParent('Ada', PASSWORD),
      signedUpParent('Ben', PASSWORD),
      signedUpParent('Cy', PASSWORD),
    ]);
    await setRole(admin.email, 'admin');
    const tag = crypto.randomUUID().slice(0, 6);
    const first = await comment(post, author, `A pram for sale, barely used ${tag}`);
    const second = await comment(post, author, `Another one, message me privately ${tag}`);
    const third = await comment(post, author, `And a cot with a drop side ${tag}`);
    await report(first, reporter, 'unsafe_item', 'This pram model was recalled.');
    await report(second, reporter, 'child_safety', 'Asks children to message privately.');
    await report(third, reporter, 'suspicious_behavior', 'Same seller, third post today.');
    // A parent suspended and then erased: the audit log names them "an erased parent".
    await comment(post, leaver, `Cy was here ${tag}`);
    await call(`/api/moderation/users/${uidOf(leaver)}/suspend`, admin.token, 'POST', {
      days: 3,
      reason: 'Spamming links',
    });
    await call('/api/account', leaver.token, 'DELETE', { confirmEmail: leaver.email });
    // A deletion request with a long address and a note, and its acknowledgement in the outbox.
    await call('/api/account/deletion-requests', null, 'POST', {
      email: `a-very-long-address-for-wrapping-${tag}@a-long-domain-name.example.com`,
      reason: 'no_longer_needed',
      additionalInfo: 'Please remove everything, including my comments on the car seat thread.',
      confirmed: true,
    });

    const page = await openPage(browser, 20_000);
    await page.goto(`${base}/moderation`);
    await waitForIsland(page, 'ModerationConsole');
    await signInWithEmail(page, admin.email, PASSWORD);
    const cardOf = (text: string) => page.getByRole('article').filter({ hasText: text });
    await checkScreen(page, async () => {
      await cardOf(`A pram for sale, barely used ${tag}`).waitFor();
      const audit = page.getByRole('table', { name: 'Audit log, newest first' });
      await audit
        .getByRole('row')
        .filter({ hasText: 'Spamming links' })
        .getByText('an erased parent')
        .waitFor();
    });
    // Every card says what else this author has: the other two reports.
    await cardOf(`A pram for sale, barely used ${tag}`).getByText('2 other open reports').waitFor();
    // Audit entries link a comment to where it is.
    const audit = page.getByRole('table', { name: 'Audit log, newest first' });
    const hold = audit.getByRole('row').filter({ hasText: 'hid a reported comment for review' });
    expect(
      await hold
        .getByRole('link', { name: `a comment on “${post.title}”` })
        .first()
        .getAttribute('href'),
    ).toMatch(new RegExp(`^/blog/${post.slug}#comment-\\d+$`));

    await page.goto(`${base}/admin`);
    await waitForIsland(page, 'AdminDeletionRequests');
    await checkScreen(page, async () => {
      await page
        .getByRole('row')
        .filter({ hasText: `a-very-long-address-for-wrapping-${tag}` })
        .getByText('No longer needed')
        .waitFor();
      await page.getByRole('table', { name: /^Recent releases/ }).waitFor();
    });

    await page.goto(`${base}/admin/outbox`);
    await waitForIsland(page, 'AdminOutbox');
    await checkScreen(page, async () => {
      await page.getByRole('list', { name: 'Emails, newest first' }).getByRole('article').first().waitFor();
    });

    await page.goto(`${base}/account`);
    await waitForIsland(page, 'AccountPage');
    await checkScreen(page, async () => {
      await page.getByRole('region', { name: 'Profile' }).getByText(admin.email).waitFor();
    });
    await closePage(page);
  }, 120_000);

  it("keeps the moderator's place: a suspension marks every card, a dismissal can be undone", async () => {
    const posts = (await call('/api/blog/posts', null)) as PostSummary[];
    const post = posts[5 % posts.length]!;
    const [moderator, author, reporter] = await Promise.all([
      signedUpParent('Mo', PASSWORD),
      signedUpParent('Dot', PASSWORD),
      signedUpParent('Eve', PASSWORD),
    ]);
    await setRole(moderator.email, 'moderator');
    const tag = crypto.randomUUID().slice(0, 6);
    const texts = [`First of Dot’s ${tag}`, `Second of Dot’s ${tag}`];
    for (const text of texts)
      await report(await comment(post, author, text), reporter, 'inappropriate_content', '');

    const page = await openPage(browser, 20_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/moderation`);
    await waitForIsland(page, 'ModerationConsole');
    await signInWithEmail(page, moderator.email, PASSWORD);
    const [one, two] = texts.map((text) => page.getByRole('article').filter({ hasText: text }));
    await one!.waitFor();
    await two!.getByText('1 other open report').waitFor();

    // Suspended from one card, the author is marked on both, and neither offers Suspend again.
    await one!.getByRole('button', { name: `Suspend ${author.name}` }).click();
    const suspend = page.getByRole('dialog', { name: `Suspend ${author.name}?` });
    await suspend.getByRole('radio', { name: 'For a number of days' }).check();
    await suspend.getByRole('spinbutton', { name: 'Number of days' }).fill('2');
    await suspend.getByLabel('Reason (shown to the parent)').fill('Cooling off');
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await suspend.waitFor({ state: 'detached' });
    const notices = page.getByRole('region', { name: /Notifications/ });
    await notices.getByText(`${author.name} is suspended for 2 days.`).waitFor();
    for (const card of [one!, two!]) {
      await card.getByText(/^Suspended until /).waitFor();
      expect(await card.getByRole('button', { name: `Suspend ${author.name}` }).count()).toBe(0);
    }
    // Focus stayed with the card whose button went.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('ARTICLE');

    // Dismissed, the card goes, focus moves to the next one, and Undo brings it back.
    await one!.getByRole('button', { name: 'Dismiss reports' }).click();
    const dismiss = page.getByRole('dialog', { name: 'Dismiss these reports?' });
    await dismiss.getByLabel('Reason').fill('Within the rules');
    await dismiss.getByRole('button', { name: 'Dismiss reports' }).click();
    await dismiss.waitFor({ state: 'detached' });
    await one!.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('article')?.textContent ?? ''))
      .toContain(texts[1]);
    await notices.getByText('Dismiss reports: done. 1 report resolved.').waitFor();
    await notices.getByRole('button', { name: 'Undo' }).click();
    await notices.getByText('Undone: the reports are open again.').waitFor();
    await expectNoAxeViolations(page);
    await one!.waitFor();
    await two!.getByText('1 other open report').waitFor();
    const audit = page.getByRole('table', { name: 'Audit log, newest first' });
    await audit.getByRole('row').filter({ hasText: 'undid a decision' }).first().waitFor();
    await closePage(page);
  }, 120_000);
});
