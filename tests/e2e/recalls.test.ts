// Recall screening as parents and moderators meet it (docs/product.md, "Recall screening"), on
// the run's shared auth server:
// - /recalls with JavaScript off: the sample recalls with hazard, remedy, units, date and official
//   link, the sample-data note and when the data was updated, on a 390 px phone, axe clean; the
//   safety page, the footer and the sitemap lead to it.
// - A moderator at 390 px reads a possible recall (item, recall, terms, score, official notice) and
//   dismisses it with a reason: the card leaves with a notice, focus goes to the next card, and the
//   decision is listed and in the audit log. A confirmation publishes the whole site, which would
//   change pages under other files' tests: tests/api/recall-matches.test.ts covers it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Recall, RecallMatch, RecallStatus } from '../../api/contract.ts';
import {
  closeContexts,
  closePage,
  expectNoAxeViolations,
  openPage,
  PagePool,
  signInWithEmail,
  waitForIsland,
  workerBrowser,
} from '../helpers/browser.ts';
import { signedUpParent } from '../helpers/e2e-people.ts';
import { setRole } from '../helpers/roles.ts';

const PHONE = { width: 390, height: 844 };
const PASSWORD = 'recall-check-7';
let browser: Browser;
/**
 * The signed-out page the parents' test hands on to the moderator's, who signs in on it: a load in
 * a page already open costs Chromium about a second less than one in a fresh context (a new
 * renderer process, scripts compiled anew).
 */
let signedOut: PagePool;

beforeAll(async () => {
  browser = await workerBrowser();
  signedOut = new PagePool(browser, 20_000, { viewport: PHONE });
});
afterAll(async () => {
  await closeContexts(browser);
});

async function getJson<T>(url: string, token?: string): Promise<T> {
  const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  expect(res.status, `GET ${url}: ${text}`).toBe(200);
  return JSON.parse(text) as T;
}

/** The site's long date, the day in UTC: "November 20, 2026". */
const longDate = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));

