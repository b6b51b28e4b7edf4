import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContextOptions, chromium, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { CHROMIUM_ARGS } from '../../scripts/lib/chromium.ts';

/**
 * The tests' browser runs its compositor in the browser process rather than a GPU process of its
 * own (with no GPU it only composites in software): a page load then costs Chromium about a sixth
 * less CPU (the browser and GPU processes together 0.3 s rather than 0.5 s a load, measured), on
 * the two cores the tests share. The benchmarks keep Chromium's usual processes.
 */
const TEST_ARGS = [...CHROMIUM_ARGS, '--in-process-gpu'];

// The browser chromium-setup.ts found (CHROMIUM_PATH, Debian's, or one Playwright installed).
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: inject('chromiumPath'), args: TEST_ARGS, headless: true });
}

/** Runs axe on the page and fails with a readable list of violations. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // Violations only: collecting the passing nodes too doubles the time axe takes. Legacy mode runs
  // axe.run in the page and its same-origin frames, where the default runs each frame apart and
  // merges the results in a blank page opened for it: the same results in about 60% of the time.
  // The frames it leaves out are cross-origin ones (the identity provider's), which are not ours.
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary).toEqual([]);
}

/** Whether the element is wholly inside the window as the page is scrolled now (nothing to scroll to). */
export async function inSight(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const window = page.viewportSize();
  if (!box || !window) return false;
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= window.width && box.y + box.height <= window.height;
}

/** Waits until the named island has hydrated (Astro drops the `ssr` attribute when it has). */
export async function waitForIsland(page: Page, component: string): Promise<void> {
  await page.waitForFunction(
    (name) =>
      [...document.querySelectorAll('astro-island')].some(
        (island) =>
          island.getAttribute('component-url')?.includes(`/${name}.`) && !island.hasAttribute('ssr'),
      ),
    component,
  );
}

const pageErrors = new WeakMap<Page, string[]>();

/**
 * A page in its own browser context that records uncaught errors, including React's hydration
 * failures (an island hydrating against a store another island has already changed).
 */
export async function openPage(
  browser: Browser,
  timeoutMs = 15_000,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.setDefaultTimeout(timeoutMs);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  pageErrors.set(page, errors);
  return page;
}

/** Fails on any uncaught error the page saw, then closes its context. */
export async function closePage(page: Page): Promise<void> {
  expect(pageErrors.get(page) ?? []).toEqual([]);
  await page.context().close();
}

/** Signs in through the navigation's dialog with email and password (the account must exist). */
export async function signInWithEmail(page: Page, email: string, password: string): Promise<void> {
  await page.locator('[data-testid=sign-in-button]').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Continue with Email' }).click();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}
