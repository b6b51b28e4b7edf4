// npm run bench:soak — no slow leak (issue 39): the real server (npm start's entry: site built,
// API, publisher) as a child process over a fresh SQLite database, with sign-in against the real
// Auth emulator, under a steady, modest load for BENCH_SOAK_MINUTES (30): the reader mix of
// npm run bench:api plus a post page per visit, comments and likes by signed-in parents, an
// editor's studio saves and previews, and a studio publish every few minutes. The server's
// resident memory, open descriptors and database size (file plus WAL) are sampled every 5 s, its
// event-loop delay every second, and summarised per minute; after the warm-up each must not grow
// (least-squares slope). Prints a table and verdicts, and draws docs/soak.svg (BENCH_SOAK_SVG).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import type { BlogCategory, BlogPost, Comment, PublishRun } from '../../api/contract.ts';
import type { StudioPostCreated, StudioPostSaved, StudioPublishAnswer } from '../../api/contract/studio.ts';
import { openDatabase } from '../../api/db/database.ts';
import { setRoleByEmail } from '../../api/db/queries/profiles.ts';
import { createEmulatorUser, type EmulatorUser, startAuthEmulator } from '../lib/auth-emulator.ts';
import { emulatorCall } from '../lib/emulator-accounts.ts';
import { isAlive } from '../lib/processes.ts';
import { tempDir } from '../lib/temp.ts';
import { BROWSER_HEADERS, fromManyAddresses, readerMix, startChild, stopChild } from './api-load.ts';
import { machine, SQLITE_ONLY } from './lib.ts';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
/** Five minutes of a 30-minute run; a shorter run keeps the same share. */
const WARM_UP_MINUTES = Math.min(5, MINUTES / 6);
const SVG_FILE = path.resolve(process.env.BENCH_SOAK_SVG ?? 'docs/soak.svg');
const SAMPLE_MS = 5_000;
/** Modest on purpose: a soak looks for growth, and the machine is shared. */
const READER_RATE = 100;
const READER_CONNECTIONS = 8;
const PARENTS = 10;
/** One comment every 3 s, round the parents: 2 a minute each, under the real limit of 5. */
const COMMENT_EVERY_MS = 3_000;
const LIKE_EVERY_MS = 2_000;
const STUDIO_EVERY_MS = 10_000;
const PUBLISH_EVERY_MS = Math.min(3, MINUTES / 4) * 60_000;
/** Emulator tokens last an hour: a long soak signs everyone in again well before. */
const TOKEN_REFRESH_MS = 30 * 60_000;
const PASSWORD = 'soak-password-9';

// Growth per 10 minutes after warm-up that still counts as none.
const RSS_TOLERANCE = (meanMiB: number) => Math.max(5, meanMiB * 0.03);
const FD_TOLERANCE = 5;
const LOOP_TOLERANCE = (meanMs: number) => Math.max(2, meanMs * 0.2);
/** The database grows with what is written; more than this per written row is growth of its own. */
const DB_BYTES_PER_ROW_TOLERANCE = 8 * 1024;

interface Sample {
  /** Minutes since the load started. */
  t: number;
  rss: number;
  fds: number;
  db: number;
  wal: number;
  /** Resident memory of the server's own children (the warm site renderer). */
  childRss: number;
}

interface Minute {
  requests: number;
  errors: number;
  loop: number[];
}

const minutes: Minute[] = [];
const statuses = new Map<string, number>();
let loadStart = 0;
const elapsedMinutes = () => (Date.now() - loadStart) / 60_000;
function minute(): Minute {
  const m = Math.max(0, Math.floor(elapsedMinutes()));
  while (minutes.length <= m) minutes.push({ requests: 0, errors: 0, loop: [] });
  return minutes[m]!;
}

/** Counts one answer (or failure) of a kind; anything but 2xx is an error, kept by status. */
function count(kind: string, status: number | string): void {
  const m = minute();
  m.requests++;
  if (typeof status === 'number' && status >= 200 && status < 300) return;
  m.errors++;
  const key = `${kind} ${status}`;
  statuses.set(key, (statuses.get(key) ?? 0) + 1);
}

