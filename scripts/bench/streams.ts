// npm run bench:streams — live threads under load (docs/benchmarks.md, "Live thread streams"):
// 2,000 open thread streams on one instance over SQLite, then 1,000 on each of two instances on
// one PostgreSQL. Comments are written through the API (signed in against the Auth emulator) and
// the time until each comment has reached every open stream is recorded: p50, p99 and the worst,
// with the server's memory per open stream. Then, on the same servers in the same run, the reader
// mix of npm run bench:api and its comment writes at full speed (autocannon: the same requests, to
// the post with the most comments, as bench:api writes), each measured without streams, with the
// streams all on the written thread (the worst case), with them spread over nine posts (as
// readers spread over threads), and without them again. The servers and the stream clients are
// child processes (the real startServer with the API only), so the load generator's memory and
// CPU are not theirs, and autocannon's timing does not wait on the streams' parsing; the
// hello-world Hono of bench:api and the disk's fsync are measured in the same run, since on a
// shared machine they set what any figure here can reach.
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { createFirebaseVerifier } from '../../api/auth/verifier.ts';
import { isPostgresUrl } from '../../api/db/dialect.ts';
import { prepareDatabase } from '../../api/db/prepare.ts';
import {
  claimQueuedRelease,
  enqueueRelease,
  snapshotRelease,
  switchLive,
} from '../../api/db/queries/releases.ts';
import { createThreadHub } from '../../api/lib/thread-events.ts';
import { createRateLimiters } from '../../api/middleware/rate-limit.ts';
import { READ_CACHE_MS, readCache } from '../../api/middleware/read-cache.ts';
import { startServer } from '../../api/server.ts';
import {
  createEmulatorUser,
  EMULATOR_PROJECT_ID,
  type EmulatorUser,
  startAuthEmulator,
} from '../lib/auth-emulator.ts';
import { startCluster } from '../lib/postgres-cluster.ts';
import { tempDir } from '../lib/temp.ts';
import {
  BROWSER_HEADERS,
  CONNECTIONS,
  cpuMs,
  DURATION,
  type Figure,
  fromManyAddresses,
  measure,
  readerMix,
  startHelloWorld,
  stopChild,
  warmUp,
} from './api-load.ts';
import { machine, mib } from './lib.ts';

const COMMENTS = Number(process.env.BENCH_STREAM_COMMENTS ?? 20);
const GAP_MS = 250;
/** Each load figure (without streams, with them, without again): half of BENCH_SECONDS. */
const TURN = Math.max(2, DURATION / 2);
/** As in npm run bench:api: a reader's connection carries ten post visits, then a new reader comes. */

/** Wall-clock milliseconds with sub-millisecond precision, comparable between processes. */
const clock = () => performance.timeOrigin + performance.now();

interface HubStats {
  streams: number;
  rss: number;
  fanOuts: number;
  fanOutMs: number;
}

interface Instance {
  url: string;
  child: ChildProcess;
  stats: () => Promise<HubStats>;
}

/** Sends a message to a child and waits for its answer (one request at a time per child). */
function ask<T>(child: ChildProcess, message: unknown): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(message as string);
  });
}

