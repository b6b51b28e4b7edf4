// Favourites and alerts end to end, in Chromium against the emulator-backed server, whose SMTP_URL
// points at a real SMTP server this file runs (docs/product.md, "Favourites and alerts"): a parent
// with a verified address saves items from the home page (hearts and the navigation's badge agree,
// at 390 and 1280 px, axe clean), sees them on /favourites, follows a search from the category
// filter, confirms the address from the email, gets the email about a new matching listing and
// stops it with a mail client's one-click POST.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SavedSearchList } from '../../api/contract/favourites.ts';
import { createEmulatorUser } from '../../scripts/lib/auth-emulator.ts';
import {
  closeContexts,
  closePage,
  expectNoAxeViolations,
  openPage,
  signInWithEmail,
  waitForIsland,
  workerBrowser,
} from '../helpers/browser.ts';
import { sendListings } from '../helpers/listings.ts';
import { linksIn, startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';
import { verifiedToken } from '../helpers/verified-parent.ts';

const PASSWORD = 'correct-horse-9';
let browser: Browser;
let base: string;
let smtp: TestSmtpServer;

beforeAll(async () => {
  base = inject('authBaseURL');
  smtp = await startSmtpServer({ port: inject('smtpPort') });
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
  await smtp?.close();
});

/** The server's own address for a link in an email (PUBLIC_SITE_URL is not this test server's). */
const onServer = (link: string) => {
  const url = new URL(link);
  return `${base}${url.pathname}${url.search}${url.hash}`;
};

/** A parent whose address Firebase says is verified, signed in once through the API. */
async function verifiedParent(first: string) {
  const tag = crypto.randomUUID().slice(0, 6);
  const host = inject('authEmulatorHost');
  const user = await createEmulatorUser(host, {
    email: `${first.toLowerCase()}-${tag}@example.com`,
    password: PASSWORD,
    displayName: `${first} ${tag}`,
  });
  const token = await verifiedToken(host, user.uid, user.email);
  const res = await fetch(`${base}/api/profile`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return { email: user.email, token };
}

const heart = (page: Page, name: string) => page.getByRole('button', { name: `Save ${name} to favourites` });
const badge = (page: Page, count: number) =>
  page.getByRole('link', { name: `Favourites, ${count} ${count === 1 ? 'item' : 'items'}` });

async function featuredNames(page: Page): Promise<string[]> {
  const featured = page.locator('#featured');
  await featured.scrollIntoViewIfNeeded();
  await waitForIsland(page, 'CategoryFilter');
  return featured.locator('article h3').allTextContents();
}

describe('favourites and alerts', () => {
  it('saves items from the home page, lists them, and follows a search to the email and its one-click stop', async () => {
    const ann = await verifiedParent('Ann');
    const page = await openPage(browser, 20_000, { viewport: { width: 390, height: 844 } });
    await page.goto(`${base}/`);
    // Signed out, a heart opens sign-in and the badge says 0 (no request is made for it).
    await badge(page, 0).waitFor();
    const names = (await featuredNames(page)).map((n) =>
      n.replace(' (opens the marketplace in a new tab)', ''),
    );
    expect(names.length).toBeGreaterThanOrEqual(2);
    await heart(page, names[0]!).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    await signInWithEmail(page, ann.email, PASSWORD);
    await badge(page, 0).waitFor();
    // By keyboard and by pointer: each heart is a toggle named after its item.
    await heart(page, names[0]!).focus();
    await page.keyboard.press('Enter');
    await heart(page, names[1]!).click();
    await badge(page, 2).waitFor();
    expect(await heart(page, names[0]!).getAttribute('aria-pressed')).toBe('true');
    expect(await heart(page, names[1]!).getAttribute('aria-pressed')).toBe('true');
    await expectNoAxeViolations(page);

    // At 1280 px after a reload, hearts and badge come back from the API and still agree.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await featuredNames(page);
    await badge(page, 2).waitFor();
    await expect.poll(() => heart(page, names[1]!).getAttribute('aria-pressed')).toBe('true');
    await heart(page, names[1]!).click();
    await badge(page, 1).waitFor();
    expect(await heart(page, names[1]!).getAttribute('aria-pressed')).toBe('false');
    await expectNoAxeViolations(page);

    // /favourites lists what is saved, in plain words.
    await badge(page, 1).click();
    await page.waitForURL(`${base}/favourites`);
    await waitForIsland(page, 'FavouritesPage');
    const saved = page.getByTestId('saved-item');
    await saved.first().waitFor();
    expect(await saved.count()).toBe(1);
    expect(await saved.first().textContent()).toContain(names[0]!);
    expect(await saved.first().textContent()).toMatch(/Available, \$\d+\.\d\d/);
    await page.getByText('No saved searches.', { exact: false }).waitFor();
    await expectNoAxeViolations(page);

    // Back home: follow the toys category.
    await page.goto(`${base}/`);
    await featuredNames(page);
    await page.getByRole('button', { name: /^Toys & Games/ }).click();
    await page.getByText('Showing Toys & Games').waitFor();
    await page.getByRole('button', { name: 'Tell me about new items like these' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tell me about new items like these' });
    await dialog.getByLabel('Maximum price in dollars (optional)').fill('40');
    await dialog.getByRole('radio', { name: 'As they arrive (at most every 15 minutes)' }).check();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Save this search' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByRole('region', { name: /^Notifications/ })
      .getByText('Search saved. Check your inbox', { exact: false })
      .waitFor();

    // The double opt-in: nothing goes out until the address is confirmed from the email.
    const confirmation = await smtp.message(ann.email, 'Confirm alert emails from Nestling', 30_000);
    await page.goto(onServer(linksIn(confirmation)[0]!));
    await waitForIsland(page, 'EmailLinkAction');
    await page.getByRole('heading', { name: 'Your email address is confirmed' }).waitFor();

    // A new toy arrives from the marketplace and clears its checks: the alert tick emails it.
    const itemName = `Wooden Stacking Rings ${crypto.randomUUID().slice(0, 6)}`;
    const sent = await sendListings(base, [
      {
        itemId: `fav-e2e-${crypto.randomUUID().slice(0, 8)}`,
        itemName,
        category: 'toys',
        listingPrice: '12.00',
        condition: 'good',
        brand: 'Maple Kids',
        ageGroup: '2-3 years',
      },
    ]);
    expect(sent.listings[0]!.screening).toBe('cleared');
    const alert = await smtp.message(ann.email, `New on Nestling: ${itemName}`, 45_000);
    expect(alert.text).toContain('You get this because you saved this search');
    expect(alert.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    // The mail program's one-click unsubscribe pauses the search, without signing in.
    const oneClick = /<([^>]+)>/.exec(alert.header('List-Unsubscribe') ?? '')![1]!;
    const stopped = await fetch(onServer(oneClick), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(stopped.status).toBe(200);
    const searches = (await (
      await fetch(`${base}/api/saved-searches`, { headers: { Authorization: `Bearer ${ann.token}` } })
    ).json()) as SavedSearchList;
    expect(searches.searches[0]).toMatchObject({ category: 'toys', maxPrice: 40, paused: true });
    expect(searches.searches[0]!.lastMatch?.itemName).toBe(itemName);

    // /favourites shows the search, paused, with its last match.
    await page.goto(`${base}/favourites`);
    await waitForIsland(page, 'FavouritesPage');
    const search = page.getByTestId('saved-search');
    await search.waitFor();
    expect(await search.textContent()).toContain('Paused');
    expect(await search.textContent()).toContain(`Last match: ${itemName}`);
    await closePage(page);
    // Two viewports, four axe runs, two emails and a tick: more than the default minute beside
    // other browser files on two cores.
  }, 180_000);
});
