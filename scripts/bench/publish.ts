// npm run bench:publish [posts …] — incremental publishing against the real server, at 1,000 and
// 5,000 generated posts by default (`npm run bench:publish -- 200` for a quick run). For each size:
// a fresh SQLite file, the real server (api/server.ts) in this process serving the live release,
// and the real publisher with the real build. It measures the full publish (the first release),
// then one edited post and then one new post, each timed from the publish request until the
// server answers with the change on all of: the post's page, the first blog list page, rss.xml
// and the search index (a Pagefind fragment fetched over HTTP). Peak memory is that of this process
// (server and publisher) and its children (Astro, Pagefind) while the build runs. Since the server
// shares this process with the publisher (as in npm start), each measurement also records how long
// the event loop was blocked at most and the slowest answer to the polls.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import zlib from 'node:zlib';
import type { PublishPhase, PublishRun } from '../../api/contract.ts';
import { openDatabase } from '../../api/db/database.ts';
import { migrateToLatest } from '../../api/db/migrate.ts';
import { liveRelease } from '../../api/db/queries/releases.ts';
import { liveReleaseSource } from '../../api/lib/live-release.ts';
import { startServer } from '../../api/server.ts';
import type { BuildOptions, BuiltSite } from '../lib/build.ts';
import { createBuildThread } from '../lib/build-thread.ts';
import { createPublisher, type Publisher } from '../lib/publisher.ts';
import { parseShards, SEARCH_DIR, SEARCH_SHARDS_FILE } from '../../src/lib/search-shards.ts';
import { tempDir } from '../lib/temp.ts';
import { generateContent } from './generate-posts.ts';
import { machine, mib, SQLITE_ONLY, trackPeakMemory } from './lib.ts';

/** The issue's targets: one changed post from publish request to served, by number of posts. */
const TARGET_MS: Record<number, number> = { 1000: 10_000, 5000: 15_000 };
const DEFAULT_SIZES = [1000, 5000];
const POLL_MS = 100;
/** How long the server may still serve the old answers after the run has switched: then it is a bug. */
const STALE_AFTER_SWITCH_MS = 30_000;
/** What a browser sends: the server answers with the precompressed files. */
const BROWSER = { 'accept-encoding': 'br, gzip' };

const sizes = process.argv.slice(2).map(Number);
for (const n of sizes) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`Not a number of posts: ${n}`);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * One build as the publisher ran it: its answer, the peak memory of the process tree, and when it
 * began, ended and entered each phase (epoch ms).
 */
interface Build {
  built: BuiltSite;
  peakBytes: number;
  startedAt: number;
  endedAt: number;
  phaseAt: Partial<Record<PublishPhase, number>>;
}

/** What the polls saw of the server during one measurement. */
interface Polls {
  requests: number;
  /** Requests that failed or timed out (10 s); a check counts them as not served yet. */
  failures: number;
  lastFailure: string | null;
  slowestMs: number;
}

interface Figures {
  /** From the publish request until the run has finished (switched the live release). */
  runMs: number;
  /** From the publish request until every check passed in one round of requests. */
  servedMs: number;
  /** When each check first passed, from the request. */
  firstSeen: Record<string, number>;
  /** The request, as epoch ms (the build's times are relative to it). */
  requestedAt: number;
  build: Build;
  polls: Polls;
  /** The longest the event loop (the server's too) was blocked during the measurement. */
  maxLoopDelayMs: number;
}

interface SizeResult {
  posts: number;
  full?: Figures;
  edit?: Figures;
  added?: Figures;
  error?: string;
}

/** When the current measurement's publish was requested: the publisher's lines show the time since. */
let requestedAt = Date.now();
const since = () => `[+${((Date.now() - requestedAt) / 1000).toFixed(1)} s]`;
let polls: Polls = { requests: 0, failures: 0, lastFailure: null, slowestMs: 0 };

/** A word no generated post has, to find in the pages and the search index. */
function uniqueWord(prefix: string): string {
  const letters = [...crypto.randomBytes(8)].map((b) => String.fromCharCode(97 + (b % 26))).join('');
  return `${prefix}${letters}`;
}

/** How long a poll waits for a whole answer before it counts as not served. */
const ANSWER_TIMEOUT_MS = 10_000;

interface Answer {
  ok: boolean;
  /** The release that answered (X-Nestling-Release). */
  release: string | null;
  /** The body, decompressed. */
  body: Buffer;
}

/**
 * One GET, its body read and decompressed; counted and timed in `polls`. Over node:http with a
 * timer of its own rather than fetch with AbortSignal.timeout: a fetch aborted while its body is
 * being read can stay pending for ever (nodejs/node#56917), which stopped an earlier run of this
 * bench for good when the server took over 10 s to answer during a build.
 */
