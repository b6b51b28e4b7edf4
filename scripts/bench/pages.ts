// npm run bench:pages — Lighthouse (mobile) scores for every screen (the budget names /, /blog and
// a post), and each page's compressed JavaScript and total bytes, against the real server with a
// seeded database; then the bytes a reader downloads to switch the blog list's category or page
// with 1,000 posts (scripts/bench/blog-switch.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { openDatabase } from '../../api/db/database.ts';
import { prepareDatabase } from '../../api/db/prepare.ts';
import { liveRelease } from '../../api/db/queries/releases.ts';
import { benchBlogSwitch } from './blog-switch.ts';
import { machine, SQLITE_ONLY } from './lib.ts';
import { tempDir } from '../lib/temp.ts';
import { chromiumBinary, findOrInstall } from '../lib/system-deps.ts';
import { CHROMIUM_ARGS } from '../lib/chromium.ts';

// The same browser the tests use: CHROMIUM_PATH, Debian's or Playwright's, else Debian's package.
const CHROMIUM = await findOrInstall(chromiumBinary());

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string) {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

/** Bytes of the precompressed (Brotli, else gzip, else raw) file behind a site path. */
function compressedSize(siteRoot: string, pathname: string): number {
  const file = path.join(siteRoot, decodeURIComponent(pathname));
  for (const candidate of [`${file}.br`, `${file}.gz`, file]) {
    if (fs.existsSync(candidate)) return fs.statSync(candidate).size;
  }
  return 0;
}

console.log(`bench:pages on ${machine()}, ${new Date().toISOString()}`);
const dir = tempDir('nestling-bench-pages-');
const children: ChildProcess[] = [];
try {
  const dbFile = path.join(dir, 'bench.db');
  const { db } = await prepareDatabase(dbFile, 'content');
  const post = await db
    .selectFrom('blog_posts')
    .select('slug')
    .where('content', '!=', '')
    .orderBy('comment_count', 'desc')
    .executeTakeFirstOrThrow();
  await db.destroy();

  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    // The bench database's own SITE_DIR: a SITE_DIR's release folders belong to one database.
    env: {
      ...process.env,
      PORT: '0',
      ...SQLITE_ONLY,
      DATABASE_PATH: dbFile,
      SITE_DIR: path.join(dir, 'site'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(server);
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Nestling is running at (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    server.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  // The files the server serves: the live release's build folder.
  const served = openDatabase(dbFile);
  const live = await liveRelease(served);
  await served.destroy();
  if (!live) throw new Error('the server started without a live release');
  const siteRoot = path.join(dir, 'site', live.folder);

  const port = await freePort();
  const chrome = spawn(
    CHROMIUM,
    [
      '--headless=new',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${path.join(dir, 'chrome')}`,
      ...CHROMIUM_ARGS,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  children.push(chrome);
  await waitFor(`http://127.0.0.1:${port}/json/version`);

  console.log(
    '\n| page | performance | accessibility | best practices | SEO | JS (compressed) | total bytes |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const pages = ['/', '/blog', `/blog/${post.slug}`, '/delete-account'];
  const staticPages = ['/safety', '/privacy-policy', '/terms', '/confirmation'];
  for (const pathname of [...pages, ...staticPages]) {
    const result = await lighthouse(`${base}${pathname}`, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    if (!result) throw new Error(`no Lighthouse result for ${pathname}`);
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const requests =
      (audits['network-requests']?.details as { items?: { resourceType?: string; url?: string }[] })?.items ??
      [];
    // Lighthouse's transferSize counts response headers too (our CSP alone is ~1 KB a request);
    // the budget is about JavaScript, so sum the Brotli files the server actually sends.
    const js = requests
      .filter((r) => r.resourceType === 'Script' && r.url)
      .reduce((n, r) => n + compressedSize(siteRoot, new URL(r.url!).pathname), 0);
    const total = audits['total-byte-weight']?.numericValue ?? 0;
    console.log(
      `| ${pathname} | ${score('performance')} | ${score('accessibility')} | ${score('best-practices')} | ${score('seo')} | ` +
        `${(js / 1024).toFixed(1)} KB | ${(total / 1024).toFixed(1)} KB |`,
    );
    for (const id of ['performance', 'accessibility', 'best-practices', 'seo']) {
      if (score(id) < 100) {
        const failing = Object.values(audits)
          .filter(
            (a) =>
              a.score !== null &&
              a.score < 0.9 &&
              a.scoreDisplayMode !== 'informative' &&
              a.scoreDisplayMode !== 'manual',
          )
          .map((a) => a.id);
        console.log(`    ${pathname} ${id} < 100; audits below 0.9: ${failing.join(', ')}`);
        break;
      }
    }
  }
  // Lighthouse does not score a 404 answer; report its weight from the HTML the server sends.
  const notFound = await fetch(`${base}/no-such-page`);
  const html = await notFound.text();
  console.log(
    `| /no-such-page (${notFound.status}) | – | – | – | – | ${(html.match(/<script/g) ?? []).length} scripts | ` +
      `${(html.length / 1024).toFixed(1)} KB HTML |`,
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
}

await benchBlogSwitch(1000);
