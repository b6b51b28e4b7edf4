import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { PublishProgress } from '../../api/contract.ts';
import { CSP_HASHES_FILE, RELEASE_BOOKKEEPING, RENDER_KEYS_FILE } from '../../api/lib/release-files.ts';
import type { RenderKeys, RenderPlanInput, RenderPlanOutput } from '../../src/lib/render-keys.ts';
import { SEARCH_DIR, SEARCH_SHARDS_FILE } from '../../src/lib/search-shards.ts';
import type { SiteRenderer } from './site-renderer.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** What a build's output depends on besides its data (see codeKey). */
const CODE_SOURCES = [
  'src',
  'public',
  'api',
  'astro.config.mjs',
  'package-lock.json',
  'tsconfig.json',
  // The build's own code: how pages are rendered, compressed and indexed.
  'scripts/lib/build.ts',
  'scripts/lib/site-renderer.ts',
  'scripts/lib/astro-renderer.mjs',
];

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** A build is needed when the live build is missing or older than anything it is built from. */
export function needsBuild(buildDir: string, contentDir: string): boolean {
  const marker = path.join(buildDir, 'index.html');
  if (!fs.existsSync(marker)) return true;
  const built = fs.statSync(marker).mtimeMs;
  return [contentDir, ...CODE_SOURCES.map((source) => path.join(ROOT, source))].some(
    (source) => newestMtime(source) > built,
  );
}

/** Watches the build's output lines (the page lines and the plan line of src/lib/site-plan.ts). */
type LineWatcher = (line: string) => void;

/** Runs `astro build` into outDir as a child process, streaming its progress with a prefix. */
export async function runAstroBuild(
  outDir: string,
  env: NodeJS.ProcessEnv = process.env,
  watch: LineWatcher = () => {},
): Promise<void> {
  // Astro's cache (its content-layer store) is the build's own, so builds never share one.
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nestling-astro-cache-'));
  // Astro writes its server chunks into the output folder when that is inside the checkout, and
  // into the checkout's .astro/ otherwise, which it deletes at the end: two builds into folders
  // elsewhere (the tests' SITE_DIRs) would delete each other's chunks. Such a build goes into a
  // folder of its own inside the checkout, then moves.
  const inside = path.resolve(outDir).startsWith(ROOT + path.sep);
  const staged = inside ? outDir : fs.mkdtempSync(path.join(ensureDir(STAGING), 'build-'));
  try {
    await astroBuild(staged, cacheDir, env, watch);
    if (!inside) moveFolder(staged, outDir);
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
    if (!inside) fs.rmSync(staged, { recursive: true, force: true });
  }
}

/** Where builds for folders outside the checkout are made (.gitignore has it). */
const STAGING = path.join(ROOT, '.site-builds');

function ensureDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Moves a folder's contents into an empty `to`: a rename on one file system, else a copy. */
function moveFolder(from: string, to: string): void {
  fs.rmSync(to, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.renameSync(from, to);
  } catch {
    fs.cpSync(from, to, { recursive: true });
  }
}

function astroBuild(
  outDir: string,
  cacheDir: string,
  env: NodeJS.ProcessEnv,
  watch: LineWatcher,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/astro/astro.js', 'build'], {
      cwd: ROOT,
      env: { ...env, NESTLING_OUT_DIR: outDir, NESTLING_CACHE_DIR: cacheDir, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    let partial = '';
    const print = printLines(watch);
    const relay = (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-4000);
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) print(line);
    };
    child.stdout.on('data', relay);
    child.stderr.on('data', relay);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) return resolve();
      const reason =
        /error[^\n]*\n?[^\n]*/i.exec(tail)?.[0]?.trim() ?? tail.trim().split('\n').slice(-5).join(' ');
      reject(new Error(`Site build failed (${signal ?? `exit code ${code}`}): ${reason}`));
    });
  });
}

/**
 * Shows a build's output: the phases and a running page count rather than Astro's line per page,
 * and gives every line to `watch`.
 */