const mibOf = (bytes: number) => bytes / 2 ** 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function procRss(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The pids whose parent is `pid` (the renderer the publisher forks, and its own children). */
function descendants(pid: number): number[] {
  const found: number[] = [];
  const parents = new Set([pid]);
  try {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (parents.has(ppid)) {
          found.push(Number(entry));
          parents.add(Number(entry));
        }
      } catch {
        // gone while we looked
      }
    }
  } catch {
    // /proc unreadable: no children counted
  }
  return found;
}

const fileSize = (file: string) => {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
};

/** Least-squares slope of y over x. */
function slope(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

// ---- The chart: four small line charts, hand-drawn from the samples. ----

interface Series {
  title: string;
  unit: string;
  points: [number, number][];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A round step for about `n` ticks over `span`. */
function tickStep(span: number, n: number): number {
  const raw = span / n;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
}

function chart(series: Series, x0: number, y0: number, width: number, height: number, total: number): string {
  const left = x0 + 56;
  const right = x0 + width - 12;
  const top = y0 + 28;
  const bottom = y0 + height - 36;
  const ys = series.points.map(([, y]) => y);
  let lo = Math.min(0, ...ys);
  let hi = Math.max(...ys, 1e-9);
  // A flat series still gets a readable scale, with zero in view.
  hi = hi + (hi - lo) * 0.1 || 1;
  lo = lo < 0 ? lo - (hi - lo) * 0.1 : 0;
  const sx = (x: number) => left + (x / total) * (right - left);
  const sy = (y: number) => bottom - ((y - lo) / (hi - lo)) * (bottom - top);
  const parts: string[] = [];
  parts.push(
    `<text x="${x0 + width / 2}" y="${y0 + 16}" text-anchor="middle" font-weight="bold">${esc(series.title)}</text>`,
  );
  // The warm-up, left out of the verdict.
  parts.push(
    `<rect x="${sx(0)}" y="${top}" width="${sx(WARM_UP_MINUTES) - sx(0)}" height="${bottom - top}" fill="#eee"/>`,
    `<text x="${sx(WARM_UP_MINUTES / 2)}" y="${top + 12}" text-anchor="middle" fill="#888" font-size="10">warm-up</text>`,
  );
  const yStep = tickStep(hi - lo, 4);
  for (let v = Math.ceil(lo / yStep) * yStep; v <= hi; v += yStep) {
    const label = Number.isInteger(yStep)
      ? v.toFixed(0)
      : v.toFixed(Math.max(0, -Math.floor(Math.log10(yStep))));
    parts.push(
      `<line x1="${left}" x2="${right}" y1="${sy(v)}" y2="${sy(v)}" stroke="#ddd"/>`,
      `<text x="${left - 4}" y="${sy(v) + 4}" text-anchor="end" font-size="10">${label}</text>`,
    );
  }
  const xStep = tickStep(total, 6);
  for (let v = 0; v <= total + 1e-9; v += xStep) {
    parts.push(
      `<line x1="${sx(v)}" x2="${sx(v)}" y1="${bottom}" y2="${bottom + 4}" stroke="#333"/>`,
      `<text x="${sx(v)}" y="${bottom + 15}" text-anchor="middle" font-size="10">${Number(v.toFixed(2))}</text>`,
    );
  }
  parts.push(
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${bottom}" stroke="#333"/>`,
    `<line x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}" stroke="#333"/>`,
    `<text x="${(left + right) / 2}" y="${bottom + 30}" text-anchor="middle" font-size="11">minutes</text>`,
    `<text transform="translate(${x0 + 14} ${(top + bottom) / 2}) rotate(-90)" text-anchor="middle" font-size="11">${esc(series.unit)}</text>`,
  );
  if (series.points.length > 0) {
    const d = series.points.map(
      ([x, y], i) => `${i === 0 ? 'M' : 'L'}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`,
    );
    parts.push(`<path d="${d.join(' ')}" fill="none" stroke="#1f6feb" stroke-width="1.5"/>`);
    // Sparse series (one point a minute) show their points.
    if (series.points.length <= 60) {
      for (const [x, y] of series.points) {
        parts.push(`<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="2" fill="#1f6feb"/>`);
      }
    }
  }
  return parts.join('\n');
}

function svg(series: Series[], caption: string, total: number): string {
  const w = 480;
  const h = 260;
  const charts = series.map((s, i) => chart(s, (i % 2) * w, 10 + Math.floor(i / 2) * h, w, h, total));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * w}" height="${2 * h + 40}" viewBox="0 0 ${2 * w} ${2 * h + 40}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    ...charts,
    `<text x="${w}" y="${2 * h + 30}" text-anchor="middle" font-size="11" fill="#555">${esc(caption)}</text>`,
    '</svg>',
    '',
  ].join('\n');
}

