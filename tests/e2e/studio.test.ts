// The studio end to end (docs/product.md, "The studio"), on a server of its own started from a copy
// of the run's auth build, with a real publisher whose schedule ticks every 2 s: an author writes a
// draft in Chromium (saved by itself) and submits it; an editor opens it, previews it, schedules it
// a little ahead in their own time zone, and once the server's clock is moved to that time
// (tests/helpers/moved-clock.mjs) it goes live on its page, /blog, rss.xml and search. The editor
// then edits, restores an earlier revision and republishes: the page shows the restored text.
// Typing offline is kept in the browser and saved when back online, and a save on an old revision
// opens the dialog that shows what changed. Three publishes in all (the schedule's snapshot, its
// time, the republish), each a real build, waited for by polling with a deadline. axe runs on
// /studio and the editor at 390 and 1280 px. The API's rules (roles, 409, redirects, images) are
// tested in tests/api.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createEmulatorUser, EMULATOR_PROJECT_ID } from '../../scripts/lib/auth-emulator.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import {
  closePage,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  signInWithEmail,
  waitForIsland,
} from '../helpers/browser.ts';
import { setRole } from '../helpers/roles.ts';
import { startFromBuild, type StartedServer } from '../helpers/start-server.ts';
import { CONTENT_DIR } from '../helpers/test-db.ts';

/** Preloaded into the server: its clock runs ahead by what `clockFile` says. */
const MOVED_CLOCK = path.resolve(import.meta.dirname, '../helpers/moved-clock.mjs');
let dir: string;
let databasePath: string;
/** The file that says how many milliseconds the server's clock runs ahead of the real one. */
let clockFile: string;
let server: StartedServer;
let browser: Browser;