function printLines(watch: LineWatcher): LineWatcher {
  let pages = 0;
  return (line) => {
    if (!line.trim()) return;
    watch(line);
    if (PAGE_LINE.test(line)) {
      pages += 1;
      if (pages % 100 === 0) console.log(`  [build] ${pages} pages written …`);
    } else if (!/^\s*▶/.test(line)) {
      console.log(`  [build] ${line.replace(/^\d\d:\d\d:\d\d /, '')}`);
    }
  };
}

/** The line Astro prints for each page or file it writes. */
const PAGE_LINE = /[├└]─/;
const PLAN_LINE = /\[plan\] (full|incremental): (\d+) of (\d+) keyed pages to render/;

export interface BuildOptions {
  /** The live release's folder: pages it already has as this build would render them are linked from it. */
  previous: string | null;
  /** What the build is doing and how far it is (a publish shows it on /admin and in the studio). */
  onProgress?: (progress: PublishProgress) => void;
  log?: (line: string) => void;
  /** Renders with a bundle kept from the last build of the same code (docs/decisions/020). */
  renderer?: SiteRenderer;
}

export interface BuiltSite {
  durationMs: number;
  /** Whether only what changed was rendered (docs/decisions/019). */
  incremental: boolean;
  /** Keyed pages (those that show posts) the build rendered. */
  rendered: number;
  /** Their addresses. */
  renderedPages: string[];
  /** Keyed pages linked from the live release instead. */
  kept: number;
  /** Whether it rendered with the bundle of an earlier build rather than bundling the code again. */
  warm: boolean;
}

/**
 * What a build's output depends on besides the data it renders: the site's and the server's code,
 * the build's own, the dependencies, the public files, the public settings and Node's version. Two
 * builds with the same code key render the same props to the same bytes, so a page can be kept from
 * the live release when its props have not changed (src/lib/site-plan.ts).
 */
export function codeKey(env: NodeJS.ProcessEnv, root = ROOT): string {
  const hash = crypto.createHash('sha256');
  const files = CODE_SOURCES.flatMap((source) => {
    const full = path.join(root, source);
    if (!fs.existsSync(full)) return [];
    if (!fs.statSync(full).isDirectory()) return [source];
    return fs
      .readdirSync(full, { recursive: true, encoding: 'utf8' })
      .map((f) => path.join(source, f))
      .filter((f) => fs.statSync(path.join(root, f)).isFile());
  }).sort();
  for (const file of files) {
    hash
      .update(file)
      .update('\0')
      .update(fs.readFileSync(path.join(root, file)))
      .update('\0');
  }
  const settings = Object.keys(env)
    .filter((name) => name.startsWith('PUBLIC_'))
    .sort()
    .map((name) => `${name}=${env[name]}`);
  hash.update(settings.join('\n')).update(process.version);
  return hash.digest('base64url');
}

/** Routes without getStaticPaths: one page each, rendered by every build. */
function staticRouteCount(): number {
  return fs
    .readdirSync(path.join(ROOT, 'src/pages'), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(astro|ts)$/.test(f) && !f.includes('[')).length;
}

/** The live release's render keys when they were rendered by this code; null renders everything. */
function previousKeys(previous: string | null, code: string): LiveKeys | null {
  if (!previous) return null;
  const file = path.join(previous, RENDER_KEYS_FILE);
  if (!fs.existsSync(file)) return null;
  const keys = JSON.parse(fs.readFileSync(file, 'utf8')) as LiveKeys;
  return keys.codeKey === code ? keys : null;
}

/** The file a page's address is written to (build.format 'directory'); a feed is its own file. */
function fileOf(page: string): string {
  return /\.[a-z]+$/.test(page) ? page.slice(1) : path.join(page.slice(1), 'index.html');
}

