// The bytes a reader downloads to switch the blog list's category and to go to page 2, with
// 1,000 generated posts, against the real server (`scripts/start.ts`) in Debian's Chromium: the
// reader has /blog open (its scripts and styles cached), follows a link, and every response that
// arrives until the next page is idle is counted as the server sent it (compressed body plus
// headers). For comparison, the same run measures GET /api/blog/posts, which the list used to
// download on any change of category or page. Part of `npm run bench:pages`; runs alone with
// `npx tsx scripts/bench/blog-switch.ts [posts]`.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page, type Request } from 'playwright-core';
import { CHROMIUM_ARGS } from '../lib/chromium.ts';
import { chromiumBinary, findOrInstall } from '../lib/system-deps.ts';
import { generateContent } from './generate-posts.ts';
import { machine, SQLITE_ONLY } from './lib.ts';
import { tempDir } from '../lib/temp.ts';

/** Target: a reader switching category at 1,000 posts downloads under 50 KB. */
const TARGET_BYTES = 50 * 1024;

interface Transfer {
  url: string;
  type: string;
  bytes: number;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function startSite(env: NodeJS.ProcessEnv): Promise<{ base: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Nestling is running at (http:\/\/\S+)/.exec(out);
      if (m) resolve({ base: m[1]!, child });
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}:\n${out.slice(-2000)}`)));
  });
}

async function transferOf(request: Request): Promise<Transfer> {
  const sizes = await request.sizes();
  return {
    url: new URL(request.url()).pathname,
    type: request.resourceType(),
    bytes: sizes.responseBodySize + sizes.responseHeadersSize,
  };
}

/** Everything the browser fetches from a click on `link` until the page it leads to is idle. */
async function switchCost(page: Page, base: string, from: string, link: string, to: string) {
  await page.goto(`${base}${from}`, { waitUntil: 'networkidle' });
  const finished: Promise<Transfer>[] = [];
  const onFinished = (request: Request) => finished.push(transferOf(request));
  page.on('requestfinished', onFinished);
  await page.locator(link).first().click();
  await page.waitForURL((url) => url.pathname === to);
  await page.waitForLoadState('networkidle');
  page.off('requestfinished', onFinished);
  const transfers = await Promise.all(finished);
  return { transfers, total: transfers.reduce((n, t) => n + t.bytes, 0) };
}

export async function benchBlogSwitch(count = 1000): Promise<void> {
  const dir = tempDir('nestling-bench-blog-');
  let server: ChildProcess | undefined;
  const browser = await chromium.launch({
    executablePath: await findOrInstall(chromiumBinary()),
    args: CHROMIUM_ARGS,
  });
  try {
    const content = path.join(dir, 'content');
    generateContent('content', content, count);
    const category = (
      JSON.parse(fs.readFileSync(path.join(content, 'blog-categories.json'), 'utf8')) as { slug: string }[]
    )[0]!.slug;
    console.log(`\nBuilding the site with ${count.toLocaleString('en')} generated posts …`);
    const started = await startSite({
      ...SQLITE_ONLY,
      DATABASE_PATH: path.join(dir, 'bench.db'),
      CONTENT_DIR: content,
      SITE_DIR: path.join(dir, 'site'),
    });
    server = started.child;
    const { base } = started;
    const page = await (await browser.newContext()).newPage();

    const cases = [
      ['switch category', '/blog', `a[href="/blog/category/${category}"]`, `/blog/category/${category}`],
      ['go to page 2', '/blog', 'a[href="/blog/page/2#latest-articles"]', '/blog/page/2'],
      [
        'page 2 of a category',
        `/blog/category/${category}`,
        `a[href="/blog/category/${category}/page/2#latest-articles"]`,
        `/blog/category/${category}/page/2`,
      ],
    ] as const;
    console.log(`\nBlog list with ${count.toLocaleString('en')} posts: bytes downloaded per switch`);
    console.log(
      '\n| switch | from → to | requests over the network | downloaded (compressed, with headers) | target |',
    );
    console.log('| --- | --- | ---: | ---: | --- |');
    for (const [label, from, link, to] of cases) {
      const { transfers, total } = await switchCost(page, base, from, link, to);
      // Files the browser already had (scripts, styles) cost nothing; list what did.
      const fetched = transfers.filter((t) => t.bytes > 0);
      const requests = fetched.map((t) => `${t.type} ${t.url} ${kb(t.bytes)}`).join('; ');
      console.log(
        `| ${label} | ${from} → ${to} | ${fetched.length} | ${kb(total)} | ` +
          `${total < TARGET_BYTES ? 'met' : 'MISSED'} (< ${kb(TARGET_BYTES)}) |`,
      );
      console.log(`    ${requests}`);
    }

    // What the list used to fetch on any change of category or page: every post with its body.
    const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/blog/posts');
    const length = await page.evaluate(() =>
      fetch('/api/blog/posts').then(async (r) => (await r.text()).length),
    );
    const before = await transferOf((await response).request());
    console.log(
      `\nBefore, for comparison: GET /api/blog/posts (every post with its body) ${kb(before.bytes)} ` +
        `compressed, ${kb(length)} of JSON`,
    );
  } finally {
    await browser.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  console.log(`bench:blog-switch on ${machine()}, ${new Date().toISOString()}`);
  await benchBlogSwitch(Number(process.argv[2]) || 1000);
}