function get(url: string): Promise<Answer> {
  const started = Date.now();
  polls.requests += 1;
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    const settle = (error: Error | null, answer?: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      polls.slowestMs = Math.max(polls.slowestMs, Date.now() - started);
      if (error) reject(error);
      else resolve(answer!);
    };
    const request = http.get(url, { headers: BROWSER, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', (error) => settle(error));
      res.once('close', () => settle(new Error('the answer was cut off')));
      res.once('end', () => {
        try {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const body =
            encoding === 'br'
              ? zlib.brotliDecompressSync(raw)
              : encoding === 'gzip'
                ? zlib.gunzipSync(raw)
                : raw;
          const release = res.headers['x-nestling-release'];
          settle(null, {
            ok: res.statusCode === 200,
            release: typeof release === 'string' ? release : null,
            body,
          });
        } catch (error) {
          settle(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    request.once('error', (error) => settle(error));
    const timer = setTimeout(() => {
      settle(new Error(`no whole answer in ${ANSWER_TIMEOUT_MS / 1000} s`));
      request.destroy();
    }, ANSWER_TIMEOUT_MS);
  });
}

/** A check passes when the address answers 200 with `text` in it. */
function contains(base: string, address: string, text: string): () => Promise<boolean> {
  return async () => {
    const res = await get(`${base}${address}`);
    return res.ok && res.body.toString('utf8').includes(text);
  };
}

/**
 * Whether the search index the server serves knows `word`: GET /pagefind/shards.json (the release
 * that answers names its folder), then the fragments of that release's shards that the release
 * live before the publish did not have (fragment names are hashes of their content), each fetched
 * over HTTP and gunzipped (a Pagefind fragment is gzip of `pagefind_dcd` and the page's JSON).
 */
function searchKnows(
  base: string,
  siteDir: string,
  before: Set<string>,
  word: string,
): () => Promise<boolean> {
  const checked = new Map<string, boolean>();
  return async () => {
    const list = await get(`${base}/${SEARCH_SHARDS_FILE}`);
    if (!list.ok || !list.release) return false;
    const fragments = fragmentsOf(
      path.join(siteDir, list.release),
      parseShards(JSON.parse(list.body.toString('utf8'))),
    );
    for (const fragment of fragments.filter((f) => !before.has(f))) {
      let found = checked.get(fragment);
      if (found === undefined) {
        const res = await get(`${base}/${SEARCH_DIR}/${fragment}`);
        if (!res.ok) return false;
        const text = zlib.gunzipSync(res.body).toString('utf8');
        if (!text.startsWith('pagefind_dcd')) throw new Error(`${fragment} is not a Pagefind fragment`);
        found = text.includes(word);
        checked.set(fragment, found);
      }
      if (found) return true;
    }
    return false;
  };
}

/** A release's search fragments, as `<shard>/fragment/<name>` (none if it is not there yet). */
function fragmentsOf(release: string, shards: number[]): string[] {
  return shards.flatMap((shard) => {
    const folder = path.join(release, SEARCH_DIR, String(shard), 'fragment');
    return fs.existsSync(folder) ? fs.readdirSync(folder).map((name) => `${shard}/fragment/${name}`) : [];
  });
}

/** The fragments of the live release's search index (none before the first release). */
async function liveFragments(db: ReturnType<typeof openDatabase>, siteDir: string): Promise<Set<string>> {
  const live = await liveRelease(db);
  if (!live) return new Set();
  const release = path.join(siteDir, live.folder);
  const shards = parseShards(JSON.parse(fs.readFileSync(path.join(release, SEARCH_SHARDS_FILE), 'utf8')));
  return new Set(fragmentsOf(release, shards));
}

/**
 * Requests a publish and polls the checks every 100 ms (all of them each round, side by side)
 * until one round passes them all. Fails when the run fails, or when the server still lacks the
 * change 30 s after the run switched the live release.
 */
async function publishUntilServed(
  publisher: Publisher,
  trigger: string,
  checks: Record<string, () => Promise<boolean>>,
  lastBuild: () => Build | null,
): Promise<Figures> {
  polls = { requests: 0, failures: 0, lastFailure: null, slowestMs: 0 };
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = Date.now();
  requestedAt = started;
  const id = (await publisher.request(trigger)).id;
  // What the run ended as, set when it has finished.
  const outcome: { run: PublishRun | null; ms: number; error: unknown } = { run: null, ms: 0, error: null };
  const finished = publisher.finished(id).then(
    (run) => {
      outcome.run = run;
      outcome.ms = Date.now() - started;
    },
    (error: unknown) => {
      outcome.error = error ?? new Error('the run failed');
    },
  );
  const firstSeen: Record<string, number> = {};
  const failing = new Set(Object.keys(checks));
  try {
    for (;;) {
      const round = Date.now();
      const passed = await Promise.all(
        Object.entries(checks).map(async ([name, check]) => {
          const ok = await check().catch((error: unknown) => {
            // Not served (yet): a refused or timed-out request, counted.
            polls.failures += 1;
            polls.lastFailure = `${name}: ${error instanceof Error ? error.message : String(error)}`;
            return false;
          });
          if (ok) {
            firstSeen[name] ??= Date.now() - started;
            failing.delete(name);
          } else {
            failing.add(name);
          }
          return ok;
        }),
      );
      if (passed.every(Boolean)) {
        const servedMs = Date.now() - started;
        await finished;
        const build = lastBuild();
        if (!build) throw new Error(`Publish #${id} is served but its build was not recorded`);
        if (outcome.error) throw outcome.error;
        return {
          runMs: outcome.ms,
          servedMs,
          firstSeen,
          requestedAt: started,
          build,
          polls,
          maxLoopDelayMs: loop.max / 1e6,
        };
      }
      if (outcome.error) throw outcome.error;
      const done = outcome.run;
      if (done && done.state !== 'succeeded') {
        throw new Error(`Publish #${id} ${done.state}: ${done.error ?? 'no reason given'}`);
      }
      if (done && Date.now() - started - outcome.ms > STALE_AFTER_SWITCH_MS) {
        throw new Error(
          `Publish #${id} went live ${seconds(Date.now() - started - outcome.ms)} ago, but the server still ` +
            `does not serve the change on: ${[...failing].join(', ')}` +
            `${polls.lastFailure ? ` (last failed request: ${polls.lastFailure})` : ''}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, round + POLL_MS - Date.now())));
    }
  } finally {
    loop.disable();
  }
}

/** Runs a measurement between two load-average lines (the machine may be shared). */
async function measured<T>(label: string, fn: () => Promise<T>): Promise<T> {
  console.log(`\n== ${label}: load average before ${load()}`);
  try {
    return await fn();
  } finally {
    console.log(`== ${label}: load average after ${load()}`);
  }
}

/** Where a measurement's time went, in ms: before the build, its phases, the switch, the serving. */
function phases(f: Figures) {
  const { startedAt, endedAt, phaseAt } = f.build;
  const indexing = phaseAt.indexing ?? endedAt;
  const compressing = phaseAt.compressing ?? endedAt;
  return {
    // Queue, lock, reading the posts into the database, the release's snapshot.
    'before the build': startedAt - f.requestedAt,
    // astro build (with its Vite bundling), plus linking kept pages from the live release.
    render: indexing - startedAt,
    // Pagefind beside linking unchanged files and the CSP hashes (the log has each step's time).
    index: compressing - indexing,
    compress: endedAt - compressing,
    switch: f.runMs - (endedAt - f.requestedAt),
    // The server's release source reads the live release at most once a second.
    'to served': f.servedMs - f.runMs,
  };
}

function describe(label: string, f: Figures): void {
  const { built, peakBytes } = f.build;
  const seen = Object.entries(f.firstSeen)
    .map(([name, ms]) => `${name} ${seconds(ms)}`)
    .join(', ');
  const where = Object.entries(phases(f))
    .map(([name, ms]) => `${name} ${seconds(ms)}`)
    .join(', ');
  console.log(
    `== ${label}: served in ${seconds(f.servedMs)} (run finished at ${seconds(f.runMs)}; build ` +
      `${seconds(built.durationMs)}, ${built.incremental ? 'incremental' : 'full'}, ${built.rendered} keyed ` +
      `pages rendered, ${built.kept} kept; peak ${mib(peakBytes)}); first served: ${seen}\n` +
      `== ${label}: where the time went: ${where}\n` +
      `== ${label}: ${f.polls.requests} poll requests, slowest ${f.polls.slowestMs} ms, ${f.polls.failures} failed` +
      `${f.polls.lastFailure ? ` (last: ${f.polls.lastFailure})` : ''}; event loop blocked up to ` +
      `${f.maxLoopDelayMs.toFixed(0)} ms`,
  );
}

/** Rewrites a post file's title and adds a paragraph to its body. */
function editPost(file: string, title: string, paragraph: string): void {
  const text = fs.readFileSync(file, 'utf8');
  const edited = text.replace(/^title: .*$/m, `title: "${title}"`);
  if (edited === text) throw new Error(`${file} has no title line`);
  fs.writeFileSync(file, `${edited.trimEnd()}\n\n${paragraph}\n`);
}

/** Measures one size into `result`, figure by figure, so a failure keeps what was measured before it. */
async function benchSize(count: number, result: SizeResult): Promise<void> {
  console.log(`\n#### ${count} posts, on ${machine()}, ${new Date().toISOString()}`);
  const dir = tempDir('nestling-bench-publish-');
  try {
    const content = path.join(dir, 'content');
    const slugs = generateContent('content', content, count);
    const dbFile = path.join(dir, 'bench.db');
    const siteDir = path.join(dir, 'site');
    const db = openDatabase(dbFile);
    await migrateToLatest(db);
    const buildEnv = { ...process.env, ...SQLITE_ONLY, DATABASE_PATH: dbFile, CONTENT_DIR: content };

    let last: Build | null = null;
    // As the server's publisher does: in a thread of its own, and publishes after the first reuse
    // its bundle (decision 020).
    const thread = createBuildThread();
    // The real build, with its answer and the peak memory of this process tree while it runs.
    const measuredBuild = async (site: string, env: NodeJS.ProcessEnv, options: BuildOptions) => {
      last = null;
      const startedAt = Date.now();
      const phaseAt: Build['phaseAt'] = {};
      const stop = trackPeakMemory(process.pid);
      let built: BuiltSite | undefined;
      try {
        built = await thread.build(site, env, {
          ...options,
          onProgress: (progress) => {
            phaseAt[progress.phase] ??= Date.now();
            options.onProgress?.(progress);
          },
        });
        return built;
      } finally {
        const peakBytes = stop();
        if (built) last = { built, peakBytes, startedAt, endedAt: Date.now(), phaseAt };
      }
    };
    // Wired as npm start wires them: the publisher tells the server's release source when it switches.
    const release = liveReleaseSource(db);
    const publisher = createPublisher({
      db,
      contentDir: content,
      siteDir,
      buildEnv,
      build: measuredBuild,
      log: (line) => console.log(`${since()} ${line}`),
      onLive: release.refresh,
    });
    const server = await startServer({
      db,
      siteDir,
      host: '127.0.0.1',
      port: 0,
      deps: { publisher, release },
    });
    const base = server.url;
    const lastBuild = () => last;
    try {
      // The newest generated post: on the first list page and in the feed.
      const newest = slugs[slugs.length - 1]!;
      const newestTitle = `Generated post ${count}: notes for parents`;
      result.full = await measured(`${count} posts: full publish`, async () => {
        const figures = await publishUntilServed(
          publisher,
          'bench: full',
          {
            page: contains(base, `/blog/${newest}`, newestTitle),
            list: contains(base, '/blog', newestTitle),
            rss: contains(base, '/rss.xml', newestTitle),
          },
          lastBuild,
        );
        describe(`${count} posts: full publish`, figures);
        return figures;
      });

      // An editor changes the newest post's title and body and publishes.
      const editWord = uniqueWord('benchedit');
      const editTitle = `Edited for the bench ${editWord}`;
      result.edit = await measured(`${count} posts: one edited post`, async () => {
        const before = await liveFragments(db, siteDir);
        editPost(
          path.join(content, 'posts', `${newest}.md`),
          editTitle,
          `This paragraph is new: ${editWord} is the word to search for.`,
        );
        const figures = await publishUntilServed(
          publisher,
          'bench: one edit',
          {
            page: contains(base, `/blog/${newest}`, editTitle),
            list: contains(base, '/blog', editTitle),
            rss: contains(base, '/rss.xml', editTitle),
            search: searchKnows(base, siteDir, before, editWord),
          },
          lastBuild,
        );
        describe(`${count} posts: one edited post`, figures);
        return figures;
      });

      // An editor adds one post, dated now, and publishes.
      const newWord = uniqueWord('benchnew');
      const newTitle = `A new post for the bench ${newWord}`;
      const slug = 'bench-new-post';
      result.added = await measured(`${count} posts: one new post`, async () => {
        const before = await liveFragments(db, siteDir);
        fs.writeFileSync(
          path.join(content, 'posts', `${slug}.md`),
          [
            '---',
            `title: "${newTitle}"`,
            `slug: ${slug}`,
            'excerpt: "A new post."',
            'author: "Editor"',
            `publishedAt: ${new Date(Date.now() - 60_000).toISOString()}`,
            'categories: [seasonal]',
            '---',
            '',
            `Fresh news for parents: ${newWord} is the word to search for.`,
            '',
          ].join('\n'),
        );
        const figures = await publishUntilServed(
          publisher,
          'bench: one new post',
          {
            page: contains(base, `/blog/${slug}`, newTitle),
            list: contains(base, '/blog', newTitle),
            rss: contains(base, '/rss.xml', newTitle),
            search: searchKnows(base, siteDir, before, newWord),
          },
          lastBuild,
        );
        describe(`${count} posts: one new post`, figures);
        return figures;
      });
    } finally {
      await publisher.idle();
      // Closes the database too.
      await server.close();
      await thread.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const dash = '–';

function table(results: SizeResult[]): string {
  const cells = (f: Figures | undefined) =>
    f
      ? `${seconds(f.servedMs)} | ${mib(f.build.peakBytes)} | ` +
        `${f.build.built.incremental ? '' : 'full: '}${f.build.built.rendered} of ${f.build.built.rendered + f.build.built.kept}`
      : `${dash} | ${dash} | ${dash}`;
  const met = (n: number, f: Figures | undefined) => {
    const target = TARGET_MS[n];
    if (target === undefined || !f) return dash;
    return f.servedMs < target ? 'met' : 'not met';
  };
  return [
    '| posts | full publish | peak | one edit: to live | peak | keyed pages rendered | ' +
      'one new post: to live | peak | keyed pages rendered | target | edit | new post |',
    '| ----: | -----------: | ---: | ----------------: | ---: | -------------------: | ' +
      '--------------------: | ---: | -------------------: | -----: | ---- | -------- |',
    ...results.map((r) => {
      const target = TARGET_MS[r.posts];
      return (
        `| ${r.posts.toLocaleString('en')} | ${r.full ? seconds(r.full.servedMs) : dash} | ` +
        `${r.full ? mib(r.full.build.peakBytes) : dash} | ${cells(r.edit)} | ${cells(r.added)} | ` +
        `${target === undefined ? dash : `< ${target / 1000} s`} | ${met(r.posts, r.edit)} | ${met(r.posts, r.added)} |`
      );
    }),
  ].join('\n');
}

/** Where each measurement's time went, and how the server in the same process answered meanwhile. */
function phaseTable(results: SizeResult[]): string {
  const names = ['before the build', 'render', 'index', 'compress', 'switch', 'to served'];
  const rows = results.flatMap((r) =>
    (
      [
        ['full publish', r.full],
        ['one edit', r.edit],
        ['one new post', r.added],
      ] as const
    ).flatMap(([what, f]) => {
      if (!f) return [];
      const p: Record<string, number> = phases(f);
      return [
        `| ${r.posts.toLocaleString('en')} | ${what} | ${names.map((n) => seconds(p[n] ?? 0)).join(' | ')} | ` +
          `${seconds(f.servedMs)} | ${f.maxLoopDelayMs.toFixed(0)} ms | ${f.polls.slowestMs} ms | ${f.polls.failures} |`,
      ];
    }),
  );
  return [
    `| posts | publish | ${names.join(' | ')} | total | event loop blocked (max) | slowest poll | failed polls |`,
    `| ----: | ------- | ${names.map(() => '---:').join(' | ')} | ---: | ---: | ---: | ---: |`,
    ...rows,
  ].join('\n');
}

async function main(): Promise<boolean> {
  const counts = sizes.length > 0 ? sizes : DEFAULT_SIZES;
  console.log(`bench:publish on ${machine()}, ${new Date().toISOString()}, load average ${load()}`);
  const results: SizeResult[] = [];
  for (const count of counts) {
    const result: SizeResult = { posts: count };
    results.push(result);
    try {
      await benchSize(count, result);
    } catch (error) {
      result.error = error instanceof Error ? error.message : String(error);
      console.error(`\n#### ${count} posts failed:`, error);
    }
  }
  console.log(
    `\nbench:publish on ${machine()}, finished ${new Date().toISOString()}, load average ${load()}`,
  );
  console.log(
    'Times are from the publish request until the server answered with the change on the post page, ' +
      '/blog, /rss.xml and (edit, new post) the search index, polled every 100 ms; the full publish is ' +
      'timed until the newest post is served on the first three. Peak: this process (server, publisher) ' +
      'and its children during the build. Keyed pages: posts, list pages and category feeds the build ' +
      'rendered, of all of them (pages without keys render every time).\n',
  );
  console.log(table(results));
  console.log(`\n${phaseTable(results)}`);
  const failed = results.filter((r) => r.error);
  for (const r of failed) console.log(`\n${r.posts} posts: ERROR ${r.error}`);
  return failed.length === 0;
}

try {
  if (!(await main())) process.exitCode = 1;
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
// Nothing of the run must keep the process: the temp folders go on exit (scripts/lib/temp.ts).
process.exit();