/** Hard-links `file` (and its .br and .gz) from `from` into `to`; false when `from` lacks it. */
function linkFrom(from: string, to: string, file: string): boolean {
  const source = path.join(from, file);
  if (!fs.existsSync(source)) return false;
  fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
  for (const name of [file, `${file}.br`, `${file}.gz`]) {
    const src = path.join(from, name);
    const dest = path.join(to, name);
    if (!fs.existsSync(src)) continue;
    // Made beside it and renamed over it: a reader (the search indexer) finds one file or the
    // other, never none.
    const made = `${dest}.link-${process.pid}`;
    fs.rmSync(made, { force: true });
    try {
      fs.linkSync(src, made);
    } catch {
      // Another file system: a copy is the same file to readers.
      fs.copyFileSync(src, made);
    }
    fs.renameSync(made, dest);
  }
  return true;
}

/** The names of a build's hashed assets (a kept page refers to the live release's). */
function assetNames(dir: string): string {
  const assets = path.join(dir, '_astro');
  if (!fs.existsSync(assets)) return '';
  // A finished release has each one's .br and .gz beside it as well.
  return fs
    .readdirSync(assets)
    .filter((name) => !/\.(br|gz)$/.test(name))
    .sort()
    .join('\n');
}

/**
 * Builds a release's site into outDir (its folder) and precompresses it. The build renders the
 * release named by NESTLING_RELEASE_ID in env (src/lib/server-api.ts). Given the live release's
 * folder, it renders only the pages whose render keys changed and links the others from it, so
 * outDir is complete on its own (docs/decisions/019).
 */
export async function buildSite(
  outDir: string,
  env: NodeJS.ProcessEnv,
  options: BuildOptions = { previous: null },
): Promise<BuiltSite> {
  const started = Date.now();
  const report = options.onProgress ?? (() => {});
  const log = options.log ?? ((line: string) => console.log(line));
  const code = codeKey(env);
  const planDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nestling-plan-'));
  try {
    let previous = previousKeys(options.previous, code);
    if (options.previous && !previous)
      log('The live release was built by other code or settings: rendering every page.');
    const renderer = options.renderer ?? null;
    const warm = renderer?.isWarm(env, code) ?? false;
    if (warm) log('Rendering with the bundle of the last build (the code and settings are the same).');
    let plan = await render(outDir, env, code, previous, planDir, report, renderer);
    if (plan.incremental && options.previous) {
      // Kept pages refer to the live release's hashed assets: this build must have made the same.
      const sameAssets = assetNames(options.previous) === assetNames(outDir);
      const linked =
        sameAssets && plan.kept.every((page) => linkFrom(options.previous!, outDir, fileOf(page)));
      if (!linked) {
        log('The live release lacks a page or an asset this build would keep: rendering every page.');
        previous = null;
        plan = await render(outDir, env, code, previous, planDir, report, renderer);
      }
    }
    const search = searchShards(plan, env);
    const keys: ReleaseKeys = {
      codeKey: plan.codeKey,
      pages: plan.pages,
      posts: plan.posts,
      searchShardPosts: search.size,
    };
    fs.writeFileSync(path.join(outDir, RENDER_KEYS_FILE), JSON.stringify(keys));
    report({ phase: 'indexing', done: 0, total: null, incremental: plan.incremental });
    // Each step's time in the log: where a slow publish spends it.
    const timed = async (what: string, step: () => unknown) => {
      const at = Date.now();
      await step();
      log(`${what} in ${((Date.now() - at) / 1000).toFixed(1)} s.`);
    };
    // Pagefind reads the pages in a process of its own while this one links and hashes them
    // (linkFrom replaces a file by rename, so it reads the same bytes either way). Compressing
    // waits for both: beside Pagefind it slowed both down (a new post at 5,000 posts: 30 s, against
    // 24 s one after the other).
    await sideBySide([
      timed('Indexed for search', () =>
        indexForSearch(
          outDir,
          search,
          previous && options.previous
            ? { folder: options.previous, shards: previousShards(previous) }
            : null,
          log,
        ),
      ),
      (async () => {
        // Linked first: the pages that are the live release's files need not be read again for hashes.
        if (options.previous)
          await timed('Linked unchanged files', () => reuseUnchanged(options.previous!, outDir, 'pages'));
        await timed('Hashed the inline scripts', () => writeInlineScriptHashes(outDir));
      })(),
    ]);
    if (options.previous)
      await timed('Linked the unchanged search files', () =>
        reuseUnchanged(options.previous!, outDir, 'search'),
      );
    await timed('Compressed', () =>
      precompress(outDir, (done, total) =>
        report({ phase: 'compressing', done, total, incremental: plan.incremental }),
      ),
    );
    const rendered = plan.rendered.length;
    if (plan.incremental) {
      log(`Rendered ${rendered} of ${rendered + plan.kept.length} pages that show posts; kept the others.`);
    }
    return {
      durationMs: Date.now() - started,
      incremental: plan.incremental,
      rendered,
      renderedPages: plan.rendered,
      kept: plan.kept.length,
      warm,
    };
  } finally {
    fs.rmSync(planDir, { recursive: true, force: true });
  }
}

