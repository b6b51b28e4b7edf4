// Listing screening as moderators meet it (docs/product.md, "Listing screening"), on the run's
// shared auth server: the marketplace sends listings the rules hold, and one whose photo shows a
// face (served from this file's own listener on 127.0.0.1, a host the server fetches from); a
// moderator on a 390 px phone clears one and blocks one by keyboard, and at 1280 px moves one to
// the age group the rules suggest and publishes one with its face blurred. Each card says what held
// it, its photo is shown with the face outlined, the card goes with a notice and focus moves on,
// the API and the audit log agree, and axe finds nothing. Item ids are this file's own.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Item } from '../../api/contract.ts';
import type { ScreenedListing } from '../../api/contract/screening.ts';
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
import { sendListings } from '../helpers/listings.ts';
import { setRole } from '../helpers/roles.ts';

const PASSWORD = 'listing-check-5';
const PHOTO = readFileSync(path.resolve(import.meta.dirname, '../fixtures/photos/astronaut.jpg'));
const tag = crypto.randomUUID().slice(0, 6);

let browser: Browser;
let base: string;
let moderator: Person;
let photos: http.Server;
let photoHost: string;

const listing = (id: string, itemName: string, fields: Record<string, unknown>) => ({
  itemId: `screening-e2e-${tag}-${id}`,
  itemName: `${itemName} ${tag}`,
  category: 'toys',
  listingPrice: '18.00',
  condition: 'good',
  brand: null,
  ageGroup: null,
  featured: false,
  ...fields,
});

const sleepSack = listing('sack', 'Weighted sleep sack', { category: 'clothing', ageGroup: '6-12 months' });
const walker = listing('walker', 'Baby walker with activity tray', {
  category: 'gear',
  ageGroup: '3-4 years',
});
const lego = listing('lego', 'LEGO City fire station', { ageGroup: '1-2 years' });
let hat: ReturnType<typeof listing>;

async function screened(itemId: string): Promise<ScreenedListing> {
  const res = await fetch(`${base}/api/moderation/listings/${encodeURIComponent(itemId)}`, {
    headers: { Authorization: `Bearer ${moderator.token}` },
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as ScreenedListing;
}

async function shownItems(): Promise<Item[]> {
  const res = await fetch(`${base}/api/items`);
  expect(res.status).toBe(200);
  return (await res.json()) as Item[];
}

beforeAll(async () => {
  base = inject('authBaseURL');
  browser = await workerBrowser();
  // The marketplace's photo host: a real photograph of a person (tests/fixtures/photos/README.md).
  photos = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': PHOTO.byteLength });
    res.end(PHOTO);
  });
  await new Promise<void>((resolve) => photos.listen(0, '127.0.0.1', resolve));
  photoHost = `http://127.0.0.1:${(photos.address() as AddressInfo).port}`;
  hat = listing('hat', 'Knitted baby hat', {
    category: 'clothing',
    ageGroup: '0-6 months',
    photos: [`${photoHost}/hat-${tag}.jpg`],
  });
  moderator = await signedUpParent('Sasha', PASSWORD);
  await setRole(moderator.email, 'moderator');
  const accepted = await sendListings(base, [sleepSack, walker, lego, hat]);
  expect(accepted.accepted).toBe(4);
  const states = Object.fromEntries(accepted.listings.map((l) => [l.itemId, l.screening]));
  expect(states[sleepSack.itemId]).toBe('held');
  expect(states[walker.itemId]).toBe('held');
  expect(states[lego.itemId]).toBe('held');
});
afterAll(async () => {
  await closeContexts(browser);
  await new Promise((resolve) => photos?.close(resolve));
});

/** No sideways scrolling at the page's width. */
async function expectFits(page: Page): Promise<void> {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

async function openConsole(width: number): Promise<Page> {
  const page = await openPage(browser, 20_000, { viewport: { width, height: 900 } });
  await page.goto(`${base}/moderation`);
  await waitForIsland(page, 'ModerationConsole');
  await signInWithEmail(page, moderator.email, PASSWORD);
  await page.getByRole('region', { name: /^Listings to check/ }).waitFor();
  return page;
}

const cardOf = (page: Page, item: { itemName: string }) =>
  page
    .getByRole('region', { name: /^Listings to check/ })
    .getByRole('article', { name: `Listing to check: ${item.itemName}` });

/** Focus is on the next card of the queue, or on the section's heading when none is left. */
async function expectFocusMovedOn(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() => {
        const active = document.activeElement;
        return active?.id === 'listings-heading' || /^listing-/.test(active?.closest('article')?.id ?? '');
      }),
    )
    .toBe(true);
}

