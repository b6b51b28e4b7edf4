import { createRequire } from 'node:module';
import {
  type Browser,
  type BrowserContextOptions,
  chromium,
  type Frame,
  type Locator,
  type Page,
} from 'playwright-core';
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

let shared: Promise<Browser> | undefined;

/**
 * The browser of this Vitest worker: launched by the first file that asks and kept for the files
 * the worker runs next (isolate: false keeps this module, and so the browser), where a launch and
 * a close cost about 1.3 s of CPU a file. Each file closes the contexts it opened, with
 * closeContexts in its afterAll. A browser that crashed is launched anew for the next file. It is
 * killed, and its profile removed, when the worker ends (Vitest ends a worker with SIGTERM).
 */
export function workerBrowser(): Promise<Browser> {
  if (!shared) {
    const launching = chromium
      .launch({
        executablePath: inject('chromiumPath'),
        args: TEST_ARGS,
        headless: true,
        // Playwright would close it gracefully on SIGTERM and keep the worker alive meanwhile;
        // Vitest kills a worker that has not exited 0.5 s after SIGTERM, which could leave the
        // browser's profile behind. Exiting at once runs Playwright's exit handler instead, which
        // kills the browser and removes its profile before the worker is gone.
        handleSIGTERM: false,
      })
      .then(
        (browser) => {
          browser.on('disconnected', () => {
            if (shared === launching) shared = undefined;
          });
          return browser;
        },
        (error: unknown) => {
          shared = undefined;
          throw error;
        },
      );
    shared = launching;
    if (!process.listeners('SIGTERM').includes(exitOnSigterm)) process.once('SIGTERM', exitOnSigterm);
  }
  return shared;
}

function exitOnSigterm() {
  process.exit(128 + 15);
}

/** Closes every context of the browser: at the end of a file, the ones it opened (failed tests' too). */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
}

/** What expectNoAxeViolations reads of axe.run's answer. */
interface AxeResults {
  violations: { id: string; impact?: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

// axe-core as @axe-core/playwright has it, the version that package is made for.
const { source: AXE_SOURCE } = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'))(
  'axe-core',
) as { source: string };

/**
 * Puts axe into the frame's document unless it is there already, set up as @axe-core/playwright's
 * legacy mode sets it up. A document keeps it for the checks after: each injection compiles axe's
 * half a megabyte again, about 0.4 s of CPU, and @axe-core/playwright injects twice a check.
 */
async function injectAxe(frame: Frame): Promise<void> {
  if (await frame.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function')) {
    return;
  }
  await frame.evaluate(
    `${AXE_SOURCE}
;axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } });`,
  );
}

/** Runs axe on the page and fails with a readable list of violations. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // As @axe-core/playwright's legacy mode does: axe in the page and every frame, then axe.run in
  // the page, which gathers the results of its same-origin frames; the default mode runs each frame
  // apart and merges the results in a blank page opened for it, the same results in about 1.7 times
  // the time. The frames it leaves out are cross-origin ones (the identity provider's), not ours.
  // A frame that cannot take axe (one being replaced, or slow) is left out, as the package does.
  await injectAxe(page.mainFrame());
  for (const frame of page.frames().slice(1)) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('axe took over a second to load')), 1_000);
    });
    await Promise.race([injectAxe(frame), timeout])
      .catch(() => {})
      .finally(() => clearTimeout(timer));
  }
  // Violations only: collecting the passing nodes too doubles the time axe takes.
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run: (...args: unknown[]) => Promise<AxeResults> } };
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  const summary = violations.map(
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

/** Playwright's viewport when a context names none. */
const DEFAULT_VIEWPORT = { width: 1280, height: 720 };

/**
 * Pages a file's tests reuse, for tests that read signed out and leave nothing in the browser (or
 * leave it signed out): a load in a page already open costs Chromium under half of one in a fresh
 * context, which starts a renderer process. A test takes a page (one given back, else a new one in a
 * context of its own) and gives it back when it passes; a failed test's page is never reused.
 */
export class PagePool {
  readonly #free: Page[] = [];
  readonly #browser: Browser;
  readonly #timeoutMs: number;
  readonly #options: BrowserContextOptions;

  constructor(browser: Browser, timeoutMs: number, options: BrowserContextOptions = {}) {
    this.#browser = browser;
    this.#timeoutMs = timeoutMs;
    this.#options = options;
  }

  /** A page at the pool's viewport (or `viewport`), whose uncaught errors from now on are the taker's. */
  async take(viewport = this.#options.viewport ?? DEFAULT_VIEWPORT): Promise<Page> {
    const page = this.#free.pop() ?? (await openPage(this.#browser, this.#timeoutMs, this.#options));
    forgetPageErrors(page);
    if (viewport) await page.setViewportSize(viewport);
    return page;
  }

  /** Fails on any uncaught error the page saw since it was taken, then keeps it for the next test. */
  giveBack(page: Page): void {
    expectNoPageErrors(page);
    this.#free.push(page);
  }
}

/** Fails on any uncaught error the page saw, then closes its context. */
export async function closePage(page: Page): Promise<void> {
  expectNoPageErrors(page);
  await page.context().close();
}

/** Fails on any uncaught error the page saw since it opened or since this last asked, and forgets them. */
export function expectNoPageErrors(page: Page): void {
  expect(forgetPageErrors(page)).toEqual([]);
}

/** The uncaught errors the page saw since it opened or since they were last asked for, forgotten. */
export function forgetPageErrors(page: Page): string[] {
  return pageErrors.get(page)?.splice(0) ?? [];
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