/** One `astro build` into an emptied outDir, with the plan it was given; answers what it decided. */
async function render(
  outDir: string,
  env: NodeJS.ProcessEnv,
  code: string,
  previous: RenderKeys | null,
  planDir: string,
  report: (progress: PublishProgress) => void,
  renderer: SiteRenderer | null,
): Promise<RenderPlanOutput> {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const input: RenderPlanInput = { codeKey: code, previous, out: path.join(planDir, 'plan.json') };
  const inputFile = path.join(planDir, 'input.json');
  fs.writeFileSync(inputFile, JSON.stringify(input));
  fs.rmSync(input.out, { force: true });
  const statics = staticRouteCount();
  let done = 0;
  let total: number | null = null;
  let incremental: boolean | null = null;
  let reportedAt = 0;
  report({ phase: 'rendering', done, total, incremental });
  const watch = (line: string) => {
    const plan = PLAN_LINE.exec(line);
    if (plan) {
      incremental = plan[1] === 'incremental';
      total = statics + Number(plan[2]);
    } else if (PAGE_LINE.test(line)) {
      done += 1;
    } else {
      return;
    }
    // The plan line at once; pages at most ten times a second.
    if (plan || Date.now() - reportedAt >= 100) {
      reportedAt = Date.now();
      report({ phase: 'rendering', done, total: total === null ? null : Math.max(total, done), incremental });
    }
  };
  const planned = { ...env, NESTLING_RENDER_PLAN: inputFile };
  if (renderer) await renderer.render(outDir, planned, code, printLines(watch));
  else await runAstroBuild(outDir, planned, watch);
  if (!fs.existsSync(input.out)) throw new Error('The site build did not say which pages it rendered.');
  return JSON.parse(fs.readFileSync(input.out, 'utf8')) as RenderPlanOutput;
}

/**
 * Every file of the new folder that the live release has byte for byte becomes a link to the live
 * release's, with its .br and .gz: unchanged files are the live release's own, never compressed again.
 */
async function reuseUnchanged(previous: string, outDir: string, which: FileSet): Promise<void> {
  const files = filesOf(outDir, which);
  for (const [i, file] of files.entries()) {
    if (i % YIELD_EVERY === 0) await letOthersRun();
    if (/\.(br|gz)$/.test(file)) continue;
    const mine = path.join(outDir, file);
    const theirs = path.join(previous, file);
    const stat = fs.statSync(mine);
    if (!stat.isFile() || !fs.existsSync(theirs)) continue;
    const other = fs.statSync(theirs);
    if (other.ino === stat.ino || other.size !== stat.size) continue;
    if (!fs.readFileSync(mine).equals(fs.readFileSync(theirs))) continue;
    linkFrom(previous, outDir, file);
  }
}

