// The navigation's sign-in in Chromium against the real `npm start` servers: the three-step dialog,
// account creation, password reset, sessions and sign-out through the Auth emulator (authBaseURL),
// with Firebase's email enumeration protection off and on (one build: the dialog reads which from
// the lookup's answer), and demo mode (baseURL). Also checks
// that anonymous readers never download the identity provider's SDK.
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createEmulatorUser,
  emulatorOobCodes,
  setEmailEnumerationProtection,
} from '../../scripts/lib/auth-emulator.ts';
import { NO_ACCOUNT_MESSAGE } from '../../src/lib/auth-messages.ts';
import {
  closeContexts,
  closePage,
  expectNoAxeViolations,
  openPage,
  PagePool,
  workerBrowser,
} from '../helpers/browser.ts';

let browser: Browser;
const TIMEOUT = 15_000;
const DEMO_MESSAGE = 'Demo mode is active: Google authentication is not configured in this environment.';

/**
 * Pages a passed test left signed out (never signed in, or signed out), for the next to start on:
 * these tests are about the dialog, not about a visitor the browser has never seen (the first is).
 */
let signedOut: PagePool;

beforeAll(async () => {
  browser = await workerBrowser();
  signedOut = new PagePool(browser, TIMEOUT);
});
afterAll(async () => {
  await closeContexts(browser);
});

const signInButton = (page: Page) => page.locator('[data-testid=sign-in-button]');
const accountButton = (page: Page, name: string) =>
  page.getByRole('button', { name: `Account menu for ${name}`, exact: true });

/** Opens the dialog from the navigation and chooses email. */
async function openEmailStep(page: Page) {
  await signInButton(page).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Continue with Email' }).click();
  return dialog;
}

async function alertText(page: Page): Promise<string> {
  const alert = page.getByRole('dialog').getByRole('alert');
  await alert.waitFor();
  return (await alert.textContent()) ?? '';
}

describe('sign-in with the Auth emulator', () => {
  it('never loads the identity provider for an anonymous visitor, only once sign-in starts', async () => {
    const base = inject('authBaseURL');
    const page = await openPage(browser, TIMEOUT);
    const urls: string[] = [];
    const onRequest = (request: Request) => urls.push(request.url());
    page.on('request', onRequest);
    await page.goto(`${base}/`);
    await signInButton(page).waitFor();
    await page.waitForLoadState('networkidle');
    const anonymous = [...urls];
    expect(anonymous.filter((url) => /firebase|identitytoolkit|securetoken/i.test(url))).toEqual([]);
    expect(anonymous.filter((url) => url.includes(inject('authEmulatorHost')))).toEqual([]);

    // Starting sign-in loads the SDK on demand and talks to the emulator.
    const dialog = await openEmailStep(page);
    await dialog.getByLabel('Email').fill(`nobody-${crypto.randomUUID().slice(0, 8)}@example.com`);
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
    await dialog.getByLabel('Password').waitFor();
    const later = urls.slice(anonymous.length);
    expect(later.some((url) => url.endsWith('.js') && !anonymous.includes(url))).toBe(true);
    expect(later.some((url) => url.includes('identitytoolkit'))).toBe(true);
    page.off('request', onRequest);
    signedOut.giveBack(page);
  });
});

