// Incremental publishing with the real Astro build (docs/decisions/019): a publish renders only the
// pages a change touches and links every other file from the live release; the release folder is
// complete on its own, and a full rebuild of the same release writes the same bytes. A build that
// fails leaves the live release as it was; a change to the site's settings renders everything.
// Publishes render with one warm renderer (docs/decisions/020), as the server's publisher does:
// after the first, a publish reuses the first's bundle, and the full rebuild it is compared with
// is a plain `astro build`. The publisher runs in this process over a SQLite file of its own (no
// server, no browser).
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishRun } from '../../api/contract.ts';
import { RENDER_KEYS_FILE } from '../../api/lib/release-files.ts';
import type { DB } from '../../api/db/database.ts';
import { prepareDatabase } from '../../api/db/prepare.ts';
import { buildSite, type BuildOptions, type BuiltSite, codeKey } from '../../scripts/lib/build.ts';
import { createPublisher, type Publisher } from '../../scripts/lib/publisher.ts';
import { createSiteRenderer, type SiteRenderer } from '../../scripts/lib/site-renderer.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { parseShards, SEARCH_DIR, SEARCH_SHARDS_FILE } from '../../src/lib/search-shards.ts';
import { createContentDir, type FixturePost, writePost } from '../helpers/content-fixture.ts';

// Two categories of 12 posts each: the blog list has three pages, each category two.
const POSTS: FixturePost[] = Array.from({ length: 24 }, (_, i) => {
  const category = i % 2 === 0 ? 'news' : 'tips';
  return {
    slug: `${category}-${i}`,
    title: `${category === 'news' ? 'News' : 'Tip'} number ${i}`,
    publishedAt: new Date(Date.UTC(2026, 9, 1 + i, 9)).toISOString(),
    categories: [category],
    featuredImage: null,
    body: `The body of post ${i}, about ${category}.`,
  };
});

/** Post ids to a search shard: the 24 posts make four shards. */
const SHARD_POSTS = 7;

let dir: string;
let content: string;
let siteDir: string;
let db: DB;
let env: NodeJS.ProcessEnv;
let lines: string[];
let built: BuiltSite[];
let renderer: SiteRenderer;
/** Where renderers keep their bundles (scripts/lib/site-renderer.ts). */
const WORKSPACES = path.resolve(import.meta.dirname, '../../.site-builds');

function publisherWith(buildEnv: NodeJS.ProcessEnv): Publisher {
  return createPublisher({
    db,
    contentDir: content,
    siteDir,
    buildEnv,
    log: (line) => lines.push(line),
    // The real build; what it says it rendered is kept for the test.
    build: async (outDir, env, options) => {
      const site = await buildSite(outDir, env, { ...options, renderer });
      built.push(site);
      return site;
    },
  });
}

async function publish(
  publisher: Publisher,
  trigger: string,
): Promise<{ run: PublishRun; log: string; site: BuiltSite }> {
  lines = [];
  built = [];
  const run = await publisher.finished((await publisher.request(trigger)).id);
  const log = lines.join('\n');
  expect(run.state, log).toBe('succeeded');
  expect(built).toHaveLength(1);
  return { run, log, site: built[0]! };
}

const folderOf = (run: PublishRun) => path.join(siteDir, String(run.id));

/** Every file of a folder, relative, sorted. */
function filesOf(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((f) => fs.statSync(path.join(folder, f)).isFile())
    .sort();
}

const read = (folder: string, file: string) => fs.readFileSync(path.join(folder, file), 'utf8');
const inode = (folder: string, file: string) => fs.statSync(path.join(folder, file)).ino;
const page = (address: string) => path.join(address.slice(1), 'index.html');

/** The search index's shards, as the release lists them for the search box. */
const shardsIn = (folder: string) => parseShards(JSON.parse(read(folder, SEARCH_SHARDS_FILE)));

/** The text of every Pagefind fragment of every shard (gzip with a signature): what search knows of. */
function searchFragments(folder: string): string {
  return shardsIn(folder)
    .flatMap((shard) => {
      const fragments = path.join(folder, SEARCH_DIR, String(shard), 'fragment');
      return fs
        .readdirSync(fragments)
        .map((f) => zlib.gunzipSync(fs.readFileSync(path.join(fragments, f))).toString('utf8'));
    })
    .join('\n');
}

/** The search shard a post's page is in, by its post id as the release recorded it. */
function shardOf(folder: string, address: string): number {
  const { posts } = JSON.parse(read(folder, RENDER_KEYS_FILE)) as { posts: Record<string, number> };
  return Math.floor(posts[address]! / SHARD_POSTS);
}