async function startInstance(location: string, env: NodeJS.ProcessEnv): Promise<Instance> {
  const child = fork(import.meta.filename, ['serve', location], {
    env,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  return { url, child, stats: () => ask(child, 'stats') };
}

interface Posts {
  /** The post whose streams are open and whose thread the comments go to. */
  streamed: { post_id: number; slug: string };
  /** The reader mix's nine posts, the streamed one first. */
  mix: { post_id: number; slug: string }[];
}

/**
 * A live database: migrated, seeded from content/ and released now (API only, no pages built).
 * The streamed post is the one with the most comments, the post bench:api writes its comments to.
 */
async function releasedDatabase(location: string): Promise<Posts> {
  const { db } = await prepareDatabase(location, 'content', { sampleRecalls: false });
  const now = new Date();
  const { id } = await enqueueRelease(db, 'bench', now);
  await claimQueuedRelease(db, 'bench', now);
  await snapshotRelease(db, id, now);
  await db.transaction().execute((trx) => switchLive(trx, id, now));
  const posts = await db
    .selectFrom('release_posts')
    .innerJoin('blog_posts', 'blog_posts.post_id', 'release_posts.post_id')
    .where('release_posts.release_id', '=', id)
    .select(['release_posts.post_id', 'release_posts.slug'])
    .orderBy('blog_posts.comment_count', 'desc')
    .orderBy('release_posts.post_id')
    .limit(9)
    .execute();
  await db.destroy();
  return { streamed: posts[0]!, mix: posts };
}

/** The stream clients' process: what it has seen since it was last asked. */
interface ClientReport {
  arrivals: [number, number[]][];
  /** Comment deliveries, and the distinct comments among them. */
  received: number;
  distinct: number;
  /** Streams the servers ended (a reader dropped for falling behind). */
  ended: number;
}

interface Clients {
  child: ChildProcess;
  /** Arrival times are kept per comment from here on (between writes at full speed they are only counted). */
  record: () => Promise<void>;
  take: () => Promise<ClientReport>;
  /** Deliveries so far, without resetting. */
  received: () => Promise<number>;
  close: () => Promise<void>;
}

/** Opens `perInstance` streams on each server, in turn over `postIds`, in a process of their own. */
async function openClients(urls: string[], postIds: number[], perInstance: number): Promise<Clients> {
  const child = fork(import.meta.filename, ['clients'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await ask(child, { open: { urls, postIds, perInstance } });
  return {
    child,
    record: () => ask(child, 'record'),
    take: () => ask(child, 'take'),
    received: async () => (await ask<{ received: number }>(child, 'peek')).received,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('close');
      await exited;
    },
  };
}

const int = (x: number) => Math.round(x).toLocaleString('en');
const began = performance.now();
/** Where the run's time goes, for keeping the default run short. */
const mark = (what: string) => console.log(`+${((performance.now() - began) / 1000).toFixed(0)} s: ${what}`);
const load1 = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * What one fsync of the bench's disk takes now: a comment on SQLite waits for one (synchronous =
 * FULL) on the thread that serves every request, so on a disk shared with other work this, not
 * the CPU, can set the write rate with or without streams.
 */
function fsyncLatency(dir: string): string {
  const file = path.join(dir, 'fsync-probe');
  const fd = fs.openSync(file, 'w');
  const page = Buffer.alloc(4096, 1);
  const times: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    fs.writeSync(fd, page);
    const start = performance.now();
    fs.fsyncSync(fd);
    times.push(performance.now() - start);
  }
  fs.closeSync(fd);
  fs.rmSync(file);
  times.sort((a, b) => a - b);
  return `fsync of a 4 KiB append p50 ${quantile(times, 0.5).toFixed(1)} ms, p90 ${quantile(times, 0.9).toFixed(1)} ms`;
}

interface Delivery {
  label: string;
  streams: number;
  p50: number;
  p99: number;
  max: number;
  missing: number;
  perStreamKiB: number[];
  rss: number[];
}

/** Writes COMMENTS comments one by one and measures when each has reached all open streams. */
async function measureDelivery(
  label: string,
  instances: Instance[],
  clients: Clients,
  total: number,
  postId: number,
  token: string,
  before: { rss: number }[],
): Promise<Delivery> {
  const writer = instances[0]!;
  const opened = await Promise.all(instances.map((i) => i.stats()));
  const perStream = opened.map((o, i) => (o.rss - before[i]!.rss) / (total / instances.length));
  await clients.record();
  const sentAt = new Map<number, number>();
  for (let n = 0; n < COMMENTS; n += 1) {
    const start = clock();
    const res = await fetch(`${writer.url}/api/blog/posts/${postId}/comments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: `Bench comment ${n}`, parentCommentId: null }),
    });
    if (res.status !== 201) throw new Error(`a comment answered ${res.status}: ${await res.text()}`);
    const id = ((await res.json()) as { comment: { comment_id: number } }).comment.comment_id;
    sentAt.set(id, start);
    await new Promise((resolve) => setTimeout(resolve, GAP_MS));
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const arrivals = new Map((await clients.take()).arrivals);
  const latencies: number[] = [];
  let missing = 0;
  for (const [id, start] of sentAt) {
    const list = arrivals.get(id) ?? [];
    missing += total - list.length;
    for (const at of list) latencies.push(at - start);
  }
  latencies.sort((a, b) => a - b);
  const figures = {
    label,
    streams: total,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? NaN,
    missing,
    perStreamKiB: perStream.map((b) => b / 1024),
    rss: opened.map((o) => o.rss),
  };
  console.log(
    `${label}: ${total} streams, ${COMMENTS} comments → delivery p50 ${figures.p50.toFixed(0)} ms, ` +
      `p99 ${figures.p99.toFixed(0)} ms, max ${figures.max.toFixed(0)} ms; ${missing} deliveries missing; ` +
      `memory per open stream ${figures.perStreamKiB.map((k) => `${k.toFixed(1)} KiB`).join(' / ')} ` +
      `(RSS ${opened.map((o) => mib(o.rss)).join(' / ')})`,
  );
  return figures;
}

interface LoadRow extends Figure {
  setup: string;
  streams: string;
  note?: string;
}

/** The load split evenly between the instances, as a load balancer would: requests add up, latency is the worse. */
async function onAll(
  name: string,
  instances: Instance[],
  opts: (url: string) => autocannon.Options,
): Promise<Figure> {
  const figures = await Promise.all(
    instances.map((i) =>
      measure(
        name,
        { ...opts(i.url), connections: CONNECTIONS / instances.length, duration: TURN },
        i.child.pid,
      ),
    ),
  );
  const cpu = figures.map((f) => f.cpuUs).filter((v) => v !== undefined);
  return {
    name,
    rps: figures.reduce((sum, f) => sum + f.rps, 0),
    p50: Math.max(...figures.map((f) => f.p50)),
    p99: Math.max(...figures.map((f) => f.p99)),
    errors: figures.reduce((sum, f) => sum + f.errors, 0),
    non2xx: figures.reduce((sum, f) => sum + f.non2xx, 0),
    cpuUs: cpu.length === figures.length ? cpu.reduce((a, b) => a + b, 0) / cpu.length : undefined,
  };
}

/**
 * One setup: the delivery of single comments to every stream, then the reader mix and comment
 * writes without streams, with them open, and without them again, on the same servers.
 */
async function runSetup(
  setup: string,
  instances: Instance[],
  perInstance: number,
  posts: Posts,
  users: EmulatorUser[],
  /** Only the delivery and comment writes (the comparison with an earlier hub). */
  writesOnly = false,
): Promise<{ delivery: Delivery; load: LoadRow[] }> {
  const postId = posts.streamed.post_id;
  // The reader mix as npm run bench:api sends it: nine comment pages to one view beacon, each
  // connection a reader from its own address who makes ten visits and leaves.
  const mixRequests = readerMix(
    posts.mix.map((p) => p.post_id),
    posts.mix.map((p) => p.slug),
  );
  const mixOpts = (url: string): autocannon.Options => ({
    url,
    headers: BROWSER_HEADERS,
    requests: mixRequests,
    reconnectRate: mixRequests.length,
  });
  let next = 0;
  let acknowledged = 0;
  const writeOpts = (url: string): autocannon.Options => ({
    url: `${url}/api/blog/posts/${postId}/comments`,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => ({
          ...req,
          headers: {
            ...BROWSER_HEADERS,
            'content-type': 'application/json',
            authorization: `Bearer ${users[next++ % users.length]!.idToken}`,
          },
          body: JSON.stringify({ content: 'Benchmark comment', parentCommentId: null }),
        }),
        onResponse: (status) => {
          if (status === 201) acknowledged++;
        },
      },
    ],
  });

  const load: LoadRow[] = [];
  const total = perInstance * instances.length;
  const spreadOver = posts.mix.map((p) => p.post_id);
  /** Streams on the written post when they are spread: every ninth, on each instance. */
  const spreadOnWritten = Math.ceil(perInstance / spreadOver.length) * instances.length;
  const open = async (postIds = [postId]) => {
    const clients = await openClients(
      instances.map((i) => i.url),
      postIds,
      perInstance,
    );
    // Each stream has had its `ready` (and the server its first heartbeat timer) before a figure.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return clients;
  };
  const closeAll = async (clients: Clients) => {
    await clients.close();
    // The servers have let the closed streams go before the next figure.
    while ((await Promise.all(instances.map((i) => i.stats()))).some((s) => s.streams > 0)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const mix = async (streams: string) =>
    load.push({
      ...(
        await fromManyAddresses(() =>
          onAll('reader mix: 9 comment pages : 1 view beacon', instances, mixOpts),
        )
      ).result,
      setup,
      streams,
    });
  const hubStats = () => Promise.all(instances.map((i) => i.stats()));
  const writes = async (streams: string, clients?: Clients, onWritten = total) => {
    acknowledged = 0;
    const hubBefore = await hubStats();
    const windowStart = performance.now();
    const clientsBefore = clients && cpuMs(clients.child.pid!);
    const figure = await onAll('POST /api/blog/posts/:id/comments', instances, writeOpts);
    const hubAfter = await hubStats();
    const windowMs = performance.now() - windowStart;
    const clientsAfter = clients && cpuMs(clients.child.pid!);
    const fanOuts = hubAfter.reduce((n, h, i) => n + h.fanOuts - hubBefore[i]!.fanOuts, 0);
    const fanOutMs = hubAfter.reduce((n, h, i) => n + h.fanOutMs - hubBefore[i]!.fanOutMs, 0);
    const answered = figure.rps * TURN;
    let note: string | undefined;
    if (clients) {
      // Until the streams have had what was written (no delivery for a second), then what they
      // received against every comment on every stream, and what the servers still hold open.
      let last = -1;
      for (let now = await clients.received(); now !== last; now = await clients.received()) {
        last = now;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      const seen = await clients.take();
      const still = (await Promise.all(instances.map((i) => i.stats()))).reduce((n, x) => n + x.streams, 0);
      note =
        `${int(seen.received)} of ${int(seen.distinct * onWritten)} deliveries to the ${int(onWritten)} streams ` +
        `of the written post (${int(seen.distinct)} comments, ${int(acknowledged)} answered in time); ` +
        `${int(still)} streams still open; hub: ${fanOuts} fan-outs, ` +
        `${fanOuts ? (fanOutMs / fanOuts).toFixed(0) : '–'} ms each, ` +
        `${((fanOutMs / (windowMs * instances.length)) * 100).toFixed(0)}% of the time; ` +
        `stream clients' CPU ${clientsBefore !== undefined && clientsAfter !== undefined && answered > 0 ? int(((clientsAfter - clientsBefore) * 1000) / answered) : '–'} µs a comment`;
    } else {
      // Comments in flight at the cut-off are stored before the next figure.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    load.push({ ...figure, setup, streams, ...(note ? { note } : {}) });
  };

  // On the fresh server, as before any load: delivery and memory per stream.
  mark(`${setup}: opening the streams`);
  const before = await Promise.all(instances.map((i) => i.stats()));
  const first = await open();
  const delivery = await measureDelivery(setup, instances, first, total, postId, users[0]!.idToken, before);
  await closeAll(first);
  mark(`${setup}: the loads`);

  for (const i of instances) {
    await fromManyAddresses(() => warmUp(mixOpts(i.url)));
    await warmUp(writeOpts(i.url));
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  if (!writesOnly) await mix('none (before)');
  await writes('none (before)');
  const clients = await open();
  if (!writesOnly) await mix(`${int(total)}, all on the written post`);
  await writes(`${int(total)}, all on the written post`, clients);
  await closeAll(clients);
  if (writesOnly) {
    await writes('none (after)');
    return { delivery, load };
  }
  mark(`${setup}: streams spread over ${spreadOver.length} posts`);
  const spread = await open(spreadOver);
  await writes(
    `${int(total)} over ${spreadOver.length} posts (${int(spreadOnWritten)} on the written one)`,
    spread,
    spreadOnWritten,
  );
  await closeAll(spread);
  mark(`${setup}: the loads without streams again`);
  await mix('none (after)');
  await writes('none (after)');
  return { delivery, load };
}

async function main() {
  console.log(
    `bench:streams on ${machine()}, ${new Date().toISOString()}; load figures ${CONNECTIONS} connections × ${TURN} s each; ` +
      `load average ${load1()}`,
  );
  const emulator = await startAuthEmulator();
  const env = { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: emulator.host };
  const children: ChildProcess[] = [];
  const dir = tempDir('nestling-bench-streams-');
  const deliveries: Delivery[] = [];
  const load: LoadRow[] = [];
  const machineNotes: string[] = [];
  // The bare Hono server of bench:api, at the start and at the end: what this machine gives any
  // server in this run.
  const hello = await startHelloWorld();
  children.push(hello.child);
  const helloOpts = { url: `${hello.url}/`, headers: BROWSER_HEADERS, duration: TURN };
  const ceiling = async (when: string) => {
    const figure = await measure('hello-world', helloOpts, hello.child.pid);
    machineNotes.push(
      `${when}: hello-world Hono ${int(figure.rps)} req/s (${figure.cpuUs?.toFixed(0) ?? '–'} µs/req); ` +
        `${fsyncLatency(dir)}; load average ${load1()}`,
    );
    console.log(machineNotes[machineNotes.length - 1]);
  };
  try {
    await warmUp(helloOpts);
    await ceiling('Start');
    // One parent per connection, as in npm run bench:api.
    const users = await Promise.all(
      Array.from({ length: CONNECTIONS }, (_, i) =>
        createEmulatorUser(emulator.host, { displayName: `Bench Parent ${i}` }),
      ),
    );
    const file = path.join(dir, 'bench.db');
    const posts = await releasedDatabase(file);
    const one = await startInstance(file, env);
    children.push(one.child);
    const sqlite = await runSetup('SQLite, one instance', [one], 2_000, posts, users);
    deliveries.push(sqlite.delivery);
    load.push(...sqlite.load);
    await stopChild(one.child);
    // The same with the hub's earlier rest (20 µs a stream: 40 ms at 2,000 streams), on the same
    // database and machine minutes apart, so the change is measured within one run.
    mark('SQLite with the earlier rest');
    const earlier = await startInstance(file, { ...env, BENCH_REST_MAX_MS: '40' });
    children.push(earlier.child);
    const before = await runSetup(
      'SQLite, one instance, the rest as before (40 ms)',
      [earlier],
      2_000,
      posts,
      users,
      true,
    );
    deliveries.push(before.delivery);
    load.push(...before.load);
    await stopChild(earlier.child);

    mark('starting PostgreSQL');
    const cluster = await startCluster({ durable: true });
    try {
      const url = new URL(cluster.adminUrl);
      const admin = await import('pg');
      const client = new admin.default.Client({ connectionString: cluster.adminUrl });
      await client.connect();
      await client.query('create database nestling_bench_streams');
      await client.end();
      url.pathname = '/nestling_bench_streams';
      const pgPosts = await releasedDatabase(url.href);
      const a = await startInstance(url.href, env);
      const b = await startInstance(url.href, env);
      children.push(a.child, b.child);
      const pg = await runSetup(
        'PostgreSQL, two instances, 1,000 each (single comments written through the first)',
        [a, b],
        1_000,
        pgPosts,
        users,
      );
      deliveries.push(pg.delivery);
      load.push(...pg.load.map((row) => ({ ...row, setup: 'PostgreSQL, two instances' })));
      for (const c of [a.child, b.child]) c.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      await cluster.stop();
    }
    await ceiling('End');
    await stopChild(hello.child);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await emulator.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  console.log(`\nLoad average at the end: ${load1()} (the machine's other work shares its cores).`);
  for (const note of machineNotes) console.log(note);
  console.log(
    '\n| Setup | Streams | Comments | Delivery p50 | p99 | Worst | Missing | Memory per open stream |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const d of deliveries) {
    console.log(
      `| ${d.label} | ${int(d.streams)} | ${COMMENTS} | ${d.p50.toFixed(0)} ms | ${d.p99.toFixed(0)} ms | ` +
        `${d.max.toFixed(0)} ms | ${d.missing} | ${d.perStreamKiB.map((k) => `${k.toFixed(1)} KiB`).join(' / ')} ` +
        `(RSS ${d.rss.map(mib).join(' / ')}) |`,
    );
  }
  // Each with-streams figure beside the same server's figures without them, before and after.
  console.log(
    '\n| Setup | Load | Streams open | req/s | p50 ms | p99 ms | errors | non-2xx | server CPU µs/req | streams |',
  );
  console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const row of load) {
    console.log(
      `| ${row.setup} | ${row.name} | ${row.streams} | ${int(row.rps)} | ${row.p50} | ${row.p99} | ` +
        `${row.errors} | ${row.non2xx} | ${row.cpuUs === undefined ? '–' : row.cpuUs.toFixed(0)} | ${row.note ?? ''} |`,
    );
  }
}

// ---- The server child: one instance over DATABASE, API only, printing its address. ----
async function serve() {
  const location = process.argv[3]!;
  const { db } = await prepareDatabase(location, 'content', { sampleRecalls: false });
  const threads = createThreadHub({
    db,
    listenUrl: isPostgresUrl(location) ? location : null,
    // The hub's rest as it was before it was measured from the fan-out: 20 µs a stream.
    ...(process.env.BENCH_REST_MAX_MS ? { restMaxMs: Number(process.env.BENCH_REST_MAX_MS) } : {}),
  });
  const server = await startServer({
    db,
    siteDir: tempDir('nestling-bench-streams-site-'),
    host: '127.0.0.1',
    port: 0,
    deps: {
      verifyToken: createFirebaseVerifier(EMULATOR_PROJECT_ID),
      ...createRateLimiters(db, { comments: 1_000_000, writes: 1_000_000, reports: 1_000_000 }),
      safety: { holdFirstComment: false, escalationUrl: null, siteUrl: 'http://bench.test' },
      // As npm start has it: anonymous reads reused for a second, cleared by a write here.
      readCache: readCache({ ttlMs: READ_CACHE_MS }),
      threads,
    },
  });
  process.on('message', (m) => {
    if (m === 'stats') process.send!({ ...threads.stats(), rss: process.memoryUsage().rss });
  });
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
  process.send!({ url: server.url });
}

// ---- The stream clients' child: opens the streams and notes when each comment arrives. ----
function clients() {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  let arrivals = new Map<number, number[]>();
  let recording = false;
  let received = 0;
  let distinct = new Set<number>();
  let ended = 0;
  let closing = false;
  const seen = (id: number) => {
    received += 1;
    distinct.add(id);
    if (!recording) return;
    const at = clock();
    const list = arrivals.get(id);
    if (list) list.push(at);
    else arrivals.set(id, [at]);
  };
  const openOne = (url: string) =>
    new Promise<void>((resolve, reject) => {
      const req = http.get(url, { agent, headers: { Accept: 'text/event-stream' } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        res.setEncoding('utf8');
        let ready = false;
        // A fan-out's chunk can arrive in two reads (a socket's buffer was full): what follows the
        // last whole event waits for the rest of it.
        let rest = '';
        res.on('data', (chunk: string) => {
          const text = rest + chunk;
          const last = text.lastIndexOf('\n\n');
          const end = last < 0 ? 0 : last + 2;
          rest = text.slice(end);
          const events = text.slice(0, end);
          if (!ready && events.includes('event: ready')) {
            ready = true;
            resolve();
          }
          // A new top-level comment is announced by id; a reply or an update carries the comment.
          for (const match of events.matchAll(
            /"kind":"(?:new","commentId|comment","comment":\{"comment_id)":(\d+)/g,
          )) {
            seen(Number(match[1]));
          }
        });
        res.on('close', () => {
          if (!closing) ended += 1;
        });
      });
      req.on('error', (error) => {
        if (!closing) reject(error);
      });
      requests.push(req);
    });
  process.on('message', (m: unknown) => {
    if (typeof m === 'object' && m !== null && 'open' in m) {
      const { urls, postIds, perInstance } = (
        m as { open: { urls: string[]; postIds: number[]; perInstance: number } }
      ).open;
      void (async () => {
        for (const base of urls) {
          const url = (n: number) => `${base}/api/blog/posts/${postIds[n % postIds.length]!}/comments/stream`;
          // Opened a hundred at a time, as pages arrive, not as one burst of connections.
          for (let i = 0; i < perInstance; i += 100) {
            await Promise.all(
              Array.from({ length: Math.min(100, perInstance - i) }, (_, j) => openOne(url(i + j))),
            );
          }
        }
        process.send!({ opened: true });
      })();
    } else if (m === 'record') {
      recording = true;
      process.send!({ recording: true });
    } else if (m === 'take') {
      const report: ClientReport = { arrivals: [...arrivals], received, distinct: distinct.size, ended };
      arrivals = new Map();
      recording = false;
      received = 0;
      distinct = new Set();
      process.send!(report);
    } else if (m === 'peek') {
      process.send!({ received });
    } else if (m === 'close') {
      closing = true;
      for (const req of requests) req.destroy();
      process.disconnect();
    }
  });
}

if (process.argv[2] === 'serve') await serve();
else if (process.argv[2] === 'clients') clients();
else await main();
