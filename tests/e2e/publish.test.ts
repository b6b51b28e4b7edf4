// Publishing end to end: an editor writes Markdown in a content folder, runs `npm run publish`,
// and the running `npm start` server switches to the new release: the post's page and its API
// answer together, then /blog, rss.xml, the sitemap and search. Edits show; drafts disappear; a
// broken post fails the publish with the file's name and leaves the live site and API as they were;
// an admin rolls back from /admin in Chromium, and again from the command line. The same server
// renders an XSS corpus in a post's title, excerpt and body and in comments: in Chromium, nothing
// of it executes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createEmulatorUser, EMULATOR_PROJECT_ID } from '../helpers/auth-emulator.ts';
import {
  closePage,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  signInWithEmail,
  waitForIsland,
} from '../helpers/browser.ts';
import { writePost } from '../helpers/content-fixture.ts';
import { setRole } from '../helpers/roles.ts';
import { startServer, type StartedServer } from '../helpers/start-server.ts';
import { CONTENT_DIR, tempDir } from '../helpers/test-db.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;
let contentDir: string;
let env: Record<string, string>;
let server: StartedServer;
let browser: Browser;

beforeAll(async () => {
  dir = tempDir('nestling-publish-');
  contentDir = path.join(dir, 'content');
  fs.cpSync(CONTENT_DIR, contentDir, { recursive: true });
  writePost(contentDir, {
    slug: XSS_SLUG,
    title: `Hostile title <img src=x onerror="alert('title')"><script>alert('title')</script>`,
    publishedAt: '2026-11-21T09:00:00Z',
    categories: ['marketplace'],
    featuredImage: null,
    body: XSS_CORPUS.join('\n\n'),
  });
  const host = inject('authEmulatorHost');
  env = {
    CONTENT_DIR: contentDir,
    DATABASE_PATH: path.join(dir, 'nestling.db'),
    SITE_DIR: path.join(dir, 'site'),
    // Sign-in against the Auth emulator: an admin rolls back from /admin.
    PUBLIC_FIREBASE_API_KEY: 'emulator-api-key',
    PUBLIC_FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
    FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
    FIREBASE_AUTH_EMULATOR_HOST: host,
    PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: host,
    // The comments below are shown at once; pre-moderation has its own tests.
    MODERATION_HOLD_FIRST: '0',
  };
  server = await startServer(env);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Runs `npm run publish`'s script (with `args`, e.g. --rollback) with the test's environment. */
function publish(...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/publish.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

const get = (p: string) => fetch(`${server.url}${p}`);

/** Which release served an answer (the server names it on pages and API answers alike). */
const releaseOf = (res: Response) => Number(res.headers.get('x-nestling-release'));

interface Sample {
  kind: 'page' | 'api';
  status: number;
  release: number;
}

/**
 * Fetches a post's page and its API answer over and over until stopped, recording each answer's
 * status and the release that served it, in the order they were answered.
 */
function sampleWhile(slug: string) {
  const samples: Sample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const [kind, url] of [
        ['page', `/blog/${slug}`],
        ['api', `/api/blog/posts/${slug}`],
      ] as const) {
        const res = await get(url);
        await res.arrayBuffer();
        samples.push({ kind, status: res.status, release: releaseOf(res) });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    samples,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** Runs `npm run publish` and waits until the server serves the release it made. */
async function publishLive(): Promise<void> {
  const before = releaseOf(await get('/api/blog/posts'));
  const result = await publish();
  expect(result.code, result.output).toBe(0);
  await eventually(async () => releaseOf(await get('/api/blog/posts')) > before);
}

/** Waits (at most 5 s: the server follows a switch within a second) until `check` holds. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the server did not follow the switch within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const XSS_SLUG = 'xss-corpus';
const XSS_CORPUS = [
  `<script>alert('script')</script>`,
  `<img src=x onerror="alert('img')">`,
  `<svg onload="alert('svg')"><circle r="5"></circle></svg>`,
  `<svg><script>alert('svg-script')</script></svg>`,
  `<a href="javascript:alert('link')">a javascript: link</a>`,
  `[markdown link](javascript:alert('md'))`,
  `<a href="jav&#x09;ascript:alert('tab')">encoded tab</a>`,
  `<a href="&#106;avascript:alert('entity')">entity encoded</a>`,
  `<iframe src="javascript:alert('iframe')"></iframe>`,
  `<iframe srcdoc="<script>alert('srcdoc')</script>"></iframe>`,
  `<body onload="alert('body')">`,
  `<details open ontoggle="alert('details')">x</details>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="alert('mxss')">`,
  `<form action="javascript:alert('form')"><button>go</button></form>`,
  `<object data="javascript:alert('object')"></object>`,
  `<div style="background:url(javascript:alert('css'))">css</div>`,
  `&lt;script&gt;alert('escaped')&lt;/script&gt;`,
  `<scr<script>ipt>alert('nested')</scr</script>ipt>`,
  `<input autofocus onfocus="alert('focus')">`,
  `<meta http-equiv="refresh" content="0;url=javascript:alert('meta')">`,
];
const SLUG = 'editors-zebra-stroller-guide';

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

describe('hostile content', () => {
  it('renders the XSS corpus in posts and comments without executing any of it', async () => {
    // Comments are stored as plain text; post them through the API as a signed-in parent.
    const parent = await createEmulatorUser(inject('authEmulatorHost'), { displayName: 'Hostile Parent' });
    const posts = (await (await get('/api/blog/posts')).json()) as { slug: string; postId: number }[];
    const post = posts.find((p) => p.slug === XSS_SLUG)!;
    for (const content of XSS_CORPUS.slice(0, 6)) {
      const res = await fetch(`${server.url}/api/blog/posts/${post.postId}/comments`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${parent.idToken}` },
        body: JSON.stringify({ content, parentCommentId: null }),
      });
      expect([201, 429]).toContain(res.status);
    }
    for (const path of [`/blog/${XSS_SLUG}`, '/blog', '/']) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
      if (path === `/blog/${XSS_SLUG}`) {
        await page.locator('#comments').scrollIntoViewIfNeeded();
        await page.getByText("<script>alert('script')</script>").first().waitFor();
        // Click every link in the post body: none may run script.
        for (const link of await page.locator('main .prose a').all()) await link.click({ noWaitAfter: true });
        expect(
          await page.locator('a[href^="javascript:" i], iframe, object, [onerror], [onload]').count(),
        ).toBe(0);
      }
      await page.waitForTimeout(300);
      expect(dialogs, path).toEqual([]);
      await context.close();
    }
  });
});

// Each publish is a full build; on a shared 2-core machine one can take more than a minute.
describe('publishing', { timeout: 240_000 }, () => {
  it("switches a new post's page and API answer together, then shows it on /blog, in rss.xml, the sitemap and search", async () => {
    expect((await get(`/blog/${SLUG}`)).status).toBe(404);
    const before = releaseOf(await get('/api/blog/posts'));
    writePost(contentDir, {
      slug: SLUG,
      title: 'The Zebra Stroller Guide',
      publishedAt: '2026-11-21T08:00:00Z',
      categories: ['marketplace'],
      body: 'Quokkaberry is the word nobody else uses. Strollers with zebra stripes are rare.',
      featuredImage: '/images/posts/photographing-listings.svg',
    });
    const sampling = sampleWhile(SLUG);
    const result = await publish();
    expect(result.code, result.output).toBe(0);
    // The run's log (on whichever instance took the publish lock) counts the new post.
    expect(result.output + server.output()).toMatch(/1 new/);
    await eventually(async () => releaseOf(await get('/api/blog/posts')) !== before);
    const after = releaseOf(await get('/api/blog/posts'));
    await eventually(async () => sampling.samples.slice(-2).every((s) => s.release === after));
    await sampling.stop();

    // Every answer, page or API, came from the old release (no post) or the new one (the post), and
    // once one answer came from the new release no later answer came from the old one.
    const { samples } = sampling;
    expect(after).toBeGreaterThan(before);
    expect(new Set(samples.map((s) => s.release))).toEqual(new Set([before, after]));
    for (const sample of samples) {
      expect(sample, JSON.stringify(sample)).toMatchObject({ status: sample.release === after ? 200 : 404 });
    }
    const firstNew = samples.findIndex((s) => s.release === after);
    expect(samples.slice(firstNew).every((s) => s.release === after)).toBe(true);
    expect(samples.slice(0, firstNew).map((s) => s.kind)).toEqual(expect.arrayContaining(['page', 'api']));
    expect(samples.slice(firstNew).map((s) => s.kind)).toEqual(expect.arrayContaining(['page', 'api']));

    const page = await get(`/blog/${SLUG}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('The Zebra Stroller Guide');
    expect(await (await get('/blog')).text()).toContain('The Zebra Stroller Guide');
    expect(await (await get('/rss.xml')).text()).toContain(`/blog/${SLUG}</link>`);
    const sitemapIndex = await (await get('/sitemap-index.xml')).text();
    const sitemap = new URL(/<loc>([^<]+)<\/loc>/.exec(sitemapIndex)![1]!).pathname;
    expect(await (await get(sitemap)).text()).toContain(`/blog/${SLUG}`);
    expect(await searchFor('quokkaberry')).toEqual([`/blog/${SLUG}`]);
  });

  it('shows an edit after the next publish', async () => {
    const file = path.join(contentDir, 'posts', `${SLUG}.md`);
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace('The Zebra Stroller Guide', 'The Striped Stroller Guide'),
    );
    await publishLive();
    const html = await (await get(`/blog/${SLUG}`)).text();
    expect(html).toContain('The Striped Stroller Guide');
    expect(html).not.toContain('The Zebra Stroller Guide');
  });

  it('withdraws a post marked draft', async () => {
    const file = path.join(contentDir, 'posts', `${SLUG}.md`);
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace('kind: article', 'kind: article\ndraft: true'),
    );
    await publishLive();
    expect((await get(`/blog/${SLUG}`)).status).toBe(404);
    expect((await get(`/api/blog/posts/${SLUG}`)).status).toBe(404);
    expect(await (await get('/rss.xml')).text()).not.toContain(SLUG);
    expect(await searchFor('quokkaberry')).toEqual([]);
  });

  it('fails on a broken post, naming the file, and leaves the live site and API serving', async () => {
    const before = await get('/blog');
    const beforePosts = await get('/api/blog/posts');
    const broken = path.join(contentDir, 'posts', 'broken-post.md');
    fs.writeFileSync(broken, '---\ntitle: [unclosed\nslug: broken-post\n---\nBody\n');
    const result = await publish();
    expect(result.code).toBe(1);
    expect(result.output + server.output()).toContain('broken-post.md');
    expect(result.output + server.output()).toMatch(/live site is unchanged/);
    const after = await get('/blog');
    expect(after.status).toBe(200);
    expect(await after.text()).toBe(await before.text());
    const afterPosts = await get('/api/blog/posts');
    expect(releaseOf(afterPosts)).toBe(releaseOf(beforePosts));
    expect(await afterPosts.json()).toEqual(await beforePosts.json());
    fs.rmSync(broken);
  });

  it('rolls back from /admin in Chromium, pages and API together, and again from the command line', async () => {
    // Live: the draft withdrawn. Before it: the post with its edited title; before that, the original.
    expect((await get(`/api/blog/posts/${SLUG}`)).status).toBe(404);
    const password = 'editor-passphrase-8';
    const editor = await createEmulatorUser(inject('authEmulatorHost'), {
      displayName: 'Editor Rae',
      password,
    });
    const page = await openPage(browser, 20_000);
    await page.goto(`${server.url}/admin`);
    await waitForIsland(page, 'AdminPublish');
    await signInWithEmail(page, editor.email, password);
    await page.getByText('Only admins may publish.').waitFor();
    setRole(editor.email, 'admin', { DATABASE_PATH: env.DATABASE_PATH! });
    await page.reload();

    const live = page
      .getByRole('table', { name: /Recent releases/ })
      .getByRole('row')
      .filter({ hasText: 'Live' });
    const liveId = Number(/#(\d+)/.exec((await live.textContent()) ?? '')![1]);
    const rollback = page.getByRole('button', { name: /^Roll back to release #\d+$/ });
    const target = Number(/#(\d+)$/.exec((await rollback.textContent()) ?? '')![1]);
    expect(target).toBeLessThan(liveId);
    await expectNoAxeViolations(page);

    await rollback.click();
    const dialog = page.getByRole('dialog', { name: `Roll back to release #${target}?` });
    await dialog.getByLabel('Reason (optional)').fill('The draft should have stayed up');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Roll back' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByRole('status')
      .filter({ hasText: `release #${target} is live again instead of #${liveId}` })
      .waitFor();
    await live.filter({ hasText: `#${target}` }).waitFor();
    await page
      .getByRole('row')
      .filter({ hasText: `#${liveId}` })
      .filter({ hasText: 'Rolled back' })
      .waitFor();
    await expectNoAxeViolations(page);
    await closePage(page);

    // Readers get the release before: the edited post, its page and its API answer alike.
    await eventually(async () => (await get(`/api/blog/posts/${SLUG}`)).status === 200);
    const answer = await get(`/api/blog/posts/${SLUG}`);
    expect(releaseOf(answer)).toBe(target);
    expect(((await answer.json()) as { title: string }).title).toBe('The Striped Stroller Guide');
    const html = await get(`/blog/${SLUG}`);
    expect(releaseOf(html)).toBe(target);
    expect(await html.text()).toContain('The Striped Stroller Guide');

    // And once more from the command line: the original title.
    const result = await publish('--rollback');
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(new RegExp(`Rolled back from release #${target} to #\\d+`));
    await eventually(async () => releaseOf(await get('/api/blog/posts')) < target);
    expect(((await (await get(`/api/blog/posts/${SLUG}`)).json()) as { title: string }).title).toBe(
      'The Zebra Stroller Guide',
    );
    expect(await (await get(`/blog/${SLUG}`)).text()).toContain('The Zebra Stroller Guide');
  });
});
