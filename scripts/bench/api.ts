// npm run bench:api — autocannon on loopback, 50 connections for BENCH_SECONDS (10) per figure,
// against the real server (npm start's entry over a seeded database, sign-in against the real Auth
// emulator), beside two ceilings measured in the same run: a bare Hono hello-world, and a bare
// Hono server answering the first comment page's exact bytes from memory. A figure with a share
// target is measured in turns with its ceiling (inTurns); the reader mix also beside the
// hello-world visited the way the mix's readers visit (many addresses, coming and going). Prints
// each figure as a share of its ceiling and whether it meets its target (docs/benchmarks.md).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type autocannon from 'autocannon';
import pg from 'pg';
import { prepareDatabase } from '../../api/db/prepare.ts';
import { addComment } from '../../api/db/queries/comments.ts';
import type { DB } from '../../api/db/database.ts';
import { createEmulatorUser, startAuthEmulator } from '../lib/auth-emulator.ts';
import {
  BEACON_HEADERS,
  BROWSER_HEADERS,
  captureAnswer,
  CONNECTIONS,
  DURATION,
  type Figure,
  fromManyAddresses,
  measure,
  readerMix,
  startChild,
  startHelloWorld,
  inTurns,
  startSamePayload,
  stopChild,
  warmUp,
} from './api-load.ts';
import { machine, SQLITE_ONLY } from './lib.ts';
import { tempDir } from '../lib/temp.ts';
import { startCluster } from '../lib/postgres-cluster.ts';

const THREAD_SIZE = 200;
const COMMENT = JSON.stringify({ content: 'Benchmark comment', parentCommentId: null });
/** A reader's connection carries this many requests (ten post visits), then a new reader comes. */
const REQUESTS_PER_READER = 100;

const WORDS = (
  'the a our my we it is was has had not but and or so if when then still also very just only ' +
  'pram cot car seat buggy sling bottle steriliser monitor blanket sleepsuit coat boots shoes ' +
  'size fit fold wheels straps fabric rain cover hood basket handle frame brake harness buckle ' +
  'bought sold traded used washed dried fixed checked tried found asked waited liked loved hated ' +
  'months weeks years days baby toddler daughter son twins nursery grandma park bus train boot ' +
  'cheap price worth new second-hand condition clean worn scratched faded sturdy light heavy ' +
  'small big easy hard quick slow soft warm spring summer autumn winter morning night weekend ' +
  'recommend thanks question answer seller buyer parcel post collect local message photos'
).split(' ');

/** A deterministic stream of plausible comment text, as compressible as people's writing. */
function commentText(seed: number): string {
  let x = seed * 2654435761;
  const next = (n: number) => {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    return x % n;
  };
  const sentences = Array.from({ length: 1 + next(4) }, () => {
    const words = Array.from({ length: 6 + next(13) }, () => WORDS[next(WORDS.length)]!);
    return `${words.join(' ')}.`.replace(/^./, (c) => c.toUpperCase());
  });
  return sentences.join(' ');
}

/** A thread of THREAD_SIZE comments: three top-level comments to one reply. */
async function seedThread(db: DB, postId: number): Promise<void> {
  let at = Date.parse('2026-10-01T08:00:00Z');
  const topLevel: number[] = [];
  for (let i = 0; i < THREAD_SIZE; i++) {
    const isReply = i % 4 === 3;
    const posted = await addComment(
      db,
      {
        postId,
        parentCommentId: isReply ? topLevel[topLevel.length - 1 - (i % 3)]! : null,
        content: commentText(i + 1),
        author: {
          uid: `bench-reader-${i % 37}`,
          name: `Reader ${i % 37}`,
          avatarUrl: null,
          moderator: false,
        },
      },
      // Generated readers' comments are shown at once, as an approved parent's are.
      { holdFirst: false, mail: null },
      new Date((at += 7 * 60_000)),
    );
    if (!isReply) topLevel.push(posted.comment.comment_id);
  }
}

/** A new database in the bench's cluster, for DATABASE_URL. */
async function createBenchDatabase(adminUrl: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('create database nestling_bench');
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = '/nestling_bench';
  return url.href;
}

const serverEnv = (dbFile: string, emulatorHost: string, extra: NodeJS.ProcessEnv = {}) => ({
  ...process.env,
  PORT: '0',
  ...SQLITE_ONLY,
  DATABASE_PATH: dbFile,
  // The bench database's own release folders (a SITE_DIR belongs to one database). The first
  // server publishes once; the second finds the build fresh and reuses it.
  SITE_DIR: path.join(path.dirname(dbFile), 'site'),
  PUBLIC_FIREBASE_API_KEY: 'bench-api-key',
  FIREBASE_PROJECT_ID: 'demo-nestling',
  FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
  ...extra,
});

