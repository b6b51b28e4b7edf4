// Publishing end to end, once, on a server of its own started from a copy of the run's auth build:
// an editor writes Markdown in the server's content folder, and on /admin a signed-out visitor is
// prompted, a plain parent refused and an admin publishes in Chromium. The running server builds
// the new release and switches to it: the post's page and its API answer together, then /blog,
// rss.xml, the sitemap and search. The same release renders an XSS corpus in a post's title,
// excerpt and body and in comments: in Chromium, nothing of it executes. The admin then rolls back
// in Chromium, pages and API together. The publisher's other cases (edits, drafts, failed builds,
// scheduled posts, the command line) run against its build step in tests/api/publisher.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BlogPost } from '../../api/contract.ts';
import { parseShards, SEARCH_SHARDS_FILE } from '../../src/lib/search-shards.ts';
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
import { writePost } from '../helpers/content-fixture.ts';
import { setRole } from '../helpers/roles.ts';
import { startFromBuild, type StartedServer } from '../helpers/start-server.ts';
import { CONTENT_DIR } from '../helpers/test-db.ts';

let dir: string;
let contentDir: string;
let databasePath: string;
let server: StartedServer;
let browser: Browser;

beforeAll(async () => {
  dir = tempDir('nestling-publish-');
  contentDir = path.join(dir, 'content');
  databasePath = path.join(dir, 'nestling.db');
  fs.cpSync(CONTENT_DIR, contentDir, { recursive: true });
  const host = inject('authEmulatorHost');
  // The auth build's settings: sign-in against the Auth emulator.
  server = await startFromBuild(inject('builtSites').auth, {
    CONTENT_DIR: contentDir,
    DATABASE_PATH: databasePath,
    SITE_DIR: path.join(dir, 'site'),
    PUBLIC_FIREBASE_API_KEY: 'emulator-api-key',
    PUBLIC_FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
    FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
    FIREBASE_AUTH_EMULATOR_HOST: host,
    PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: host,
    // The comments below are shown at once; pre-moderation has its own tests.
    MODERATION_HOLD_FIRST: '0',
    // A search index in several shards, so the search box below merges them.
    SEARCH_SHARD_POSTS: '3',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

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

// The one publish is a full build; on a shared 2-core machine it can take more than a minute.
describe('publishing from /admin', { timeout: 240_000 }, () => {
  let editor: { email: string; password: string };
  let initial: number;

  it('prompts a signed-out visitor and refuses a parent who is not an admin', async () => {
    editor = { email: '', password: 'editor-passphrase-8' };
    editor.email = (
      await createEmulatorUser(inject('authEmulatorHost'), {
        displayName: 'Editor Rae',
        password: editor.password,
      })
    ).email;
    const page = await openPage(browser, 20_000);
    await page.goto(`${server.url}/admin`);
    await waitForIsland(page, 'AdminPublish');
    await page.getByText('Sign in with an admin account to publish posts.').waitFor();
    await signInWithEmail(page, editor.email, editor.password);
    await page.getByRole('heading', { name: 'This page is for Nestling’s admins' }).waitFor();
    expect(await page.getByText(/npm run|user:role/).count()).toBe(0);
    await expect(page.getByRole('button', { name: 'Publish', exact: true }).count()).resolves.toBe(0);
    await closePage(page);
  });

  it("publishes from /admin: the new post's page and API answer switch together, then /blog, rss.xml, the sitemap and search show it", async () => {
    expect((await get(`/blog/${SLUG}`)).status).toBe(404);
    initial = releaseOf(await get('/api/blog/posts'));
    writePost(contentDir, {
      slug: SLUG,
      title: 'The Zebra Stroller Guide',
      publishedAt: '2026-11-21T08:00:00Z',
      categories: ['marketplace'],
      body: 'Quokkaberry is the word nobody else uses. Strollers with zebra stripes are rare.',
      featuredImage: '/images/posts/photographing-listings.svg',
    });
    writePost(contentDir, {
      slug: XSS_SLUG,
      title: `Hostile title <img src=x onerror="alert('title')"><script>alert('title')</script>`,
      publishedAt: '2026-11-21T09:00:00Z',
      categories: ['marketplace'],
      featuredImage: null,
      body: XSS_CORPUS.join('\n\n'),
    });
    // An editor is made an admin with the documented command, against the server's database.
    await setRole(editor.email, 'admin', { DATABASE_PATH: databasePath });
    const page = await openPage(browser, 20_000);
    await page.goto(`${server.url}/admin`);
    await waitForIsland(page, 'AdminPublish');
    await signInWithEmail(page, editor.email, editor.password);

    const sampling = sampleWhile(SLUG);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const queued = await page
      .getByRole('status')
      .filter({ hasText: /Release #\d+ is queued/ })
      .textContent();
    const after = Number(/#(\d+)/.exec(queued ?? '')![1]);
    // The new release goes live: its row says so, and so does the panel.
    const row = page
      .getByRole('table', { name: /Recent releases/ })
      .getByRole('row')
      .filter({ hasText: `#${after} ` });
    try {
      await row.filter({ hasText: 'Published' }).filter({ hasText: 'Live' }).waitFor({ timeout: 180_000 });
    } catch (error) {
      // Say what the page and the server's publisher said, rather than only that time ran out.
      await sampling.stop();
      const said = await page.getByRole('table', { name: /Recent releases/ }).textContent();
      const log = server.output().split('\n').slice(-40).join('\n');
      throw new Error(
        `Release #${after} did not go live. The page says: ${said}\nThe server's log ends:\n${log}`,
        {
          cause: error,
        },
      );
    }
    await page.getByRole('region', { name: 'Live release' }).getByText(`Release #${after}:`).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await expectNoAxeViolations(page);
    await closePage(page);
    // The server's log counts the two new posts.
    expect(server.output()).toMatch(new RegExp(`Publish #${after}: 2 new`));
    await eventually(async () => sampling.samples.slice(-2).every((s) => s.release === after));
    await sampling.stop();

    // Every answer, page or API, came from the old release (no post) or the new one (the post), and
    // once one answer came from the new release no later answer came from the old one.
    const { samples } = sampling;
    expect(after).toBeGreaterThan(initial);
    expect(new Set(samples.map((s) => s.release))).toEqual(new Set([initial, after]));
    for (const sample of samples) {
      expect(sample, JSON.stringify(sample)).toMatchObject({ status: sample.release === after ? 200 : 404 });
    }
    const firstNew = samples.findIndex((s) => s.release === after);
    expect(samples.slice(firstNew).every((s) => s.release === after)).toBe(true);
    expect(samples.slice(0, firstNew).map((s) => s.kind)).toEqual(expect.arrayContaining(['page', 'api']));
    expect(samples.slice(firstNew).map((s) => s.kind)).toEqual(expect.arrayContaining(['page', 'api']));

    const post = await get(`/blog/${SLUG}`);
    expect(post.status).toBe(200);
    expect(await post.text()).toContain('The Zebra Stroller Guide');
    expect(await (await get('/blog')).text()).toContain('The Zebra Stroller Guide');
    expect(await (await get('/rss.xml')).text()).toContain(`/blog/${SLUG}</link>`);
    const sitemapIndex = await (await get('/sitemap-index.xml')).text();
    const sitemap = new URL(/<loc>([^<]+)<\/loc>/.exec(sitemapIndex)![1]!).pathname;
    expect(await (await get(sitemap)).text()).toContain(`/blog/${SLUG}`);
    // The search box merges the index's shards: the new post (in the newest shard) and an older
    // one (in the first) are both found, each once.
    expect(parseShards(await (await get(`/${SEARCH_SHARDS_FILE}`)).json()).length).toBeGreaterThan(2);
    expect(await searchFor('quokkaberry')).toEqual([`/blog/${SLUG}`]);
    const listed = (await (await get('/api/blog/posts')).json()) as BlogPost[];
    const first = listed.reduce((a, b) => (b.postId < a.postId ? b : a));
    expect(await searchFor(first.title)).toContain(`/blog/${first.slug}`);
  });

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
      // A round trip to the page: any dialog it opened has been reported by now.
      await page.evaluate(() => document.readyState);
      expect(dialogs, path).toEqual([]);
      await context.close();
    }
  });

  it('rolls back from /admin in Chromium, pages and API together', async () => {
    const page = await openPage(browser, 20_000);
    await page.goto(`${server.url}/admin`);
    await waitForIsland(page, 'AdminPublish');
    await signInWithEmail(page, editor.email, editor.password);
    const live = page
      .getByRole('table', { name: /Recent releases/ })
      .getByRole('row')
      .filter({ hasText: 'Live' });
    const liveId = Number(/#(\d+)/.exec((await live.textContent()) ?? '')![1]);
    const rollback = page.getByRole('button', { name: /^Roll back to release #\d+$/ });
    const target = Number(/#(\d+)$/.exec((await rollback.textContent()) ?? '')![1]);
    expect(target).toBe(initial);
    expect(target).toBeLessThan(liveId);
    await expectNoAxeViolations(page);

    await rollback.click();
    const dialog = page.getByRole('dialog', { name: `Roll back to release #${target}?` });
    await dialog.getByLabel('Reason (optional)').fill('The guide should wait a week');
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

    // Readers get the release before, without the post: its page and its API answer alike.
    await eventually(async () => (await get(`/api/blog/posts/${SLUG}`)).status === 404);
    const answer = await get(`/api/blog/posts/${SLUG}`);
    expect(releaseOf(answer)).toBe(target);
    const html = await get(`/blog/${SLUG}`);
    expect(html.status).toBe(404);
    expect(releaseOf(html)).toBe(target);
    expect(await (await get('/blog')).text()).not.toContain('The Zebra Stroller Guide');
  });
});