beforeAll(async () => {
  dir = tempDir('nestling-incremental-');
  content = createContentDir(POSTS);
  siteDir = path.join(dir, 'site');
  const databasePath = path.join(dir, 'nestling.db');
  ({ db } = await prepareDatabase(databasePath, content));
  env = {
    ...process.env,
    DATABASE_URL: '',
    DATABASE_PATH: databasePath,
    CONTENT_DIR: content,
    SEARCH_SHARD_POSTS: String(SHARD_POSTS),
  };
  renderer = createSiteRenderer();
});
afterAll(async () => {
  await renderer?.close();
  await db?.destroy();
});

// Each publish here is a real Astro build: about 20 s alone, more beside other tests.
describe('an incremental publish', { timeout: 240_000 }, () => {
  let first: PublishRun;
  let second: PublishRun;

  it('renders the whole site the first time', async () => {
    const { run, log, site } = await publish(publisherWith(env), 'first');
    first = run;
    expect(log).toContain('Rendering pages (the whole site)');
    expect(site.incremental).toBe(false);
    expect(site.warm).toBe(false);
    expect(read(folderOf(first), page('/blog/news-0'))).toContain('News number 0');
  });

  it('renders only what a new, an edited and a withdrawn post touch, and links everything else', async () => {
    writePost(content, {
      slug: 'news-fresh',
      title: 'Fresh news about quokkaberries',
      publishedAt: '2026-11-20T09:00:00Z',
      categories: ['news'],
      featuredImage: null,
    });
    writePost(content, { ...POSTS[2]!, title: 'News number 2, corrected' });
    writePost(content, { ...POSTS[4]!, draft: true });
    const { run, log, site } = await publish(publisherWith(env), 'three posts');
    second = run;
    expect(log).toContain('Rendering pages (only what changed)');
    // Rendered: the two posts' pages, every page of all posts (the new one shifts them), the two
    // pages of its category (the new one opens the first, the edited one is on the second) and its
    // category's feed. Not the withdrawn post's page, nor anything of the other category.
    expect(site.incremental).toBe(true);
    // With the first publish's bundle: the code and the settings are the same.
    expect(site.warm).toBe(true);
    expect(log).toContain('Rendering with the bundle of the last build');
    expect([...site.renderedPages].sort()).toEqual(
      [
        '/blog/news-fresh',
        '/blog/news-2',
        '/blog',
        '/blog/page/2',
        '/blog/page/3',
        '/blog/category/news',
        '/blog/category/news/page/2',
        '/blog/category/news/rss.xml',
      ].sort(),
    );
    const before = folderOf(first);
    const after = folderOf(second);

    // What the change touches is rendered again, with the change in it.
    expect(read(after, page('/blog/news-fresh'))).toContain('Fresh news about quokkaberries');
    expect(read(after, page('/blog/news-2'))).toContain('News number 2, corrected');
    expect(fs.existsSync(path.join(after, page('/blog/news-4')))).toBe(false);
    // Newest first, ten to a page: the new post opens both lists; the edited one is on the last
    // page of all posts and the second of its category. The feeds have every post.
    const shows = (file: string, ...titles: string[]) => {
      expect(inode(after, file), file).not.toBe(inode(before, file));
      for (const title of titles) expect(read(after, file), file).toContain(title);
    };
    shows(page('/blog'), 'Fresh news about quokkaberries');
    shows(page('/blog/category/news'), 'Fresh news about quokkaberries');
    shows(page('/blog/page/3'), 'News number 2, corrected');
    shows(page('/blog/category/news/page/2'), 'News number 2, corrected');
    for (const feed of ['rss.xml', 'blog/category/news/rss.xml']) {
      shows(feed, 'Fresh news about quokkaberries', 'News number 2, corrected');
    }
    expect(read(after, 'rss.xml')).not.toContain('/blog/news-4<');
    expect(read(after, 'sitemap-0.xml')).toContain('/blog/news-fresh<');
    expect(read(after, 'sitemap-0.xml')).not.toContain('/blog/news-4<');
    expect(searchFragments(after)).toContain('Fresh news about quokkaberries');
    expect(searchFragments(after)).not.toContain('News number 4');
    // Only the search shards of the three posts were indexed again; the others are the live
    // release's files.
    const touched = new Set([
      shardOf(after, '/blog/news-fresh'),
      shardOf(after, '/blog/news-2'),
      shardOf(before, '/blog/news-4'),
    ]);
    const shards = shardsIn(after);
    expect(shards.length).toBeGreaterThan(touched.size);
    expect(log).toContain(`Search index: ${touched.size} of ${shards.length} shards indexed`);
    for (const shard of shards) {
      const entry = path.join(SEARCH_DIR, String(shard), 'pagefind-entry.json');
      if (touched.has(shard)) expect(read(after, entry), entry).not.toBe(read(before, entry));
      else
        for (const file of filesOf(path.join(after, SEARCH_DIR, String(shard)))) {
          const inShard = path.join(SEARCH_DIR, String(shard), file);
          expect(inode(after, inShard), inShard).toBe(inode(before, inShard));
        }
    }

    // Nothing else was rendered: every other post's page, the other category's pages and feed,
    // the pages that show no posts and the assets are the live release's own files.
    const untouched = [
      ...POSTS.filter((p) => !['news-2', 'news-4'].includes(p.slug)).map((p) => page(`/blog/${p.slug}`)),
      page('/blog/category/tips'),
      page('/blog/category/tips/page/2'),
      'blog/category/tips/rss.xml',
      page('/terms'),
      page('/privacy-policy'),
      ...filesOf(path.join(before, '_astro')).map((f) => path.join('_astro', f)),
    ];
    for (const file of untouched) expect(inode(after, file), file).toBe(inode(before, file));
    // The sitemap still lists the pages that were kept rather than rendered.
    expect(read(after, 'sitemap-0.xml')).toContain('/blog/tips-1<');
    expect(read(after, 'sitemap-0.xml')).toContain('/blog/category/tips/page/2<');
  });

  it('writes the same bytes as a full rebuild of the same release', async () => {
    // `astro build` itself, in a process of its own: no renderer.
    const full = path.join(dir, 'full');
    const built = await buildSite(
      full,
      { ...env, NESTLING_RELEASE_ID: String(second.id) },
      { previous: null },
    );
    expect(built.incremental).toBe(false);
    const incremental = folderOf(second);
    expect(filesOf(incremental)).toEqual(filesOf(full));
    for (const file of filesOf(full)) {
      const hash = (folder: string) =>
        crypto
          .createHash('sha256')
          .update(fs.readFileSync(path.join(folder, file)))
          .digest('hex');
      expect(hash(incremental), file).toBe(hash(full));
    }
  });

  it('leaves the live release as it was when a build fails', async () => {
    const live = folderOf(second);
    const snapshot = () =>
      filesOf(live).map((file) => {
        const stat = fs.statSync(path.join(live, file));
        return `${file} ${stat.ino} ${stat.size} ${stat.mtimeMs}`;
      });
    const was = snapshot();
    // With the warm renderer, a release that does not exist: the render fails once it asks the API
    // for its posts. With a plain `astro build`, a site address that is not one: Astro refuses its
    // configuration before it bundles anything (a failure after bundling takes the same way out,
    // and a bundle costs a minute of CI's time).
    expect(renderer.isWarm(env, codeKey(env))).toBe(true);
    const failures: [NodeJS.ProcessEnv, BuildOptions][] = [
      [
        { ...env, NESTLING_RELEASE_ID: '9999' },
        { previous: live, renderer },
      ],
      [{ ...env, PUBLIC_SITE_URL: 'not an address' }, { previous: live }],
    ];
    for (const [failing, options] of failures) {
      await expect(buildSite(path.join(dir, 'failed'), failing, options)).rejects.toThrow(
        /Site build failed/,
      );
      expect(snapshot()).toEqual(was);
    }
    // A failed render's process is not used again.
    expect(renderer.isWarm(env, codeKey(env))).toBe(false);
  });

  it('renders everything when a setting every page shows changes', async () => {
    // A workspace left by a renderer whose process was killed: the next one to start removes it.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const orphan = path.join(WORKSPACES, `warm-${gone}-orphan`);
    fs.mkdirSync(orphan, { recursive: true });
    const { run, log, site } = await publish(
      publisherWith({ ...env, PUBLIC_SITE_URL: 'https://nestling.example' }),
      'new address',
    );
    expect(log).toContain('Rendering pages (the whole site)');
    expect(site.incremental).toBe(false);
    expect(site.warm).toBe(false);
    expect(site.kept).toBe(0);
    const before = folderOf(second);
    const after = folderOf(run);
    for (const p of POSTS.filter((p) => p.slug !== 'news-4')) {
      const file = page(`/blog/${p.slug}`);
      expect(inode(after, file), file).not.toBe(inode(before, file));
      expect(read(after, file), file).toContain('https://nestling.example/blog/');
    }
    expect(fs.existsSync(orphan)).toBe(false);
  });

  it('stops its renderer and removes its workspace when closed', async () => {
    const ours = () => fs.readdirSync(WORKSPACES).filter((name) => name.startsWith(`warm-${process.pid}-`));
    expect(ours()).toHaveLength(1);
    await renderer.close();
    expect(ours()).toEqual([]);
  });
});