const startNestling = (env: NodeJS.ProcessEnv) =>
  startChild(['--import', 'tsx', 'scripts/start.ts'], env, /Nestling is running at (http:\/\/\S+)/);

interface Row extends Figure {
  ceiling?: { name: string; rps: number };
  target?: { share?: number; p99?: number; rps?: number };
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const int = (x: number) => Math.round(x).toLocaleString('en');

function verdict(row: Row): string {
  const t = row.target;
  if (!t) return '';
  const misses: string[] = [];
  if (t.share !== undefined && row.ceiling && row.rps / row.ceiling.rps < t.share) misses.push('share');
  if (t.p99 !== undefined && !(row.p99 < t.p99)) misses.push('p99');
  if (t.rps !== undefined && row.rps < t.rps) misses.push('req/s');
  if (row.errors > 0 || row.non2xx > 0) misses.push('errors');
  return misses.length === 0 ? 'yes' : `**no** (${misses.join(', ')})`;
}

function targetText(t: Row['target']): string {
  if (!t) return '–';
  const parts: string[] = [];
  if (t.share !== undefined) parts.push(`≥ ${pct(t.share)}`);
  if (t.p99 !== undefined) parts.push(`p99 < ${t.p99} ms`);
  if (t.rps !== undefined) parts.push(`≥ ${int(t.rps)}/s`);
  return parts.join(', ');
}

console.log(
  `bench:api on ${machine()}, ${new Date().toISOString()}; ${CONNECTIONS} connections × ${DURATION} s each`,
);
const dir = tempDir('nestling-bench-api-');
const children: ChildProcess[] = [];
const emulator = await startAuthEmulator();
try {
  const dbFile = path.join(dir, 'bench.db');
  const { db } = await prepareDatabase(dbFile, 'content');
  const posts = await db
    .selectFrom('blog_posts')
    .select(['slug', 'post_id', 'comment_count'])
    .where('is_published', '=', 1)
    .orderBy('comment_count', 'desc')
    .orderBy('post_id')
    .execute();
  const busiest = posts[0]!;
  const thread = posts.find((p) => p.comment_count === 0)!;
  console.log(`Seeding a ${THREAD_SIZE}-comment thread on "${thread.slug}" …`);
  await seedThread(db, thread.post_id);
  await db.destroy();
  // The reader mix: the big thread and eight seeded ones; every tenth request a view beacon.
  const mixPosts = [thread, ...posts.filter((p) => p !== thread).slice(0, 8)];

  const hello = await startHelloWorld();
  children.push(hello.child);
  // Production settings: read cache on, the real per-address and per-parent limits.
  const server = await startNestling(serverEnv(dbFile, emulator.host));
  children.push(server.child);
  const base = server.url;
  const get = (p: string): autocannon.Options => ({ url: `${base}${p}`, headers: BROWSER_HEADERS });

  const pagePath = `/api/blog/posts/${thread.post_id}/comments`;
  const answer = await captureAnswer(`${base}${pagePath}`, BROWSER_HEADERS);
  if (answer.status !== 200) throw new Error(`the comment page answered ${answer.status}`);
  const samePayload = await startSamePayload(answer, dir);
  children.push(samePayload.child);
  console.log(
    `First comment page: ${Buffer.from(answer.body, 'base64').length} bytes on the wire ` +
      `(${answer.headers.find(([k]) => k.toLowerCase() === 'content-encoding')?.[1] ?? 'identity'}).`,
  );

  const helloOpts = { url: `${hello.url}/`, headers: BROWSER_HEADERS };
  await warmUp(helloOpts);
  await warmUp({ url: `${samePayload.url}${pagePath}`, headers: BROWSER_HEADERS });
  await warmUp(get(pagePath));

  const rows: Row[] = [];
  const helloBefore = await measure('hello-world Hono (ceiling), before', helloOpts, hello.child.pid);
  const helloTurn = (turn: { duration: number }) =>
    measure('hello-world', { ...helloOpts, ...turn }, hello.child.pid);
  const samePayloadOpts = { url: `${samePayload.url}${pagePath}`, headers: BROWSER_HEADERS };
  const page = await inTurns(
    [(turn) => measure('same-payload', { ...samePayloadOpts, ...turn }, samePayload.child.pid)],
    (turn) =>
      measure(
        `GET first comment page of a ${THREAD_SIZE}-comment thread`,
        { ...get(pagePath), ...turn },
        server.child.pid,
      ),
  );
  const ceiling = {
    ...page.ceilings[0]!,
    name: 'same-payload Hono: the first comment page from memory (ceiling)',
  };
  rows.push({ ...page.figure, ceiling: { name: 'same-payload', rps: ceiling.rps }, target: { share: 0.7 } });

  // The largest anonymous answer (every published post with its body, as the spec's list is) also
  // gets a same-payload ceiling of its own: its bytes alone keep it well below the hello-world.
  const listAnswer = await captureAnswer(`${base}/api/blog/posts`, BROWSER_HEADERS);
  const listPayload = await startSamePayload(listAnswer, dir, 'list');
  children.push(listPayload.child);
  const listOpts = { url: `${listPayload.url}/api/blog/posts`, headers: BROWSER_HEADERS };
  await warmUp(listOpts);
  const list = await inTurns(
    [(turn) => measure('same-payload (list)', { ...listOpts, ...turn }, listPayload.child.pid)],
    (turn) =>
      measure(
        'GET /api/blog/posts, against a server sending its bytes',
        { ...get('/api/blog/posts'), ...turn },
        server.child.pid,
      ),
  );
  await stopChild(listPayload.child);
  const listCeiling = {
    ...list.ceilings[0]!,
    name: `same-payload Hono: GET /api/blog/posts from memory (${Buffer.from(listAnswer.body, 'base64').length} bytes)`,
  };

  // Each read in turns with the hello-world, so both see the same machine.
  const reads: Row[] = [];
  for (const [name, p] of [
    ['GET /api/blog/posts', '/api/blog/posts'],
    ['GET /api/items', '/api/items'],
    ['GET /api/blog/posts/:slug', `/api/blog/posts/${busiest.slug}`],
    ['GET /api/blog/posts/:id/comments (seeded thread)', `/api/blog/posts/${busiest.post_id}/comments`],
    ['GET /api/blog/categories', '/api/blog/categories'],
    ['GET /api/items/categories', '/api/items/categories'],
  ] as const) {
    const read = await inTurns([helloTurn], (turn) =>
      measure(name, { ...get(p), ...turn }, server.child.pid),
    );
    reads.push({
      ...read.figure,
      ceiling: { name: 'hello-world', rps: read.ceilings[0]!.rps },
      target: { share: 0.5 },
    });
  }

  // Nine comment pages to one view beacon, as every post visit sends one; each connection is a
  // reader from its own address who makes ten visits and leaves (autocannon reconnects), so views
  // meet the real per-address limit the way many readers do.
  const mixRequests = readerMix(
    mixPosts.slice(0, 9).map((p) => p.post_id),
    mixPosts.map((p) => p.slug),
  );
  const mixOpts: autocannon.Options = {
    url: base,
    headers: BROWSER_HEADERS,
    requests: mixRequests,
    reconnectRate: REQUESTS_PER_READER,
  };
  await fromManyAddresses(() => warmUp(mixOpts));
  // The target holds the mix against the hello-world on connections kept open, as every read is.
  // Beside it, the hello-world visited by the mix's own readers (each from its own address, leaving
  // after REQUESTS_PER_READER requests) shows what opening and closing those connections costs any
  // server on this machine, whatever it answers (decision 014).
  const readersHelloTurn = async (turn: { duration: number }) =>
    (
      await fromManyAddresses(() =>
        measure(
          'hello-world, same readers',
          { ...helloOpts, reconnectRate: REQUESTS_PER_READER, ...turn },
          hello.child.pid,
        ),
      )
    ).result;
  let mixAddresses = 0;
  const mix = await inTurns([helloTurn, readersHelloTurn], async (turn) => {
    const run = await fromManyAddresses(() =>
      measure('reader mix: 9 comment pages : 1 view beacon', { ...mixOpts, ...turn }, server.child.pid),
    );
    mixAddresses += run.addresses;
    return run.result;
  });
  const views = await fromManyAddresses(() =>
    measure(
      'POST /api/blog/posts/:slug/view',
      {
        url: `${base}/api/blog/posts/${busiest.slug}/view`,
        method: 'POST',
        headers: BEACON_HEADERS,
        reconnectRate: REQUESTS_PER_READER,
      },
      server.child.pid,
    ),
  );
  const helloAfter = await measure('hello-world Hono (ceiling), after', helloOpts, hello.child.pid);
  const helloRps = (helloBefore.rps + helloAfter.rps) / 2;
  // Figures without a share target are shown against the mean of a run before and one after.
  const helloCeiling = { name: 'hello-world', rps: helloRps };
  rows.unshift(helloBefore, helloAfter, ceiling, listCeiling);
  rows.push(...reads);
  rows.push({ ...list.figure, ceiling: { name: 'same-payload (list)', rps: listCeiling.rps } });
  const keptHello = mix.ceilings[0]!;
  const readersHello = mix.ceilings[1]!;
  rows.push({
    ...mix.figure,
    name: `${mix.figure.name}, views from ${mixAddresses.toLocaleString('en')} addresses`,
    ceiling: { name: 'hello-world', rps: keptHello.rps },
    target: { share: 0.4, p99: 20 },
  });
  rows.push({
    ...readersHello,
    name: `hello-world Hono, visited as the mix's readers visit (many addresses, ${REQUESTS_PER_READER} requests each)`,
  });
  rows.push({
    ...mix.figure,
    name: 'the same reader mix, against that hello-world',
    ceiling: { name: 'hello-world, same readers', rps: readersHello.rps },
  });
  rows.push({
    ...views.result,
    name: `${views.result.name} (from ${views.addresses.toLocaleString('en')} addresses)`,
    ceiling: helloCeiling,
  });
  await stopChild(server.child);

  // Likes and comments: the same server with the per-parent limits raised, so these figures
  // measure writing rather than the limiter's 429s (5 comments a minute per parent would refuse
  // nearly all of them).
  const writer = await startNestling(
    serverEnv(dbFile, emulator.host, {
      RATE_LIMIT_COMMENTS_PER_MINUTE: '1000000',
      RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
      // New parents' first comments would wait for review and not count: the lost-comment check
      // below compares the shown count with the acknowledged comments.
      MODERATION_HOLD_FIRST: '0',
    }),
  );
  children.push(writer.child);
  const users = await Promise.all(
    Array.from({ length: CONNECTIONS }, () => createEmulatorUser(emulator.host)),
  );
  let next = 0;
  const token = () => users[next++ % users.length]!.idToken;
  const signed = (req: autocannon.Request): autocannon.Request => ({
    ...req,
    headers: {
      ...req.headers,
      ...BROWSER_HEADERS,
      'content-type': 'application/json',
      authorization: `Bearer ${token()}`,
    },
  });
  const likeOpts: autocannon.Options = {
    url: `${writer.url}/api/blog/posts/${posts[1]!.slug}/like`,
    requests: [{ method: 'POST', setupRequest: signed }],
  };
  // A fresh process: warm it (and the verifier's token cache) up, commenting on another post so
  // the lost-comment count below starts from the seeded thread.
  await warmUp(likeOpts);
  await warmUp({
    url: `${writer.url}/api/blog/posts/${posts[2]!.post_id}/comments`,
    requests: [{ method: 'POST', setupRequest: (req) => ({ ...signed(req), body: COMMENT }) }],
  });
  const likes = await measure('POST /api/blog/posts/:slug/like', likeOpts, writer.child.pid);
  rows.push({ ...likes, ceiling: helloCeiling, target: { rps: 1_000 } });
  let acknowledged = 0;
  const comments = await measure(
    'POST /api/blog/posts/:id/comments',
    {
      url: `${writer.url}/api/blog/posts/${busiest.post_id}/comments`,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => ({ ...signed(req), body: COMMENT }),
          onResponse: (status) => {
            if (status === 201) acknowledged++;
          },
        },
      ],
    },
    writer.child.pid,
  );
  rows.push({ ...comments, ceiling: helloCeiling, target: { rps: 1_000 } });
  // Comments still in flight when autocannon stopped finish before the count is read.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const after = (await (await fetch(`${writer.url}/api/blog/posts/${busiest.slug}`)).json()) as {
    commentCount: number;
  };

  // Two instances on one PostgreSQL database (PostgreSQL's durable defaults), beside the one
  // SQLite instance above, in the same run: the comment page, the reader mix and likes, with the
  // load split evenly between the instances as a load balancer would.
  console.log('\nStarting PostgreSQL for the two-instance run …');
  const cluster = await startCluster({ durable: true });
  try {
    const databaseUrl = await createBenchDatabase(cluster.adminUrl);
    const { db: pgDb } = await prepareDatabase(databaseUrl, 'content');
    const pgThread = await pgDb
      .selectFrom('blog_posts')
      .select('post_id')
      .where('slug', '=', thread.slug)
      .executeTakeFirstOrThrow();
    await seedThread(pgDb, pgThread.post_id);
    await pgDb.destroy();
    const pgEnv = (extra: NodeJS.ProcessEnv = {}) =>
      serverEnv(dbFile, emulator.host, {
        DATABASE_URL: databaseUrl,
        SITE_DIR: path.join(dir, 'pg-site'),
        ...extra,
      });
    // The first instance publishes the site for this database; the second finds it live.
    const pair = async (extra?: NodeJS.ProcessEnv) => {
      const first = await startNestling(pgEnv(extra));
      children.push(first.child);
      const second = await startNestling(pgEnv(extra));
      children.push(second.child);
      return [first, second] as const;
    };
    /** One figure for both instances: requests add up, latency is the worse of the two. */
    const both = async (name: string, urls: readonly string[], opts: Omit<autocannon.Options, 'url'>) => {
      const figures = await Promise.all(
        urls.map((url) => measure(name, { ...opts, url, connections: CONNECTIONS / urls.length })),
      );
      return figures.reduce((sum, f) => ({
        name,
        rps: sum.rps + f.rps,
        p50: Math.max(sum.p50, f.p50),
        p99: Math.max(sum.p99, f.p99),
        errors: sum.errors + f.errors,
        non2xx: sum.non2xx + f.non2xx,
      }));
    };
    const readers = await pair();
    const pgPage = `/api/blog/posts/${pgThread.post_id}/comments`;
    const pageUrls = readers.map((r) => `${r.url}${pgPage}`);
    for (const url of pageUrls) await warmUp({ url, headers: BROWSER_HEADERS });
    rows.push({
      ...(await both(
        `2 instances on PostgreSQL: GET first comment page of a ${THREAD_SIZE}-comment thread`,
        pageUrls,
        {
          headers: BROWSER_HEADERS,
        },
      )),
      ceiling: { name: 'same-payload', rps: ceiling.rps },
    });
    const pgMix: autocannon.Options = {
      ...mixOpts,
      requests: mixRequests.map((r) => ({
        ...r,
        path: r.path?.replace(`/posts/${thread.post_id}/`, `/posts/${pgThread.post_id}/`),
      })),
    };
    const readerUrls = readers.map((r) => r.url);
    await fromManyAddresses(() => Promise.all(readerUrls.map((url) => warmUp({ ...pgMix, url }))));
    const pgMixFigure = await fromManyAddresses(() =>
      both('2 instances on PostgreSQL: reader mix', readerUrls, pgMix),
    );
    rows.push({ ...pgMixFigure.result, ceiling: helloCeiling });
    for (const r of readers) await stopChild(r.child);

    const writers = await pair({
      RATE_LIMIT_COMMENTS_PER_MINUTE: '1000000',
      RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
    });
    const likeUrls = writers.map((w) => `${w.url}/api/blog/posts/${posts[1]!.slug}/like`);
    for (const url of likeUrls) await warmUp({ ...likeOpts, url });
    rows.push({
      ...(await both('2 instances on PostgreSQL: POST /api/blog/posts/:slug/like', likeUrls, likeOpts)),
      ceiling: helloCeiling,
    });
    for (const w of writers) await stopChild(w.child);
  } finally {
    await cluster.stop();
  }

  console.log(
    `\nCeilings: hello-world ${int(helloRps)} req/s (the mean of the runs before and after the reads; ` +
      `each read and the mix is held against the hello-world runs in turns with it, in its row); ` +
      `same-payload ${int(ceiling.rps)} req/s (in turns with the comment page).`,
  );
  console.log(
    '\n| measurement | req/s | p50 ms | p99 ms | errors | non-2xx | server CPU µs/req | ceiling | share | target | met |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- | --- |');
  for (const row of rows) {
    const share = row.ceiling ? pct(row.rps / row.ceiling.rps) : '–';
    console.log(
      `| ${row.name} | ${int(row.rps)} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.non2xx} | ` +
        `${row.cpuUs === undefined ? '–' : row.cpuUs.toFixed(0)} | ` +
        `${row.ceiling?.name ?? '–'} | ${share} | ${targetText(row.target)} | ${verdict(row)} |`,
    );
  }
  const stored = after.commentCount - busiest.comment_count;
  // Requests still in flight when autocannon stops are stored but their answers never read, so
  // stored may exceed acknowledged; an acknowledged comment missing from the database is lost.
  const lost = Math.max(0, acknowledged - stored);
  console.log(
    `\nComments acknowledged: ${acknowledged}; stored: ${stored} ` +
      `(${Math.max(0, stored - acknowledged)} in flight at the cut-off); lost: ${lost}` +
      (lost > 0 ? ' — **target missed**' : ''),
  );
} finally {
  for (const child of children) await stopChild(child);
  await emulator.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