const auditRow = (page: Page, what: string, text: string) =>
  page
    .getByRole('table', { name: 'Audit log, newest first' })
    .getByRole('row')
    .filter({ hasText: what })
    .filter({
      hasText: text,
    });

describe('listings to check, for moderators', () => {
  it('on a phone: reads why a listing is held, clears one and blocks one by keyboard', async () => {
    const page = await openConsole(390);
    const notices = page.getByRole('region', { name: /Notifications/ });
    const sack = cardOf(page, sleepSack);
    await sack.waitFor();
    // What held it, in words; no raw ids or states.
    await sack.getByText(/weighted blankets or weighted swaddles for babies/).waitFor();
    const sackText = await sack.innerText();
    expect(sackText).toContain('Age and condition rules');
    expect(sackText).toContain('held it for you');
    expect(sackText).toContain('Age: 6-12 months');
    expect(sackText).not.toMatch(/\bR\d+\b|\bflag\b|screening-e2e-/);
    // No face found, so no blur on offer.
    expect(await sack.getByRole('button', { name: 'Publish with faces blurred' }).count()).toBe(0);
    const legoCard = cardOf(page, lego);
    const source = legoCard.getByRole('link', { name: /^Source/ });
    expect(await source.getAttribute('href')).toMatch(/^https:\/\//);
    expect(await source.getAttribute('target')).toBe('_blank');
    await expectFits(page);
    await expectNoAxeViolations(page);

    // Clear: the card goes, a notice says so, focus moves on, and parents get the item.
    await sack.getByRole('button', { name: 'Clear', exact: true }).click();
    const clear = page.getByRole('dialog', { name: 'Clear this listing?' });
    await clear.getByRole('button', { name: 'Clear listing' }).click();
    await clear.waitFor({ state: 'detached' });
    await sack.waitFor({ state: 'detached' });
    await notices
      .getByText(`${sleepSack.itemName} was cleared: parents see it once the site has republished.`)
      .waitFor();
    await expectFocusMovedOn(page);
    expect((await screened(sleepSack.itemId)).screening.state).toBe('cleared');
    await expect
      .poll(async () => (await shownItems()).find((item) => item.itemId === sleepSack.itemId), {
        timeout: 10_000,
      })
      .toMatchObject({
        checks: { ran: expect.arrayContaining(['rules', 'recall']) },
        safetyNotes: [expect.stringContaining('Never put a baby to sleep')],
      });

    // Block, by keyboard: a reason is needed; focus stays in the dialog and the card goes.
    const walkerCard = cardOf(page, walker);
    await walkerCard.getByRole('button', { name: 'Block' }).focus();
    await page.keyboard.press('Enter');
    const block = page.getByRole('dialog', { name: 'Block this listing?' });
    await block.waitFor();
    await block.getByRole('button', { name: 'Block listing' }).press('Enter');
    await block.getByText('Please write a reason.').waitFor();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    const reason = `Made before 2010, no label ${tag}`;
    await page.keyboard.type(reason);
    await expectNoAxeViolations(page);
    await block.getByRole('button', { name: 'Block listing' }).press('Enter');
    await block.waitFor({ state: 'detached' });
    await walkerCard.waitFor({ state: 'detached' });
    await notices.getByText(`${walker.itemName} was blocked: parents will not see it.`).waitFor();
    await expectFocusMovedOn(page);
    const blocked = await screened(walker.itemId);
    expect(blocked.screening.state).toBe('blocked');
    expect(blocked.screening.decision).toMatchObject({ decision: 'block', reason, byName: moderator.name });
    expect((await shownItems()).some((item) => item.itemId === walker.itemId)).toBe(false);

    // Both decisions are in the audit log, in words.
    await auditRow(page, 'cleared a held listing', `the listing “${sleepSack.itemName}”`).waitFor();
    await auditRow(page, 'blocked a listing', reason).waitFor();
    expect(await page.getByRole('table', { name: 'Audit log, newest first' }).innerText()).not.toContain(
      'screening-e2e-',
    );
    await expectFits(page);
    await closePage(page);
  }, 120_000);

  it('at 1280 px: moves a listing to the age group the rules suggest, and publishes a photo with its face blurred', async () => {
    // The photo is fetched and analysed off the request path; the listing waits until it is.
    await expect
      .poll(async () => (await screened(hat.itemId)).screening.state, { timeout: 60_000, interval: 500 })
      .toBe('held');
    const page = await openConsole(1280);
    const notices = page.getByRole('region', { name: /Notifications/ });

    // The photo, with the face found outlined on it and counted in words.
    // Photos load as they come into view (other held listings can come before this one).
    const hatCard = cardOf(page, hat);
    await hatCard.scrollIntoViewIfNeeded();
    await hatCard.getByRole('img', { name: `Listing photo of ${hat.itemName}` }).waitFor();
    await hatCard.getByText('1 face found', { exact: true }).waitFor();
    expect(await hatCard.locator('[data-face-box]').count()).toBe(1);
    const box = await hatCard.locator('[data-face-box]').boundingBox();
    const photo = await hatCard.getByRole('img').boundingBox();
    expect(box!.width).toBeGreaterThan(0);
    expect(box!.x).toBeGreaterThanOrEqual(photo!.x);
    expect(box!.x + box!.width).toBeLessThanOrEqual(photo!.x + photo!.width + 1);
    await hatCard.getByText('Photo check').waitFor();
    await expectNoAxeViolations(page);

    // Change age group: the rules' suggestion is chosen already; the listing is checked again and shown.
    const legoCard = cardOf(page, lego);
    await legoCard.getByRole('button', { name: 'Change age group' }).click();
    const reage = page.getByRole('dialog', { name: 'Change the age group?' });
    const select = reage.getByLabel('New age group');
    expect(await select.inputValue()).toBe('3+ years');
    await reage.getByText('The rules suggest 3+ years.').waitFor();
    await expectNoAxeViolations(page);
    await reage.getByRole('button', { name: 'Change age group' }).click();
    await reage.waitFor({ state: 'detached' });
    await legoCard.waitFor({ state: 'detached' });
    await notices.getByText(`${lego.itemName} was moved to 3+ years and cleared.`).waitFor();
    await expectFocusMovedOn(page);
    const reaged = await screened(lego.itemId);
    expect(reaged).toMatchObject({ ageGroup: '3+ years', screening: { state: 'cleared' } });

    // Publish with faces blurred: parents get the blurred copy the analysis made, not the photo shown here.
    const original = (await screened(hat.itemId)).screening.photos[0]!.url;
    expect(original).toBeTruthy();
    await hatCard.getByRole('button', { name: 'Publish with faces blurred' }).click();
    const blur = page.getByRole('dialog', { name: 'Publish with faces blurred?' });
    await blur.getByRole('button', { name: 'Publish with faces blurred' }).click();
    await blur.waitFor({ state: 'detached' });
    await hatCard.waitFor({ state: 'detached' });
    await notices.getByText(`${hat.itemName} was published with faces blurred.`).waitFor();
    await expectFocusMovedOn(page);
    const blurred = await screened(hat.itemId);
    expect(blurred.screening).toMatchObject({ state: 'cleared', decision: { decision: 'blur' } });
    await expect
      .poll(async () => (await shownItems()).find((item) => item.itemId === hat.itemId)?.checks.ran, {
        timeout: 10_000,
      })
      .toEqual(expect.arrayContaining(['rules', 'recall', 'photo']));
    const shown = (await shownItems()).find((item) => item.itemId === hat.itemId)!;
    expect(shown.imageUrl).toBeTruthy();
    expect(shown.imageUrl).not.toBe(original);
    const image = await fetch(new URL(shown.imageUrl!, base));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);

    await auditRow(page, 'changed the age group of a listing and cleared it', '3+ years').waitFor();
    await auditRow(page, 'published a listing with faces blurred', `the listing “${hat.itemName}”`).waitFor();
    await expectNoAxeViolations(page);
    await closePage(page);
  }, 150_000);
});
