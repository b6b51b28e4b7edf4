// The /admin publishing page in Chromium against the emulator-backed server: a signed-out visitor
// gets a sign-in prompt, a plain parent is refused, an admin publishes and sees the release go live
// (tests/e2e/publish.test.ts rolls back).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createEmulatorUser } from '../helpers/auth-emulator.ts';
import { expectNoAxeViolations, launchBrowser, signInWithEmail, waitForIsland } from '../helpers/browser.ts';
import { setRole } from '../helpers/roles.ts';

let browser: Browser;
let base: string;

beforeAll(async () => {
  base = inject('authBaseURL');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the admin publishing page', () => {
  it('prompts, refuses a parent, and lets an admin publish', async () => {
    const host = inject('authEmulatorHost');
    const password = 'editor-passphrase-7';
    const editor = await createEmulatorUser(host, { displayName: 'Editor Eve', password });
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${base}/admin`);
    await waitForIsland(page, 'AdminPublish');
    await page.getByText('Sign in with an admin account to publish posts.').waitFor();

    await signInWithEmail(page, editor.email, password);
    await page.getByText('Only admins may publish.').waitFor();

    // An editor is made an admin with the documented command, against the server's database.
    setRole(editor.email, 'admin');

    await page.reload();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const queued = await page
      .getByRole('status')
      .filter({ hasText: /Release #\d+ is queued/ })
      .textContent();
    const id = /#(\d+)/.exec(queued ?? '')![1];
    // The new release goes live: its row says so, and so does the panel.
    const row = page
      .getByRole('table', { name: /Recent releases/ })
      .getByRole('row')
      .filter({ hasText: `#${id} ` });
    await row.filter({ hasText: 'Published' }).filter({ hasText: 'Live' }).waitFor({ timeout: 120_000 });
    await page.getByRole('region', { name: 'Live release' }).getByText(`Release #${id}:`).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await expectNoAxeViolations(page);
    await context.close();
  });
});
