// Publishing end to end: an editor writes Markdown in a content folder, runs `npm run publish`,
// and the running `npm start` server serves the rebuilt site: the post on /blog, at its URL, in
// rss.xml, the sitemap and search. Edits show; drafts disappear; a broken post fails the publish
// with the file's name and leaves the live site serving. The same server renders an XSS corpus in
// a post's title, excerpt and body and in comments: in Chromium, nothing of it executes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../../api/contract.ts';
import { launchBrowser, waitForIsland } from '../helpers/browser.ts';
import { writePost } from '../helpers/content-fixture.ts';
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
  env = {
    CONTENT_DIR: contentDir,
    DATABASE_PATH: path.join(dir, 'nestling.db'),
    SITE_DIR: path.join(dir, 'site'),
    // The demo parent's comments below are shown at once; pre-moderation has its own tests.
    MODERATION_HOLD_FIRST: '0',
  };
  server = await startServer(env);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Runs `npm run publish`'s script with the test's environment. */
function publish(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/publish.ts'], {
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
    // Comments are stored as plain text; post them through the API as the demo parent.
    const posts = (await (await get('/api/blog/posts')).json()) as { slug: string; postId: number }[];
    const post = posts.find((p) => p.slug === XSS_SLUG)!;
    for (const content of XSS_CORPUS.slice(0, 6)) {
      const res = await fetch(`${server.url}/api/blog/posts/${post.postId}/comments`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${DEMO_TOKEN}` },
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

describe('publishing', () => {
  it('puts a new post live on /blog, at its URL, in rss.xml, the sitemap and search', async () => {
    expect((await get(`/blog/${SLUG}`)).status).toBe(404);
    writePost(contentDir, {
      slug: SLUG,
      title: 'The Zebra Stroller Guide',
      publishedAt: '2026-11-21T08:00:00Z',
      categories: ['marketplace'],
      body: 'Quokkaberry is the word nobody else uses. Strollers with zebra stripes are rare.',
      featuredImage: '/images/posts/photographing-listings.svg',
    });
    const result = await publish();
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/1 new/);

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
    const result = await publish();
    expect(result.code, result.output).toBe(0);
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
    const result = await publish();
    expect(result.code, result.output).toBe(0);
    expect((await get(`/blog/${SLUG}`)).status).toBe(404);
    expect((await get(`/api/blog/posts/${SLUG}`)).status).toBe(404);
    expect(await (await get('/rss.xml')).text()).not.toContain(SLUG);
    expect(await searchFor('quokkaberry')).toEqual([]);
  });

  it('fails on a broken post, naming the file, and leaves the live site serving', async () => {
    const before = await (await get('/blog')).text();
    const broken = path.join(contentDir, 'posts', 'broken-post.md');
    fs.writeFileSync(broken, '---\ntitle: [unclosed\nslug: broken-post\n---\nBody\n');
    const result = await publish();
    expect(result.code).toBe(1);
    expect(result.output).toContain('broken-post.md');
    expect(result.output).toMatch(/live site is unchanged/);
    const after = await get('/blog');
    expect(after.status).toBe(200);
    expect(await after.text()).toBe(before);
    fs.rmSync(broken);
  });
});