/**
 * The steps after the render read thousands of files in the server's process. Synchronous reads are
 * several times faster there than asynchronous ones while it answers readers, so they run in
 * slices, giving the server its turn between them.
 */
const YIELD_EVERY = 100;
const letOthersRun = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A release's files in two sets, so the pages can be linked while Pagefind writes its own: the
 * search index's folder, or everything else (pages, feeds, assets).
 */
type FileSet = 'pages' | 'search';

function filesOf(dir: string, which: FileSet): string[] {
  // Synchronous: Node's asynchronous recursive listing of a release's 6,000 folders took 0.3-0.8 s
  // longer, and the synchronous one holds the server for about 0.1 s.
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' });
  return files.filter((file) => (file.split(path.sep)[0] === SEARCH_DIR) === (which === 'search'));
}

/** Posts per search shard by default (SEARCH_SHARD_POSTS sets another number). */
const SEARCH_SHARD_POSTS = 1000;

/** The post pages of each search shard, and which of them this build renders. */
interface SearchShards {
  /** Post ids to a shard. */
  size: number;
  /** Shard number → its post pages' addresses, sorted. */
  pages: Map<number, string[]>;
  rendered: Set<string>;
}

/**
 * Posts are put in shards by id, SEARCH_SHARD_POSTS ids to a shard, so a new post goes into the
 * newest shard and an edit touches one shard only.
 */
function searchShards(plan: RenderPlanOutput, env: NodeJS.ProcessEnv): SearchShards {
  const size = Number(env.SEARCH_SHARD_POSTS || SEARCH_SHARD_POSTS);
  if (!Number.isInteger(size) || size < 1) {
    throw new Error(
      `SEARCH_SHARD_POSTS must be a whole number of posts, 1 or more (it is ${env.SEARCH_SHARD_POSTS}).`,
    );
  }
  return { size, pages: shardsOf(plan.posts, size), rendered: new Set(plan.rendered) };
}

function shardsOf(posts: Record<string, number>, size: number): Map<number, string[]> {
  const shards = new Map<number, string[]>();
  for (const [page, postId] of Object.entries(posts)) {
    const shard = Math.floor(postId / size);
    const pages = shards.get(shard) ?? [];
    pages.push(page);
    shards.set(shard, pages);
  }
  for (const pages of shards.values()) pages.sort();
  return shards;
}

/**
 * Builds Pagefind's static search index of the posts (the pages marked data-pagefind-body), one
 * index per shard, and the shards' list for the search box. A shard whose pages the live release
 * has byte for byte (the same posts, none rendered again) is the live release's, linked.
 */
async function indexForSearch(
  dir: string,
  shards: SearchShards,
  live: { folder: string; shards: Map<number, string[]> } | null,
  log: (line: string) => void,
): Promise<void> {
  const numbers = [...shards.pages.keys()].sort((a, b) => a - b);
  const kept = live ? numbers.filter((shard) => isKept(shard, shards, live)) : [];
  const indexed = numbers.filter((shard) => !kept.includes(shard));
  // Pagefind indexes in a process of its own while this one links the kept shards.
  await sideBySide([
    indexShards(dir, indexed, shards),
    ...(live ? kept.map((shard) => linkShard(live.folder, dir, shard)) : []),
  ]);
  fs.mkdirSync(path.join(dir, SEARCH_DIR), { recursive: true });
  fs.writeFileSync(path.join(dir, SEARCH_SHARDS_FILE), JSON.stringify(numbers));
  log(`Search index: ${indexed.length} of ${numbers.length} shards indexed, the others kept.`);
}

/**
 * Runs steps side by side and waits for every one, so that none still writes into the release
 * after another has failed; then throws the first failure.
 */
async function sideBySide(steps: Promise<unknown>[]): Promise<void> {
  for (const step of await Promise.allSettled(steps)) if (step.status === 'rejected') throw step.reason;
}