/** No sideways scrolling at the page's width. */
async function expectFits(page: Page): Promise<void> {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe('/recalls, for parents', () => {
  it('shows the sample recalls without JavaScript, says they are samples and when they were updated', async () => {
    const base = inject('authBaseURL');
    const status = await getJson<RecallStatus>(`${base}/api/recalls/status`);
    const recalls = await getJson<Recall[]>(`${base}/api/recalls`);
    expect(status.source).toBe('sample');
    expect(status.lastImportedAt).not.toBeNull();
    expect(recalls.length).toBeGreaterThan(0);

    const page = await openPage(browser, 15_000, { javaScriptEnabled: false, viewport: PHONE });
    await page.goto(`${base}/recalls`);
    await page.getByRole('heading', { level: 1, name: 'Product Recalls' }).waitFor();
    expect(await page.locator('meta[name=description]').getAttribute('content')).toMatch(
      /checks listings against recalls of children's products, shown here with sample recalls/,
    );
    await page
      .getByText(
        `Recall data last updated ${longDate(status.lastImportedAt!)} from a sample feed in the format of the U.S. Consumer Product Safety Commission.`,
      )
      .waitFor();
    expect(await page.getByRole('note').innerText()).toMatch(
      /^These are sample recalls with made-up brands, for demonstration\. They are not real recalls\./,
    );
    // What is checked, how, and what no match means.
    const how = page.getByRole('region', { name: 'How we check listings' });
    await how
      .getByText(
        /brand and name are compared with the manufacturers, retailers, product names and model numbers/,
      )
      .waitFor();
    await how.getByText(/goes to one of our moderators/).waitFor();
    await how.getByRole('heading', { name: 'No match is not a guarantee' }).waitFor();
    expect(await how.getByRole('link', { name: 'tell us' }).getAttribute('href')).toBe('/safety#report');

    // Every recall the API lists, newest first, each with its facts and its official notice.
    const latest = page.getByRole('region', { name: 'Latest recalls of children’s products' });
    expect(await latest.getByRole('article').count()).toBe(recalls.length);
    const titles = await latest.getByRole('article').getByRole('heading', { level: 3 }).allInnerTexts();
    expect(titles).toEqual(recalls.map((r) => r.title));
    for (const recall of recalls.slice(0, 3)) {
      const card = latest.getByRole('article', { name: recall.title, exact: true });
      const text = await card.innerText();
      expect(text).toContain(longDate(recall.recallDate!));
      expect(text).toContain(recall.hazards[0]);
      expect(text).toContain(recall.remedies[0]);
      expect(text).toContain(`Units: ${recall.products[0]!.units}`);
      const notice = card.getByRole('link', { name: /^Official recall notice on cpsc\.gov/ });
      expect(await notice.getAttribute('href')).toBe(recall.url);
    }
    await expectFits(page);
    // Nothing on it needs JavaScript: no island, no script of ours.
    expect(await page.locator('astro-island, script[src]').count()).toBe(0);

    // The safety page's screening section and every page's footer lead here.
    await page.goto(`${base}/safety`);
    const screened = page.getByRole('region', { name: 'Every Listing is Checked Before It is Shown' });
    await screened
      .getByText(/brand and name are checked against sample recalls with made-up brands/)
      .waitFor();
    const fromSafety = screened.getByRole('link', { name: 'Product recalls and how the check works' });
    expect(await fromSafety.getAttribute('href')).toBe('/recalls');
    await page
      .getByRole('navigation', { name: 'Safety' })
      .getByRole('link', { name: 'Product Recalls' })
      .click();
    await page.waitForURL(`${base}/recalls`);
    await closePage(page);

    // axe runs in the page, so with JavaScript on; from a 360 to a 430 px phone it fits.
    const withJs = await signedOut.take({ width: 360, height: 800 });
    await withJs.goto(`${base}/recalls`);
    await expectFits(withJs);
    await expectNoAxeViolations(withJs);
    await withJs.setViewportSize({ width: 430, height: 900 });
    await expectFits(withJs);
    signedOut.giveBack(withJs);

    // The home page says no more than is done, and search engines find the page.
    expect(await (await fetch(`${base}/`)).text()).toContain(
      'Brands and names checked against product recalls, with moderators reviewing every match',
    );
    const sitemap = await (await fetch(`${base}/sitemap-0.xml`)).text();
    expect(sitemap).toMatch(/<loc>[^<]*\/recalls<\/loc>/);
  });
});

describe('possible recalls, for moderators', () => {
  // On the run's shared server: a dismissal changes nothing readers see, so no other file notices.
  // A confirmation starts a publish of the whole site, so it is tested through the API
  // (tests/api/recall-matches.test.ts), where the publisher's build is a stand-in.
  it('a moderator reads a possible recall on a phone and dismisses it with a reason', async () => {
    const base = inject('authBaseURL');
    const moderator = await signedUpParent('Rowan', PASSWORD);
    await setRole(moderator.email, 'moderator');
    const matches = await getJson<RecallMatch[]>(`${base}/api/moderation/recall-matches`, moderator.token);
    const open = matches.filter((m) => m.status === 'open');
    expect(open.length, 'the sample feed raises sample items').toBeGreaterThanOrEqual(2);
    const toDismiss = open[0]!;

    const page = await signedOut.take();
    await page.goto(`${base}/moderation`);
    await waitForIsland(page, 'ModerationConsole');
    await signInWithEmail(page, moderator.email, PASSWORD);
    const section = page.getByRole('region', { name: /^Possible recalls/ });
    const cardOf = (m: RecallMatch) =>
      section.getByRole('article', { name: `Possible recall: ${m.item.itemName}` });
    await cardOf(toDismiss).waitFor();
    await page
      .getByRole('navigation', { name: 'Console sections' })
      .getByRole('link', { name: `Possible recalls (${open.length})` })
      .waitFor();

    // The card: the item, the recall, what matched and how strongly, and the official notice.
    const card = cardOf(toDismiss);
    await card.getByRole('img', { name: `Listing photo of ${toDismiss.item.itemName}` }).waitFor();
    const text = await card.innerText();
    expect(text).toContain(`Brand: ${toDismiss.item.brand}`);
    expect(text).toContain(toDismiss.recall.title);
    expect(text).toContain(toDismiss.recall.hazards[0]);
    expect(text).toContain(toDismiss.recall.remedies[0]);
    expect(text).toContain(longDate(toDismiss.recall.recallDate!));
    expect(text).toContain(`Match score ${toDismiss.score} of 100`);
    for (const term of toDismiss.terms) expect(text).toContain(term);
    expect(await card.getByRole('link', { name: /^Official recall notice/ }).getAttribute('href')).toBe(
      toDismiss.recall.url,
    );
    // In words: no raw status, no ids as labels.
    expect(await section.getByText(/^(open|confirmed|dismissed|confirm|dismiss)$/).count()).toBe(0);
    expect(await section.innerText()).not.toMatch(/\b[a-z]+_[a-z_]+\b|recall-match|item-\d+|#\d/);
    await expectFits(page);
    await expectNoAxeViolations(page);
    const notices = page.getByRole('region', { name: /Notifications/ });

    // Dismissed: a reason is needed; then the card goes, focus goes to the next card, and the
    // decision is listed below.
    await card.getByRole('button', { name: 'Dismiss' }).click();
    const dismiss = page.getByRole('dialog', { name: 'Dismiss this possible recall?' });
    await dismiss.getByText('the same item and recall will not be raised again', { exact: false }).waitFor();
    await dismiss.getByRole('button', { name: 'Dismiss' }).click();
    await dismiss.getByText('Please write a reason.').waitFor();
    const reason = `A different model, checked against the notice ${crypto.randomUUID().slice(0, 4)}`;
    await dismiss.getByLabel('Reason').fill(reason);
    await dismiss.getByRole('button', { name: 'Dismiss' }).click();
    await dismiss.waitFor({ state: 'detached' });
    await card.waitFor({ state: 'detached' });
    await notices.getByText(`The possible recall of ${toDismiss.item.itemName} was dismissed.`).waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('article')?.id ?? ''))
      .toMatch(/^recall-match-\d+$/);
    const decided = section.getByRole('table', { name: 'Decided possible recalls' });
    await decided.getByRole('row').filter({ hasText: reason }).getByText('Dismissed').waitFor();

    // The decision is in the audit log, in words, with the reason.
    const audit = page.getByRole('table', { name: 'Audit log, newest first' });
    await audit
      .getByRole('row')
      .filter({ hasText: 'dismissed a possible recall' })
      .filter({ hasText: reason })
      .waitFor();
    await expectFits(page);
    await expectNoAxeViolations(page);
    await closePage(page);
  }, 120_000);
});