// ---- The run. ----

const children: ChildProcess[] = [];
/** Everything the server started that was seen while it ran, stopped at the end if still there. */
const serverChildren = new Set<number>();
let emulatorStop: (() => Promise<void>) | null = null;
let cannon: autocannon.Instance | null = null;
let cleaning: Promise<void> | null = null;

function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    cannon?.stop();
    for (const child of children.reverse()) await stopChild(child);
    for (const pid of serverChildren) {
      if (isAlive(pid)) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // gone meanwhile
        }
      }
    }
    await emulatorStop?.();
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the server, the probe and the emulator …`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/** Tables the load writes to, or that would grow if something kept what it should not. */
const TABLES = [
  'comments',
  'comment_likes',
  'post_likes',
  'post_view_days',
  'post_revisions',
  'releases',
  'release_posts',
  'rate_limits',
  'thread_events',
  'deliveries',
  'audit_log',
] as const;

async function tableRows(dbFile: string): Promise<Record<string, number>> {
  const db = openDatabase(dbFile);
  try {
    const rows: Record<string, number> = {};
    for (const table of TABLES) {
      const { n } = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      rows[table] = Number(n);
    }
    return rows;
  } finally {
    await db.destroy();
  }
}

interface Parent extends EmulatorUser {
  name: string;
}

async function signIn(host: string, user: Parent): Promise<void> {
  const { idToken } = await emulatorCall<{ idToken: string }>(host, 'signInWithPassword', {
    email: user.email,
    password: PASSWORD,
    returnSecureToken: true,
  });
  user.idToken = idToken;
}

async function main(): Promise<void> {
  console.log(
    `bench:soak on ${machine()}, ${new Date().toISOString()}; ${MINUTES} min, warm-up ${Number(WARM_UP_MINUTES.toFixed(2))} min`,
  );
  const dir = tempDir('nestling-bench-soak-');
  const dbFile = path.join(dir, 'soak.db');
  const emulator = await startAuthEmulator();
  emulatorStop = emulator.stop;

  console.log('Starting the server (npm start: seeds the database, builds the site) …');
  const started = Date.now();
  const server = await startChild(
    ['--import', 'tsx', 'scripts/start.ts'],
    {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      ...SQLITE_ONLY,
      DATABASE_PATH: dbFile,
      SITE_DIR: path.join(dir, 'site'),
      PUBLIC_FIREBASE_API_KEY: 'bench-api-key',
      FIREBASE_PROJECT_ID: 'demo-nestling',
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      // Production limits and moderation settings: the soak is the real shape, not a speed test.
    },
    /Nestling is running at (http:\/\/\S+)/,
  );
  children.push(server.child);
  const pid = server.child.pid!;
  const base = server.url;
  // The server's own errors are worth seeing; its routine lines are kept quiet.
  const serverErrors: string[] = [];
  for (const stream of [server.child.stdout!, server.child.stderr!]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      if (/error|fail|unhandled|warn/i.test(line)) {
        serverErrors.push(line);
        console.error(`[server] ${line}`);
      }
    });
  }
  console.log(`Server up at ${base} (pid ${pid}) after ${((Date.now() - started) / 1000).toFixed(0)} s.`);

  const json = async <T>(res: Response, status: number, what: string): Promise<T> => {
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const posts = await json<BlogPost[]>(await fetch(`${base}/api/blog/posts`), 200, 'posts');
  const categories = await json<BlogCategory[]>(
    await fetch(`${base}/api/blog/categories`),
    200,
    'categories',
  );
  const mixPosts = posts.slice(0, 9);

  // Parents and an editor: real emulator accounts, signed in once through the real server (which
  // makes their profiles); the editor's role set in the database as npm run user:role sets it.
  const makeParent = async (name: string): Promise<Parent> => {
    const user = await createEmulatorUser(emulator.host, { displayName: name, password: PASSWORD });
    const parent = { ...user, name };
    await json(
      await fetch(`${base}/api/profile`, { headers: { authorization: `Bearer ${user.idToken}` } }),
      200,
      'profile',
    );
    return parent;
  };
  const parents = await Promise.all(
    Array.from({ length: PARENTS }, (_, i) => makeParent(`Soak Parent ${i}`)),
  );
  const editor = await makeParent('Soak Editor');
  const db = openDatabase(dbFile);
  try {
    await setRoleByEmail(db, editor.email, 'editor', new Date());
  } finally {
    await db.destroy();
  }

  // The post pages readers open: the site's address for each mix post, after any redirect.
  const pagePaths: string[] = [];
  for (const post of mixPosts) {
    let p = `/blog/${post.slug}`;
    const res = await fetch(`${base}${p}`, { redirect: 'manual' });
    if (res.status >= 300 && res.status < 400) p = new URL(res.headers.get('location')!, base).pathname;
    await res.arrayBuffer();
    const check = await fetch(`${base}${p}`);
    await check.arrayBuffer();
    if (check.status !== 200) throw new Error(`the post page ${p} answered ${check.status}`);
    pagePaths.push(p);
  }

  // The editor's post: a draft saved and previewed every STUDIO_EVERY_MS, published now and then.
  const draft = {
    title: 'A soak test of the studio',
    excerpt: 'Saved, previewed and published again and again.',
    markdown: 'First version.',
    categories: [categories[0]!.slug],
    kind: 'article' as const,
    featured: false,
    featuredImageUrl: null,
    featuredImageAlt: null,
  };
  const auth = (user: Parent, body?: unknown): RequestInit => ({
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...BROWSER_HEADERS,
      authorization: `Bearer ${user.idToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const created = await json<StudioPostCreated>(
    await fetch(`${base}/api/studio/posts`, auth(editor, draft)),
    201,
    'studio draft',
  );
  let revision = created.revision;
  const studioPost = { ...draft, slug: created.slug };

  // Event-loop delay: the server exposes none, so a probe in a process of its own (away from
  // autocannon's loop) times GET /api/health/ready, which the server answers before the app
  // without the database, four times a second on one kept-alive connection (enough samples for a
  // per-minute p99 that is not just the maximum).
  const probe = spawn(
    process.execPath,
    [
      '-e',
      `const http = require('node:http');
       const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
       setInterval(() => {
         const t = performance.now();
         http.get(process.argv[1] + '/api/health/ready', { agent }, (res) => {
           res.resume();
           res.on('end', () => console.log(res.statusCode + ' ' + (performance.now() - t).toFixed(3)));
         }).on('error', (e) => console.log('error ' + e.code));
       }, 250);`,
      base,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(probe);

  const samples: Sample[] = [];
  const sample = () => {
    for (const child of descendants(pid)) serverChildren.add(child);
    let fds = 0;
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`).length;
    } catch {
      // the server is gone: the run fails below
    }
    samples.push({
      t: elapsedMinutes(),
      rss: procRss(pid),
      fds,
      db: fileSize(dbFile) + fileSize(`${dbFile}-wal`),
      wal: fileSize(`${dbFile}-wal`),
      childRss: descendants(pid).reduce((sum, p) => sum + procRss(p), 0),
    });
  };

  // The reader mix: nine comment pages to one view beacon, and the post's page, per visit; each
  // connection a reader from an address of its own who makes ten visits and leaves.
  const mixRequests = readerMix(
    mixPosts.map((p) => p.postId),
    mixPosts.map((p) => p.slug),
    (visit) => pagePaths[visit % pagePaths.length]!,
  );

  // Parents like the seeded comments readers see (a new parent's own first comment may be held).
  const comments: number[] = [];
  for (const post of mixPosts) {
    const page = await json<Comment[]>(
      await fetch(`${base}/api/blog/posts/${post.postId}/comments`),
      200,
      'comment page',
    );
    const shown = page.filter((c) => c.status === 'visible');
    comments.push(...shown.slice(0, 3).map((c) => c.comment_id));
  }
  let commentsAcknowledged = 0;
  let saves = 0;
  const publishes: { ms: number; state: string }[] = [];
  let stop = false;
  const every = (ms: number, task: () => Promise<void>) =>
    (async () => {
      while (!stop) {
        const next = Date.now() + ms;
        await task();
        await sleep(Math.max(0, next - Date.now()));
      }
    })();
  const call = async (kind: string, url: string, init: RequestInit): Promise<Response | null> => {
    try {
      const res = await fetch(`${base}${url}`, init);
      count(kind, res.status);
      return res;
    } catch (error) {
      count(kind, (error as { cause?: { code?: string } }).cause?.code ?? 'network error');
      return null;
    }
  };

  let n = 0;
  const commenting = async () => {
    const parent = parents[n % parents.length]!;
    const post = mixPosts[n++ % mixPosts.length]!;
    const res = await call(
      'comment',
      `/api/blog/posts/${post.postId}/comments`,
      auth(parent, { content: `Soak comment ${n}: still going strong.`, parentCommentId: null }),
    );
    if (res?.status === 201) commentsAcknowledged++;
    await res?.arrayBuffer();
  };
  let l = 0;
  // Likes toggle, so each parent likes and unlikes in turn: the rows come and go.
  const liking = async () => {
    const parent = parents[l % parents.length]!;
    const res =
      l % 2 === 0 || comments.length === 0
        ? await call('like', `/api/blog/posts/${mixPosts[l % mixPosts.length]!.slug}/like`, auth(parent, {}))
        : await call(
            'comment like',
            `/api/blog/comments/${comments[l % comments.length]!}/like`,
            auth(parent, {}),
          );
    l++;
    await res?.arrayBuffer();
  };
  let s = 0;
  const saving = async () => {
    s++;
    const res = await call('studio save', `/api/studio/posts/${created.postId}`, {
      ...auth(editor, {
        ...studioPost,
        markdown: `Version ${s}.\n\n${'A paragraph of the soak. '.repeat(20)}`,
        baseRevision: revision,
      }),
      method: 'PUT',
    });
    if (res?.status === 200) {
      revision = ((await res.json()) as StudioPostSaved).revision;
      saves++;
    } else await res?.arrayBuffer();
    const preview = await call('studio preview', `/api/studio/posts/${created.postId}/preview`, auth(editor));
    await preview?.arrayBuffer();
  };
  const publishing = async () => {
    const at = Date.now();
    const res = await call('studio publish', `/api/studio/posts/${created.postId}/publish`, auth(editor, {}));
    if (res?.status !== 202) {
      await res?.arrayBuffer();
      publishes.push({ ms: Date.now() - at, state: `request ${res?.status ?? 'failed'}` });
      return;
    }
    const { releaseId } = (await res.json()) as StudioPublishAnswer;
    let state = 'queued';
    while (
      releaseId !== null &&
      !['succeeded', 'failed', 'rolled_back', 'retired'].includes(state) &&
      !stop
    ) {
      await sleep(1_000);
      const run = await call('publish status', `/api/studio/releases/${releaseId}`, auth(editor));
      if (run?.status === 200) state = ((await run.json()) as PublishRun).state;
      else await run?.arrayBuffer();
    }
    publishes.push({ ms: Date.now() - at, state });
    console.log(
      `  publish at minute ${elapsedMinutes().toFixed(1)}: ${state} in ${((Date.now() - at) / 1000).toFixed(1)} s`,
    );
  };
  /** Waits `ms`, or less when the run ends meanwhile. */
  const wait = async (ms: number) => {
    for (const until = Date.now() + ms; !stop && Date.now() < until;) await sleep(500);
  };

  console.log(
    `Load: reader mix at ${READER_RATE} req/s (${READER_CONNECTIONS} connections), a comment every ` +
      `${COMMENT_EVERY_MS / 1000} s and a like every ${LIKE_EVERY_MS / 1000} s by ${PARENTS} parents, a studio ` +
      `save and preview every ${STUDIO_EVERY_MS / 1000} s, a studio publish every ${PUBLISH_EVERY_MS / 60_000} min.`,
  );
  const rowsBefore = await tableRows(dbFile);
  loadStart = Date.now();
  minute();
  readline.createInterface({ input: probe.stdout! }).on('line', (line) => {
    const [status, ms] = line.split(' ');
    count('probe', status === '200' ? 200 : status === 'error' ? ms! : Number(status));
    if (status === '200') minute().loop.push(Number(ms));
  });
  sample();
  const sampler = setInterval(sample, SAMPLE_MS);
  const progress = setInterval(() => {
    const last = samples[samples.length - 1]!;
    const m = minutes[minutes.length - 2];
    console.log(
      `  minute ${Math.floor(elapsedMinutes())}: RSS ${mibOf(last.rss).toFixed(0)} MiB, ${last.fds} fds, ` +
        `DB ${mibOf(last.db).toFixed(1)} MiB` +
        (m ? `; last minute ${m.requests} requests, ${m.errors} errors` : ''),
    );
  }, 60_000);
  const duration = MINUTES * 60_000;
  const reader = fromManyAddresses(
    () =>
      new Promise<autocannon.Result>((resolve, reject) => {
        cannon = autocannon(
          {
            url: base,
            headers: BROWSER_HEADERS,
            requests: mixRequests.map((r) => ({
              ...r,
              onResponse: (status: number) => count('reader', status),
            })),
            reconnectRate: mixRequests.length,
            connections: READER_CONNECTIONS,
            overallRate: READER_RATE,
            duration: duration / 1000,
          },
          (error, result) => (error ? reject(error as Error) : resolve(result)),
        );
        // Timeouts come here too.
        cannon.on('reqError', (error: NodeJS.ErrnoException) => count('reader', error.code ?? error.message));
      }),
  );
  const loops = [
    every(COMMENT_EVERY_MS, commenting),
    every(LIKE_EVERY_MS, liking),
    every(STUDIO_EVERY_MS, saving),
    (async () => {
      // The first publish after a period, not at once: the site was built a moment ago.
      while (!stop) {
        await wait(PUBLISH_EVERY_MS);
        if (!stop) await publishing();
      }
    })(),
    (async () => {
      while (!stop) {
        await wait(TOKEN_REFRESH_MS);
        if (!stop) for (const p of [...parents, editor]) await signIn(emulator.host, p);
      }
    })(),
  ];
  await reader;
  stop = true;
  await Promise.all(loops);
  sample();
  clearInterval(sampler);
  clearInterval(progress);
  if (server.child.exitCode !== null || server.child.signalCode !== null)
    throw new Error('the server died during the soak');

  // What was written, for the database's verdict, and which tables grew, from the database itself.
  const rowsAfter = await tableRows(dbFile);
  const rowsWritten = commentsAcknowledged + saves + publishes.length;
  const grown = TABLES.map(
    (t) => `${t} ${rowsAfter[t]! - rowsBefore[t]! >= 0 ? '+' : ''}${rowsAfter[t]! - rowsBefore[t]!}`,
  );
  console.log(`\nRows added during the load: ${grown.join(', ')}.`);

  // ---- The report. ----
  const total = elapsedMinutes();
  const perMinute = minutes.slice(0, Math.ceil(MINUTES)).map((m, i) => {
    const inMinute = samples.filter((x) => x.t >= i && x.t < i + 1);
    const last = inMinute[inMinute.length - 1] ?? samples[samples.length - 1]!;
    return { minute: i + 1, ...m, last, loopP99: quantile(m.loop, 0.99), loopMax: Math.max(...m.loop) };
  });
  console.log(`\nbench:soak on ${machine()}, finished ${new Date().toISOString()}`);
  console.log(
    '\n| minute | RSS MiB | fds | event-loop delay p99 ms (max) | DB MiB (WAL) | requests | errors | renderer RSS MiB |',
  );
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of perMinute) {
    console.log(
      `| ${row.minute} | ${mibOf(row.last.rss).toFixed(1)} | ${row.last.fds} | ${row.loopP99.toFixed(1)} (${row.loopMax.toFixed(1)}) | ` +
        `${mibOf(row.last.db).toFixed(2)} (${mibOf(row.last.wal).toFixed(2)}) | ${row.requests.toLocaleString('en')} | ` +
        `${row.errors} | ${mibOf(row.last.childRss).toFixed(0)} |`,
    );
  }

  const settled = samples.filter((x) => x.t >= WARM_UP_MINUTES);
  const per10 = (points: [number, number][]) => slope(points) * 10;
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  const verdict = (growth: number, tolerance: number) =>
    Math.abs(growth) <= tolerance ? 'no growth' : growth > 0 ? '**grows**' : 'shrinks';
  const rssMean = mean(settled.map((x) => mibOf(x.rss)));
  const rssGrowth = per10(settled.map((x) => [x.t, mibOf(x.rss)]));
  const fdGrowth = per10(settled.map((x) => [x.t, x.fds]));
  const loopRows = perMinute.filter((r) => r.minute - 0.5 >= WARM_UP_MINUTES && Number.isFinite(r.loopP99));
  const loopMean = mean(loopRows.map((r) => r.loopP99));
  const loopGrowth = per10(loopRows.map((r) => [r.minute - 0.5, r.loopP99]));
  const dbGrowth = per10(settled.map((x) => [x.t, x.db]));
  const walGrowth = per10(settled.map((x) => [x.t, x.wal]));
  const settledSpan = settled.length > 1 ? settled[settled.length - 1]!.t - settled[0]!.t : 0;
  const rowsPer10 = total > 0 ? (rowsWritten / total) * 10 : 0;
  const bytesPerRow = rowsPer10 > 0 ? dbGrowth / rowsPer10 : 0;
  console.log(
    `\nGrowth per 10 minutes after the ${Number(WARM_UP_MINUTES.toFixed(2))}-minute warm-up (least-squares slope over ` +
      `${settled.length} samples, ${settledSpan.toFixed(1)} min):`,
  );
  const rssTol = RSS_TOLERANCE(rssMean);
  console.log(
    `- Resident memory: ${rssGrowth >= 0 ? '+' : ''}${rssGrowth.toFixed(1)} MiB (mean ${rssMean.toFixed(0)} MiB; ` +
      `tolerance ±${rssTol.toFixed(1)} MiB): ${verdict(rssGrowth, rssTol)}`,
  );
  console.log(
    `- Open descriptors: ${fdGrowth >= 0 ? '+' : ''}${fdGrowth.toFixed(1)} (tolerance ±${FD_TOLERANCE}): ${verdict(fdGrowth, FD_TOLERANCE)}`,
  );
  const loopTol = LOOP_TOLERANCE(loopMean);
  console.log(
    `- Event-loop delay p99 (measured outside the server: GET /api/health/ready four times a second, from a ` +
      `probe process): ${loopGrowth >= 0 ? '+' : ''}${loopGrowth.toFixed(2)} ms (mean ${loopMean.toFixed(1)} ms; ` +
      `tolerance ±${loopTol.toFixed(1)} ms): ${verdict(loopGrowth, loopTol)}`,
  );
  console.log(
    `- Database (file + WAL): ${dbGrowth >= 0 ? '+' : ''}${(dbGrowth / 1024).toFixed(0)} KiB while ~${rowsPer10.toFixed(0)} ` +
      `rows were written in those 10 minutes (${commentsAcknowledged} comments, ${saves} studio saves, ${publishes.length} publishes in all): ` +
      `${(bytesPerRow / 1024).toFixed(1)} KiB per written row (tolerance ${DB_BYTES_PER_ROW_TOLERANCE / 1024} KiB): ` +
      `${bytesPerRow <= DB_BYTES_PER_ROW_TOLERANCE ? 'no growth beyond the data written' : '**grows beyond the data written**'}; ` +
      `WAL alone ${walGrowth >= 0 ? '+' : ''}${(walGrowth / 1024).toFixed(0)} KiB`,
  );
  const at5 = samples.find((x) => x.t >= Math.min(5, WARM_UP_MINUTES)) ?? samples[0]!;
  const end = samples[samples.length - 1]!;
  console.log(
    `\nAt minute ${at5.t.toFixed(1)}: RSS ${mibOf(at5.rss).toFixed(0)} MiB, ${at5.fds} fds; at the end ` +
      `(minute ${end.t.toFixed(1)}): RSS ${mibOf(end.rss).toFixed(0)} MiB, ${end.fds} fds.`,
  );
  const allRequests = minutes.reduce((sum, m) => sum + m.requests, 0);
  const allErrors = minutes.reduce((sum, m) => sum + m.errors, 0);
  console.log(`Requests: ${allRequests.toLocaleString('en')}; errors: ${allErrors}.`);
  for (const [key, n] of [...statuses].sort()) console.log(`  ${key}: ${n}`);
  console.log(
    `Publishes: ${publishes.map((p) => `${p.state} in ${(p.ms / 1000).toFixed(1)} s`).join('; ') || 'none'}.`,
  );
  if (serverErrors.length > 0)
    console.log(`The server logged ${serverErrors.length} error or warning line(s) (above).`);

  fs.mkdirSync(path.dirname(SVG_FILE), { recursive: true });
  fs.writeFileSync(
    SVG_FILE,
    svg(
      [
        { title: 'Resident memory (VmRSS)', unit: 'MiB', points: samples.map((x) => [x.t, mibOf(x.rss)]) },
        { title: 'Open file descriptors', unit: 'descriptors', points: samples.map((x) => [x.t, x.fds]) },
        {
          title: 'Event-loop delay p99 (GET /api/health/ready)',
          unit: 'ms',
          points: loopRowsAll(perMinute),
        },
        { title: 'Database size (file + WAL)', unit: 'MiB', points: samples.map((x) => [x.t, mibOf(x.db)]) },
      ],
      `bench:soak, ${MINUTES} min on ${machine()}, ${new Date().toISOString().slice(0, 10)}; grey: warm-up, left out of the verdict`,
      Math.max(total, MINUTES),
    ),
  );
  console.log(`\nChart: ${path.relative(process.cwd(), SVG_FILE)}`);
  if (allErrors > 0) process.exitCode = 1;
}

/** Each minute's p99, plotted at the minute's middle. */
const loopRowsAll = (rows: { minute: number; loopP99: number }[]): [number, number][] =>
  rows.filter((r) => Number.isFinite(r.loopP99)).map((r) => [r.minute - 0.5, r.loopP99]);

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
// The temp folders go on exit (scripts/lib/temp.ts); nothing of the run must keep the process.
process.exit();