/** Indexes the given shards with one Pagefind process, one shard after another. */
async function indexShards(dir: string, numbers: number[], shards: SearchShards): Promise<void> {
  if (numbers.length === 0) return;
  const pagefind = await import('pagefind');
  try {
    for (const shard of numbers) await indexShard(pagefind, dir, shard, shards.pages.get(shard)!);
  } finally {
    await pagefind.close();
  }
}

/** Whether the live release's index of a shard is this build's: the same posts, none rendered again. */
function isKept(
  shard: number,
  shards: SearchShards,
  live: { folder: string; shards: Map<number, string[]> },
) {
  const pages = shards.pages.get(shard)!;
  return (
    live.shards.get(shard)?.join('\n') === pages.join('\n') &&
    !pages.some((page) => shards.rendered.has(page)) &&
    fs.existsSync(path.join(live.folder, SEARCH_DIR, String(shard), 'pagefind-entry.json'))
  );
}

/**
 * Links every file of a shard's index (with its .br and .gz) from the live release's folder: about a
 * thousand files a shard, in slices (at 5,000 posts, four kept shards held the server for 1 s).
 */
async function linkShard(from: string, to: string, shard: number): Promise<void> {
  const folder = path.join(SEARCH_DIR, String(shard));
  const files = fs.readdirSync(path.join(from, folder), { recursive: true, encoding: 'utf8' });
  for (const [i, file] of files.entries()) {
    if (i % YIELD_EVERY === 0) await letOthersRun();
    const inFolder = path.join(folder, file);
    if (/\.(br|gz)$/.test(file) || fs.statSync(path.join(from, inFolder)).isDirectory()) continue;
    linkFrom(from, to, inFolder);
  }
}

/** What a release keeps of its build: the render keys, and how its search index was sharded. */
interface ReleaseKeys extends RenderKeys {
  searchShardPosts: number;
}

/** A live release's keys as read: one built before the search shards has no shard size. */
type LiveKeys = RenderKeys & Partial<Pick<ReleaseKeys, 'searchShardPosts'>>;

/** The live release's shards as it made them (none if it recorded no shard size). */
function previousShards(keys: LiveKeys): Map<number, string[]> {
  return keys.searchShardPosts ? shardsOf(keys.posts, keys.searchShardPosts) : new Map();
}

/**
 * Indexes one shard's pages into pagefind/<shard>/. Pagefind reads a folder, so the shard's pages
 * are put in a temporary one of their own: linked, or copied from another file system.
 */
async function indexShard(
  pagefind: typeof import('pagefind'),
  dir: string,
  shard: number,
  pages: string[],
): Promise<void> {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'nestling-search-'));
  try {
    for (const [i, page] of pages.entries()) {
      if (i % YIELD_EVERY === 0) await letOthersRun();
      const [from, to] = [path.join(dir, fileOf(page)), path.join(staging, fileOf(page))];
      fs.mkdirSync(path.dirname(to), { recursive: true });
      try {
        fs.linkSync(from, to);
      } catch {
        fs.copyFileSync(from, to);
      }
    }
    const { index, errors } = await pagefind.createIndex({});
    if (!index) throw new Error(`Search index failed: ${errors.join('; ')}`);
    const added = await index.addDirectory({ path: staging, glob: 'blog/*/index.html' });
    if (added.errors.length) throw new Error(`Search index failed: ${added.errors.join('; ')}`);
    const outputPath = path.join(dir, SEARCH_DIR, String(shard));
    const written = await index.writeFiles({ outputPath });
    if (written.errors.length) throw new Error(`Search index failed: ${written.errors.join('; ')}`);
    await index.deleteIndex();
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const COMPRESSIBLE = /\.(html|css|js|mjs|json|xml|svg|txt|webmanifest)$/;

/** Records the sha256 of every inline script in the built HTML, for the server's CSP. */
export async function writeInlineScriptHashes(dir: string): Promise<void> {
  const hashes = new Set<string>();
  const seen = new Map<string, string[]>();
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
  for (const [i, file] of files.entries()) {
    if (i % YIELD_EVERY === 0) await letOthersRun();
    const full = path.join(dir, file);
    const stat = fs.statSync(full);
    // A page kept from the live release is its file (a link): its scripts were hashed last time.
    const id = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    const found = scriptHashesByFile.get(id) ?? inlineScriptHashes(fs.readFileSync(full, 'utf8'));
    seen.set(id, found);
    for (const hash of found) hashes.add(hash);
  }
  scriptHashesByFile = seen;
  await fs.promises.writeFile(path.join(dir, CSP_HASHES_FILE), JSON.stringify([...hashes].sort()));
}

/** The hashes of the last build's pages by file identity (device, inode, size, time written). */
let scriptHashesByFile = new Map<string, string[]>();

function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const type = /\btype=["']?([^"'\s>]+)/i.exec(match[1] ?? '')?.[1];
    if (type && !/^(module|text\/javascript|application\/javascript)$/i.test(type)) continue;
    hashes.push(
      `sha256-${crypto
        .createHash('sha256')
        .update(match[2] ?? '')
        .digest('base64')}`,
    );
  }
  return hashes;
}