// Firebase projects created since September 2023 have email enumeration protection on: the email
// lookup then never says whether an account exists, and the parent chooses. Off (older projects),
// an address with no account is known to be new. The whole dialog must work either way.
describe.each([
  { protection: false, setting: 'off' },
  { protection: true, setting: 'on' },
])('sign-in with the Auth emulator, email enumeration protection $setting', ({ protection }) => {
  const password = 'correct-horse-9';
  const newEmail = () => `new-parent-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

  beforeAll(async () => {
    await setEmailEnumerationProtection(inject('authEmulatorHost'), protection);
  });
  afterAll(async () => {
    // The emulator's default, which the other test files expect.
    await setEmailEnumerationProtection(inject('authEmulatorHost'), false);
  });

  /** Opens the dialog and enters the email, up to the password step. */
  async function passwordStep(page: Page, email: string) {
    await page.goto(`${inject('authBaseURL')}/`);
    const dialog = await openEmailStep(page);
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Email').press('Enter');
    await dialog.getByLabel('Password').waitFor();
    expect(await focusedId(page)).toBe('sign-in-password');
    expect(await dialog.getByLabel('Email').isDisabled()).toBe(true);
    expect(await dialog.getByLabel('Email').inputValue()).toBe(email);
    return dialog;
  }

  it('validates, creates an account (chosen, or offered when none exists), keeps the session and signs out', async () => {
    const base = inject('authBaseURL');
    const email = newEmail();
    const local = email.split('@')[0]!;
    const page = await signedOut.take();
    await page.goto(`${base}/`);
    await signInButton(page).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('heading', { name: /^Sign In to / }).textContent()).toMatch(
      /^Sign In to \S/,
    );

    await dialog.getByRole('button', { name: 'Continue with Email' }).click();
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
    expect(await alertText(page)).toBe('Please enter your email');
    await dialog.getByLabel('Email').fill('parent-at-example.com');
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
    await dialog.getByText('Please enter a valid email address.').waitFor();
    expect(await dialog.getByLabel('Email').inputValue()).toBe('parent-at-example.com');
    expect(await focusedId(page)).toBe('sign-in-email');
    // Back clears the error; the email step comes back without it.
    await dialog.getByRole('button', { name: 'Back' }).click();
    expect(await dialog.getByRole('alert').count()).toBe(0);

    await passwordStep(page, email);
    if (protection) {
      // Nothing is decided for the parent: signing in and creating an account are both offered.
      await dialog.getByText('Enter your password.').waitFor();
      await dialog.getByRole('button', { name: 'Forgot password?' }).waitFor();
      await expectNoAxeViolations(page);
      await dialog.getByRole('button', { name: 'Create an account' }).press('Enter');
    } else {
      // The provider says the address has no account: the step creates one.
      await dialog.getByText(NO_ACCOUNT_MESSAGE).waitFor();
      expect(NO_ACCOUNT_MESSAGE).toBe('No account found. Please create a password for your new account.');
      expect(await dialog.getByRole('button', { name: 'Create an account' }).count()).toBe(0);
    }
    await dialog.getByText('Create a password for your account.').waitFor();
    expect(await focusedId(page)).toBe('sign-in-password');
    expect(await dialog.getByLabel('Password').getAttribute('autocomplete')).toBe('new-password');
    expect(await dialog.getByRole('button', { name: 'Forgot password?' }).count()).toBe(0);
    // Offered only where the parent chose to create the account.
    expect(await dialog.getByRole('button', { name: 'Sign in instead' }).count()).toBe(protection ? 1 : 0);
    await expectNoAxeViolations(page);

    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    expect(await alertText(page)).toBe('Please enter your password');
    await dialog.getByLabel('Password').fill('short');
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    expect(await alertText(page)).toBe('That password is too short. Please use at least 6 characters.');
    // The bad input is kept and focused, to be corrected.
    expect(await dialog.getByLabel('Password').inputValue()).toBe('short');
    expect(await focusedId(page)).toBe('sign-in-password');
    await dialog.getByLabel('Password').fill(password);
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(`${base}/confirmation`);
    const sent = await emulatorOobCodes(inject('authEmulatorHost'));
    expect(sent.filter((code) => code.email === email).map((code) => code.requestType)).toEqual([
      'VERIFY_EMAIL',
    ]);

    await page.goto(`${base}/`);
    await accountButton(page, local).waitFor();
    await page.reload();
    await accountButton(page, local).waitFor();
    expect(await signInButton(page).count()).toBe(0);
    // A new account has saved nothing (docs/product.md, "Favourites and alerts").
    expect(await page.getByRole('link', { name: 'Favourites, 0 items' }).count()).toBe(1);

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
    signedOut.giveBack(page);
  });

  it('shows Incorrect email or password for a wrong password and an unknown email, then signs in', async () => {
    const existing = await createEmulatorUser(inject('authEmulatorHost'), { password });
    const page = await signedOut.take();

    let dialog = await passwordStep(page, newEmail());
    if (protection) {
      // An unknown email: the same message as a wrong password, never "no such account".
      await dialog.getByLabel('Password').fill(password);
      await dialog.getByLabel('Password').press('Enter');
      expect(await alertText(page)).toBe('Incorrect email or password');
    } else {
      // The provider already said it has no account: the step offers to create one, not to sign in.
      await dialog.getByText(NO_ACCOUNT_MESSAGE).waitFor();
      expect(await dialog.getByRole('button', { name: 'Forgot password?' }).count()).toBe(0);
    }

    dialog = await passwordStep(page, existing.email);
    // Without protection the lookup knows the account, and only signing in is offered.
    expect(await dialog.getByRole('button', { name: 'Create an account' }).count()).toBe(protection ? 1 : 0);
    await dialog.getByLabel('Password').fill('not-the-password');
    await dialog.getByLabel('Password').press('Enter');
    expect(await alertText(page)).toBe('Incorrect email or password');
    expect(await focusedId(page)).toBe('sign-in-password');
    expect(await dialog.getByText(/auth\//).count()).toBe(0);
    await expectNoAxeViolations(page);

    await dialog.getByLabel('Password').fill(password);
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await accountButton(page, existing.email.split('@')[0]!).waitFor();
    await closePage(page);
  });

  it('tells a parent creating an account that it exists, and signs them in instead', async () => {
    const email = newEmail();
    const page = await signedOut.take();
    const dialog = await passwordStep(page, email);
    if (protection) await dialog.getByRole('button', { name: 'Create an account' }).click();
    else await dialog.getByText(NO_ACCOUNT_MESSAGE).waitFor();
    // Meanwhile the account is created elsewhere (another device, another tab).
    await createEmulatorUser(inject('authEmulatorHost'), { email, password });
    await dialog.getByLabel('Password').fill(password);
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    expect(await alertText(page)).toBe('An account already exists for this email.');
    expect(await dialog.getByText(/auth\//).count()).toBe(0);
    await expectNoAxeViolations(page);

    await dialog.getByRole('button', { name: 'Sign in instead' }).click();
    await dialog.getByText('Enter your password.').waitFor();
    expect(await focusedId(page)).toBe('sign-in-password');
    expect(await dialog.getByLabel('Email').inputValue()).toBe(email);
    expect(await dialog.getByLabel('Password').getAttribute('autocomplete')).toBe('current-password');
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await dialog.getByLabel('Password').press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await accountButton(page, email.split('@')[0]!).waitFor();
    await closePage(page);
  });

  it('sends a password reset link from the password step, and says the same for an unknown email', async () => {
    const host = inject('authEmulatorHost');
    const existing = await createEmulatorUser(host, { password });
    const unknown = newEmail();
    const page = await signedOut.take();

    let dialog = await passwordStep(page, existing.email);
    const forgot = dialog.getByRole('button', { name: 'Forgot password?' });
    await forgot.focus();
    await forgot.press('Enter');
    await dialog
      .getByText(`If an account exists for ${existing.email}, we've sent a link to reset the password.`)
      .waitFor();
    expect(await dialog.getByRole('alert').count()).toBe(0);
    // Focus stays on the button, not lost to the page.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Forgot password?');
    await expectNoAxeViolations(page);
    const resets = (await emulatorOobCodes(host)).filter((code) => code.requestType === 'PASSWORD_RESET');
    expect(resets.filter((code) => code.email === existing.email)).toHaveLength(1);

    dialog = await passwordStep(page, unknown);
    if (protection) {
      await dialog.getByRole('button', { name: 'Forgot password?' }).click();
      await dialog
        .getByText(`If an account exists for ${unknown}, we've sent a link to reset the password.`)
        .waitFor();
      expect(await dialog.getByRole('alert').count()).toBe(0);
    } else {
      // Known to have no account: nothing to reset, and the step creates one instead.
      await dialog.getByText(NO_ACCOUNT_MESSAGE).waitFor();
      expect(await dialog.getByRole('button', { name: 'Forgot password?' }).count()).toBe(0);
    }
    expect((await emulatorOobCodes(host)).filter((code) => code.email === unknown)).toEqual([]);
    signedOut.giveBack(page);
  });
});

describe('sign-in in demo mode', () => {
  it('offers Try Demo Mode, shows the demo parent and exits demo mode', async () => {
    const base = inject('baseURL');
    const page = await signedOut.take();
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