beforeAll(async () => {
  dir = tempDir('nestling-studio-');
  const contentDir = path.join(dir, 'content');
  databasePath = path.join(dir, 'nestling.db');
  clockFile = path.join(dir, 'clock-ahead-ms');
  fs.cpSync(CONTENT_DIR, contentDir, { recursive: true });
  const host = inject('authEmulatorHost');
  server = await startFromBuild(inject('builtSites').auth, {
    CONTENT_DIR: contentDir,
    DATABASE_PATH: databasePath,
    SITE_DIR: path.join(dir, 'site'),
    PUBLIC_FIREBASE_API_KEY: 'emulator-api-key',
    PUBLIC_FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
    FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
    FIREBASE_AUTH_EMULATOR_HOST: host,
    PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: host,
    MODERATION_HOLD_FIRST: '0',
    // A scheduled post is looked for every 2 s rather than every 30 s.
    PUBLISH_TICK_SECONDS: '2',
    // The scheduled time is reached by moving the server's clock, not by waiting for it.
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${JSON.stringify(MOVED_CLOCK)}`,
    MOVED_CLOCK_FILE: clockFile,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const get = (p: string) => fetch(`${server.url}${p}`);

/** Polls `check` every half second until it holds; fails with `what` after `ms`. */
async function until(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) {
      // The server's log says what its publisher did meanwhile.
      const log = server.output().split('\n').slice(-40).join('\n');
      throw new Error(
        `${what} did not happen within ${Math.round(ms / 1000)} s. The server's log ends:\n${log}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A full build takes 30-50 s here, more on a busy machine. */
const BUILD_MS = 180_000;

const TITLE = 'The Wombatine Pram Test';
const SLUG = 'the-wombatine-pram-test';
const FIRST_DRAFT = 'Draft one: the wombatine pram folds in one hand.';
const FINAL_TEXT = 'Final text: the wombatine pram folds in one hand and fits a small boot.';
const EDITOR_NOTE = "Editor's note: tested again in the rain.";
const ZONE = 'America/New_York';

/** A time as a datetime-local input in `zone` writes it: "2026-11-26T09:31". */
function localValue(date: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

async function searchFor(word: string): Promise<string[]> {
  const page = await browser.newPage();
  await page.goto(`${server.url}/blog`);
  await waitForIsland(page, 'SearchButton');
  await page.getByRole('button', { name: 'Search the blog' }).click();
  await page.getByLabel('Search posts').fill(word);
  await page.getByText(/\d+ results?|No posts match/).waitFor();
  const links = await page
    .getByRole('dialog')
    .getByRole('link')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  await page.close();
  return links;
}

/** axe at a phone's width and a desktop's. */
async function axeAtBothWidths(page: Page): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoAxeViolations(page);
  }
}

interface Person {
  email: string;
  password: string;
  idToken: string;
}

/** A new account that has signed in once (which makes its profile), then given `role`. */
async function writer(name: string, role: 'author' | 'editor'): Promise<Person> {
  const password = 'studio-passphrase-8';
  const made = await createEmulatorUser(inject('authEmulatorHost'), { displayName: name, password });
  const page = await openPage(browser, 20_000);
  await page.goto(`${server.url}/studio`);
  await waitForIsland(page, 'StudioList');
  await page.getByText('Sign in with a writer’s account to open the studio.').waitFor();
  await signInWithEmail(page, made.email, password);
  await page.getByRole('heading', { name: 'The studio is for Nestling’s authors and editors' }).waitFor();
  await closePage(page);
  await setRole(made.email, role, { DATABASE_PATH: databasePath });
  return { email: made.email, password, idToken: made.idToken };
}

async function signedIn(person: Person, where: string, island: string, zone?: string): Promise<Page> {
  const page = await openPage(browser, 20_000, zone ? { timezoneId: zone } : {});
  await page.goto(`${server.url}${where}`);
  await waitForIsland(page, island);
  await signInWithEmail(page, person.email, person.password);
  return page;
}

const savedLine = (page: Page) => page.getByRole('status').filter({ hasText: /^Saved \d\d:\d\d/ });

describe('the studio', { timeout: 900_000 }, () => {
  let author: Person;
  let editor: Person;
  let postId: number;

  it('an author writes a draft that saves by itself, and submits it for review', async () => {
    author = await writer('Author Ada', 'author');
    const page = await signedIn(author, '/studio', 'StudioList');
    await page.getByText('No posts yet.').waitFor();
    await axeAtBothWidths(page);
    await page.getByRole('link', { name: 'New post' }).click();
    await waitForIsland(page, 'StudioEditor');
    await page.getByLabel('Title', { exact: true }).fill(TITLE);
    // The slug follows the title.
    await expect(page.getByLabel('Address (slug)').inputValue()).resolves.toBe(SLUG);
    await page.getByLabel('Excerpt').fill('A pram tested by parents.');
    await page.getByRole('group', { name: 'Categories' }).getByRole('checkbox').first().check();
    await page.getByLabel('Body (Markdown)').fill(FIRST_DRAFT);
    await savedLine(page).waitFor();
    await page.waitForURL(/\/studio\/edit\/\?post=\d+$/);
    postId = Number(new URL(page.url()).searchParams.get('post'));
    // The live preview and the counts come from the server's rendering.
    await page.getByRole('region', { name: 'Preview' }).getByText(FIRST_DRAFT).waitFor();
    await page.getByText(/\d+ words · 1 min read/).waitFor();

    await page.getByLabel('Body (Markdown)').fill(FINAL_TEXT);
    await page
      .getByRole('status')
      .filter({ hasText: /Unsaved changes|Saving…/ })
      .first()
      .waitFor();
    await savedLine(page).waitFor();
    await axeAtBothWidths(page);
    // An author cannot publish.
    expect(await page.getByRole('button', { name: 'Publish now' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByText('Submitted: it waits for an editor to review and publish it.').waitFor();
    await closePage(page);

    const saved = await fetch(`${server.url}/api/studio/posts/${postId}`, {
      headers: { Authorization: `Bearer ${author.idToken}` },
    });
    expect(await saved.json()).toMatchObject({ status: 'review', markdown: FINAL_TEXT, title: TITLE });
  });

  it('an editor previews it, schedules it in their time zone, and it goes live at that time everywhere', async () => {
    editor = await writer('Editor Eli', 'editor');
    const page = await signedIn(editor, '/studio', 'StudioList', ZONE);
    const row = page.getByRole('row').filter({ hasText: TITLE });
    await row.filter({ hasText: 'In review' }).filter({ hasText: 'Author Ada' }).waitFor();
    await page.getByLabel('Show', { exact: true }).selectOption('review');
    await row.getByRole('link', { name: TITLE }).click();
    await waitForIsland(page, 'StudioEditor');
    await expect(page.getByLabel('Body (Markdown)').inputValue()).resolves.toBe(FINAL_TEXT);

    // Preview opens the real post page in a new tab.
    const [preview] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: /^Preview/ }).click(),
    ]);
    await preview
      .frameLocator('iframe[title="The post as readers will see it"]')
      .getByRole('heading', { name: TITLE })
      .waitFor({ timeout: 30_000 });
    await preview.close();

    await page.getByRole('button', { name: 'Schedule…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule this post' });
    const when = dialog.getByLabel(`Date and time (${ZONE})`);
    // A time already past is refused.
    await when.fill(localValue(new Date(Date.now() - 60 * 60_000), ZONE));
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'That time has passed' }).waitFor();
    // The next whole minute but ten: time for the snapshot's build and, after the server's clock is
    // moved there, the publish, all before the real clock gets there (two minutes were not always
    // enough on a busy machine). Nothing waits for that time itself.
    const at = new Date(Math.ceil((Date.now() + 600_000) / 60_000) * 60_000);
    await when.fill(localValue(at, ZONE));
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('status').filter({ hasText: 'Scheduled for' }).first().waitFor();
    expect(await page.getByText('Scheduled', { exact: true }).count()).toBeGreaterThan(0);

    // Stored in UTC: the time chosen in New York.
    const stored = await fetch(`${server.url}/api/studio/posts/${postId}`, {
      headers: { Authorization: `Bearer ${editor.idToken}` },
    });
    const post = (await stored.json()) as { status: string; publishAt: string };
    expect(post.status).toBe('scheduled');
    expect(new Date(post.publishAt).getTime()).toBe(at.getTime());

    // The snapshot is built; until its time, readers do not have the post.
    await page
      .getByRole('status')
      .filter({ hasText: /Scheduled: it goes live on|went wrong/ })
      .waitFor({ timeout: BUILD_MS });
    expect(await page.getByText(/went wrong/).count()).toBe(0);
    expect((await get(`/blog/${SLUG}`)).status).toBe(404);

    // The server's clock moves to a second past that time; the post goes live at its next tick,
    // before the real clock reaches that time.
    fs.writeFileSync(clockFile, String(at.getTime() + 1_000 - Date.now()));
    await until('the scheduled post going live', at.getTime() - Date.now(), async () => {
      return (await get(`/blog/${SLUG}`)).status === 200;
    });
    expect(Date.now()).toBeLessThan(at.getTime());
    expect(await (await get(`/blog/${SLUG}`)).text()).toContain(FINAL_TEXT);
    const live = await get(`/api/blog/posts/${SLUG}`);
    expect(live.status).toBe(200);
    expect(((await live.json()) as { publishedAt: string }).publishedAt).toBe(at.toISOString());
    expect(await (await get('/blog')).text()).toContain(TITLE);
    expect(await (await get('/rss.xml')).text()).toContain(`/blog/${SLUG}</link>`);
    expect(await searchFor('wombatine')).toEqual([`/blog/${SLUG}`]);
    await closePage(page);
  });

  it('the editor edits, restores an earlier revision (which publishes nothing) and republishes it', async () => {
    const page = await signedIn(editor, `/studio/edit/?post=${postId}`, 'StudioEditor');
    const body = page.getByLabel('Body (Markdown)');
    await expect(body.inputValue()).resolves.toBe(FINAL_TEXT);
    await body.fill(`${FINAL_TEXT}\n\n${EDITOR_NOTE}`);
    await savedLine(page).waitFor();

    const answer = await fetch(`${server.url}/api/studio/posts/${postId}/revisions`, {
      headers: { Authorization: `Bearer ${editor.idToken}` },
    });
    const revisions = (await answer.json()) as { revision: number; markdown: string }[];
    const first = revisions.find((r) => r.markdown === FIRST_DRAFT)!;
    expect(first).toBeDefined();

    const history = page.getByRole('region', { name: 'History' });
    await history.getByRole('button', { name: `Compare revision ${first.revision}` }).click();
    await history.locator('del').filter({ hasText: FIRST_DRAFT }).waitFor();
    await axeAtBothWidths(page);
    await history.getByRole('button', { name: `Restore revision ${first.revision}` }).click();
    await history
      .getByRole('status')
      .filter({ hasText: `Revision ${first.revision} is the current draft again. Nothing was published` })
      .waitFor();
    await expect(body.inputValue()).resolves.toBe(FIRST_DRAFT);
    // Restoring published nothing: readers still have the final text.
    expect(await (await get(`/blog/${SLUG}`)).text()).toContain(FINAL_TEXT);

    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('status').filter({ hasText: 'Building the site…' }).waitFor();
    const outcome = page.getByRole('status').filter({ hasText: /^Live|went wrong/ });
    await outcome.waitFor({ timeout: BUILD_MS });
    // A failed run says why on the page; the server's log says what its publisher did.
    const said = (await outcome.textContent()) ?? '';
    expect(
      said,
      `${said}\nThe server's log ends:\n${server.output().split('\n').slice(-40).join('\n')}`,
    ).toMatch(/^Live/);
    await until('the republished text', 10_000, async () =>
      (await (await get(`/blog/${SLUG}`)).text()).includes(FIRST_DRAFT),
    );
    const html = await (await get(`/blog/${SLUG}`)).text();
    expect(html).not.toContain(FINAL_TEXT);
    expect(html).not.toContain(EDITOR_NOTE);
    await closePage(page);

    // The list shows where the post is now.
    const list = await signedIn(editor, '/studio', 'StudioList');
    await list.getByRole('row').filter({ hasText: TITLE }).filter({ hasText: 'Published' }).waitFor();
    await closePage(list);
  });

  it('keeps typing through a lost connection, and shows what changed when someone saved first', async () => {
    const url = `/studio/edit/?post=${postId}`;
    const kept = (on: Page) =>
      on.evaluate((key) => localStorage.getItem(key), `nestling:studio-draft:${postId}`);
    const serverText = async () => {
      const res = await fetch(`${server.url}/api/studio/posts/${postId}`, {
        headers: { Authorization: `Bearer ${editor.idToken}` },
      });
      return ((await res.json()) as { markdown: string }).markdown;
    };
    const page = await signedIn(editor, url, 'StudioEditor');
    const body = page.getByLabel('Body (Markdown)');
    await expect(body.inputValue()).resolves.toBe(FIRST_DRAFT);
    await page.context().setOffline(true);
    await body.fill(`${FIRST_DRAFT}\n\nTyped offline.`);
    await page
      .getByRole('status')
      .filter({ hasText: 'Offline: your changes are kept in this browser' })
      .waitFor();
    expect(await kept(page)).toContain('Typed offline.');
    await page.context().setOffline(false);
    await savedLine(page).waitFor();
    expect(await serverText()).toContain('Typed offline.');
    expect(await kept(page)).toBeNull();

    // A second window opens the post, then the first saves again: the second's save is too late.
    const other = await signedIn(editor, url, 'StudioEditor');
    await expect(other.getByLabel('Body (Markdown)').inputValue()).resolves.toContain('Typed offline.');
    await body.fill(`${FIRST_DRAFT}\n\nFrom the first window.`);
    await until("the first window's save", 10_000, async () => (await serverText()).includes('first window'));
    await other.getByLabel('Body (Markdown)').fill(`${FIRST_DRAFT}\n\nFrom the second window.`);
    const dialog = other.getByRole('dialog', { name: 'Someone else saved this post' });
    await dialog.locator('ins').filter({ hasText: 'From the first window.' }).waitFor();
    await expectNoAxeViolations(other);
    // Escape closes it; the status line keeps the way back to it.
    await other.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await other.getByRole('status').filter({ hasText: 'Not saved: someone else saved this post' }).waitFor();
    await other.getByRole('button', { name: 'Show what changed' }).click();
    await dialog.getByRole('button', { name: 'Keep my version' }).click();
    await savedLine(other).waitFor();
    expect(await serverText()).toContain('From the second window.');
    await closePage(other);
    await closePage(page);
  });
});