/**
 * Brotli's best (11) for the code's hashed assets, compressed once per deploy and linked by every
 * publish after. 10 for pages, feeds and the search index's files, which publishes write again (a
 * list page: 32 ms at 11, 9 ms at 10, for 3.5% more bytes). 8 for the list pages after the first,
 * the archive: every new post rewrites all of them (560 at 5,000 posts) and few readers open them
 * (under 1 ms a page, 6% more bytes than at 10). Quality 9 is left out: here it is slower than 11.
 */
function brotliQuality(file: string): number {
  if (file.split(path.sep)[0] === '_astro') return 11;
  return /^blog\/(category\/[^/]+\/)?page\//.test(file.split(path.sep).join('/')) ? 8 : 10;
}

/**
 * Brotli's window fitted to the file: the default (4 MB) for a 30 KB page made hundreds of encoders
 * at once thrash memory (565 list pages: 2.9 s at quality 8, 0.6 s with the window fitted, for 3
 * more bytes a page).
 */
function brotliParams(file: string, size: number): Record<number, number> {
  const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT } = zlib.constants;
  const { BROTLI_MIN_WINDOW_BITS, BROTLI_DEFAULT_WINDOW } = zlib.constants;
  const window = Math.max(
    BROTLI_MIN_WINDOW_BITS,
    Math.min(BROTLI_DEFAULT_WINDOW, Math.ceil(Math.log2(size))),
  );
  return {
    [BROTLI_PARAM_QUALITY]: brotliQuality(file),
    [BROTLI_PARAM_LGWIN]: window,
    [BROTLI_PARAM_SIZE_HINT]: size,
  };
}

/**
 * Writes .gz and .br beside every text file readers get, so the server never compresses static
 * files itself; files that have them already (linked from the live release) are left as they are,
 * and the release's bookkeeping is never sent.
 */
async function precompress(dir: string, onProgress: (done: number, total: number) => void): Promise<void> {
  const all = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' });
  const present = new Set(all);
  const files = all.filter(
    (f) => COMPRESSIBLE.test(f) && !RELEASE_BOOKKEEPING.includes(f) && !present.has(`${f}.br`),
  );
  let done = 0;
  onProgress(done, files.length);
  await Promise.all(
    files.map(async (f) => {
      const file = path.join(dir, f);
      const data = await fs.promises.readFile(file);
      if (data.length >= 1024) {
        const [gz, br] = await Promise.all([
          gzip(data, { level: 9 }),
          brotli(data, { params: brotliParams(f, data.length) }),
        ]);
        await Promise.all([fs.promises.writeFile(`${file}.gz`, gz), fs.promises.writeFile(`${file}.br`, br)]);
      }
      onProgress(++done, files.length);
    }),
  );
}
