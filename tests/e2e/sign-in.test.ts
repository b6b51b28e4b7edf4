// The navigation's sign-in in Chromium against the real `npm start` servers: the three-step dialog,
// account creation, sessions and sign-out through the Auth emulator (authBaseURL), and demo mode
// (baseURL). Also checks that anonymous readers never download the identity provider's SDK.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createEmulatorUser } from '../helpers/auth-emulator.ts';
import { closePage, launchBrowser, openPage } from '../helpers/browser.ts';

let browser: Browser;
const TIMEOUT = 15_000;
const DEMO_MESSAGE = 'Demo mode is active: Google authentication is not configured in this environment.';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const newPage = () => openPage(browser, TIMEOUT);

const signInButton = (page: Page) => page.locator('[data-testid=sign-in-button]');
const accountButton = (page: Page, name: string) =>
  page.getByRole('button', { name: `Account menu for ${name}`, exact: true });

async function alertText(page: Page): Promise<string> {
  const alert = page.getByRole('dialog').getByRole('alert');
  await alert.waitFor();
  return (await alert.textContent()) ?? '';
}

describe('sign-in with the Auth emulator', () => {
  const password = 'correct-horse-9';
  const local = `new-parent-${crypto.randomUUID().slice(0, 8)}`;
  const email = `${local}@example.com`;

  it('never loads the identity provider for an anonymous visitor, only once sign-in starts', async () => {
    const base = inject('authBaseURL');
    const page = await newPage();
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await page.goto(`${base}/`);
    await signInButton(page).waitFor();
    await page.waitForLoadState('networkidle');
    const anonymous = [...urls];
    expect(anonymous.filter((url) => /firebase|identitytoolkit|securetoken/i.test(url))).toEqual([]);
    expect(anonymous.filter((url) => url.includes(inject('authEmulatorHost')))).toEqual([]);

    // Starting sign-in loads the SDK on demand and talks to the emulator.
    await signInButton(page).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Continue with Email' }).click();
    await dialog.getByLabel('Email').fill(`nobody-${crypto.randomUUID().slice(0, 8)}@example.com`);
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
    await dialog.getByLabel('Password').waitFor();
    const later = urls.slice(anonymous.length);
    expect(later.some((url) => url.endsWith('.js') && !anonymous.includes(url))).toBe(true);
    expect(later.some((url) => url.includes('identitytoolkit'))).toBe(true);
    await closePage(page);
  });

  it('validates, creates an account, keeps the session across reloads and signs out', async () => {
    const base = inject('authBaseURL');
    const page = await newPage();
    await page.goto(`${base}/`);
    await signInButton(page).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('heading', { name: /^Sign In to / }).textContent()).toMatch(
      /^Sign In to \S/,
    );

    await dialog.getByRole('button', { name: 'Continue with Email' }).click();
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
    expect(await alertText(page)).toBe('Please enter your email');
    // Back clears the error; the email step comes back without it.
    await dialog.getByRole('button', { name: 'Back' }).click();
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Continue with Email' }).click();

    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Email').press('Enter');
    await dialog.getByText('No account found. Please create a password for your new account.').waitFor();
    expect(await dialog.getByLabel('Email').isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    expect(await alertText(page)).toBe('Please enter your password');
    await dialog.getByLabel('Password').fill(password);
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(`${base}/confirmation`);

    await page.goto(`${base}/`);
    await accountButton(page, local).waitFor();
    await page.reload();
    await accountButton(page, local).waitFor();
    expect(await signInButton(page).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Favourites, 3 items' }).count()).toBe(1);

    await accountButton(page, local).click();
    const menu = page.getByRole('menu');
    await menu.getByText(email).waitFor();
    await menu.getByText('Member').waitFor();
    await menu.getByText('Buyer').waitFor();
    await menu.getByRole('menuitem', { name: 'Sign Out' }).click();
    await signInButton(page).waitFor();
    expect(await page.getByRole('link', { name: 'Favourites, 0 items' }).count()).toBe(1);
    await page.reload();
    await signInButton(page).waitFor();
    await closePage(page);
  });

  it('shows Incorrect email or password for a wrong password, then signs in', async () => {
    const base = inject('authBaseURL');
    const existing = await createEmulatorUser(inject('authEmulatorHost'), { password });
    const page = await newPage();
    await page.goto(`${base}/`);
    await signInButton(page).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Continue with Email' }).click();
    await dialog.getByLabel('Email').fill(existing.email);
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
    await dialog.getByLabel('Password').fill('not-the-password');
    await dialog.getByLabel('Password').press('Enter');
    expect(await alertText(page)).toBe('Incorrect email or password');
    expect(await dialog.getByText('No account found').count()).toBe(0);

    await dialog.getByLabel('Password').fill(password);
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await accountButton(page, existing.email.split('@')[0]!).waitFor();
    await closePage(page);
  });
});

describe('sign-in in demo mode', () => {
  it('offers Try Demo Mode, shows the demo parent and exits demo mode', async () => {
    const base = inject('baseURL');
    const page = await newPage();
    await page.goto(`${base}/`);
    await signInButton(page).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Continue with Google' }).click();
    await dialog.getByText(DEMO_MESSAGE).waitFor();
    await dialog.getByRole('button', { name: 'Try Demo Mode' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await accountButton(page, 'Demo Parent').waitFor();

    // The demo session belongs to this browser: it survives a reload.
    await page.reload();
    await accountButton(page, 'Demo Parent').click();
    await page.getByRole('menuitem', { name: 'Exit Demo Mode' }).click();
    await signInButton(page).waitFor();
    await page.reload();
    await signInButton(page).waitFor();
    await closePage(page);
  });
});
