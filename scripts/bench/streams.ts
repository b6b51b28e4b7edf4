// npm run bench:streams — live threads under load (docs/benchmarks.md, "Live thread streams"):
// 2,000 open thread streams on one instance over SQLite, then 1,000 on each of two instances on
// one PostgreSQL; comments are written through the API (signed in against the Auth emulator) and
// the time until each comment has reached every open stream is recorded: p50, p99 and the worst,
// with the server's memory per open stream. The servers are child processes (the real
// startServer with the API only), so the load generator's memory and CPU are not theirs.
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
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
import { startServer } from '../../api/server.ts';
import { createEmulatorUser, EMULATOR_PROJECT_ID, startAuthEmulator } from '../lib/auth-emulator.ts';
import { startCluster } from '../lib/postgres-cluster.ts';
import { tempDir } from '../lib/temp.ts';
import { machine, mib } from './lib.ts';

const COMMENTS = Number(process.env.BENCH_STREAM_COMMENTS ?? 20);
const GAP_MS = 250;

interface Instance {
  url: string;
  child: ChildProcess;
  stats: () => Promise<{ streams: number; rss: number }>;
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
  const stats = () =>
    new Promise<{ streams: number; rss: number }>((resolve) => {
      child.once('message', (m) => resolve(m as { streams: number; rss: number }));
      child.send('stats');
    });
  return { url, child, stats };
}

/** A live database: migrated, seeded from content/ and released now (API only, no pages built). */
async function releasedDatabase(location: string): Promise<number> {
  const { db } = await prepareDatabase(location, 'content', { sampleRecalls: false });
  const now = new Date();
  const { id } = await enqueueRelease(db, 'bench', now);
  await claimQueuedRelease(db, 'bench', now);
  await snapshotRelease(db, id, now);
  await db.transaction().execute((trx) => switchLive(trx, id, now));
  const post = await db
    .selectFrom('release_posts')
    .select('post_id')
    .orderBy('post_id')
    .executeTakeFirstOrThrow();
  await db.destroy();
  return post.post_id;
}

/** Opens `n` streams of one post on a server; each reports when it sees a comment id. */
async function openStreams(base: string, postId: number, n: number, seen: (commentId: number) => void) {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  const opened: Promise<void>[] = [];
  for (let i = 0; i < n; i += 1) {
    opened.push(
      new Promise((resolve, reject) => {
        const req = http.get(
          `${base}/api/blog/posts/${postId}/comments/stream`,
          { agent, headers: { Accept: 'text/event-stream' } },
          (res) => {
            if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
            res.setEncoding('utf8');
            let ready = false;
            res.on('data', (chunk: string) => {
              if (!ready && chunk.includes('event: ready')) {
                ready = true;
                resolve();
              }
              for (const match of chunk.matchAll(/"kind":"comment","comment":\{"comment_id":(\d+)/g)) {
                seen(Number(match[1]));
              }
            });
          },
        );
        req.on('error', reject);
        requests.push(req);
      }),
    );
    // Open them a few at a time, as pages arrive, not as one burst of connections.
    if (i % 100 === 99) await Promise.all(opened.slice(i - 99, i + 1));
  }
  await Promise.all(opened);
  return () => requests.forEach((r) => r.destroy());
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Writes COMMENTS comments through `writer` and measures when each has reached all `streams` streams. */
async function measure(
  label: string,
  instances: Instance[],
  perInstance: number,
  postId: number,
  emulatorHost: string,
) {
  const token = (await createEmulatorUser(emulatorHost, { displayName: 'Bench Parent' })).idToken;
  const writer = instances[0]!;
  const before = await Promise.all(instances.map((i) => i.stats()));
  const arrivals = new Map<number, number[]>();
  const sentAt = new Map<number, number>();
  const seen = (id: number) => {
    const at = performance.now();
    const list = arrivals.get(id);
    if (list) list.push(at);
    else arrivals.set(id, [at]);
  };
  const closers = await Promise.all(instances.map((i) => openStreams(i.url, postId, perInstance, seen)));
  const total = perInstance * instances.length;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const opened = await Promise.all(instances.map((i) => i.stats()));
  const perStream = opened.map((o, i) => (o.rss - before[i]!.rss) / perInstance);

  const latencies: number[] = [];
  let missing = 0;
  for (let n = 0; n < COMMENTS; n += 1) {
    const start = performance.now();
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
  for (const [id, start] of sentAt) {
    const list = arrivals.get(id) ?? [];
    missing += total - list.length;
    for (const at of list) latencies.push(at - start);
  }
  latencies.sort((a, b) => a - b);
  const after = await Promise.all(instances.map((i) => i.stats()));
  for (const close of closers) close();
  const figures = {
    label,
    streams: total,
    comments: COMMENTS,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? NaN,
    missing,
    perStreamKiB: perStream.map((b) => b / 1024),
    serverStreams: after.map((a) => a.streams),
  };
  console.log(
    `${label}: ${total} streams, ${COMMENTS} comments → delivery p50 ${figures.p50.toFixed(0)} ms, ` +
      `p99 ${figures.p99.toFixed(0)} ms, max ${figures.max.toFixed(0)} ms; ${missing} deliveries missing; ` +
      `memory per open stream ${figures.perStreamKiB.map((k) => `${k.toFixed(1)} KiB`).join(' / ')} ` +
      `(RSS ${opened.map((o) => mib(o.rss)).join(' / ')})`,
  );
  return figures;
}

async function main() {
  console.log(`bench:streams on ${machine()}, ${new Date().toISOString()}`);
  const emulator = await startAuthEmulator();
  const env = { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: emulator.host };
  const children: ChildProcess[] = [];
  const dir = tempDir('nestling-bench-streams-');
  try {
    const file = path.join(dir, 'bench.db');
    const postId = await releasedDatabase(file);
    const one = await startInstance(file, env);
    children.push(one.child);
    await measure('SQLite, one instance', [one], 2_000, postId, emulator.host);
    one.child.kill('SIGTERM');

    const cluster = await startCluster({ durable: true });
    try {
      const url = new URL(cluster.adminUrl);
      const admin = await import('pg');
      const client = new admin.default.Client({ connectionString: cluster.adminUrl });
      await client.connect();
      await client.query('create database nestling_bench_streams');
      await client.end();
      url.pathname = '/nestling_bench_streams';
      const pgPost = await releasedDatabase(url.href);
      const a = await startInstance(url.href, env);
      const b = await startInstance(url.href, env);
      children.push(a.child, b.child);
      await measure(
        'PostgreSQL, two instances (written through the first)',
        [a, b],
        1_000,
        pgPost,
        emulator.host,
      );
      for (const c of [a.child, b.child]) c.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      await cluster.stop();
    }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await emulator.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// ---- The server child: one instance over DATABASE, API only, printing its address. ----
async function serve() {
  const location = process.argv[3]!;
  const { db } = await prepareDatabase(location, 'content', { sampleRecalls: false });
  const threads = createThreadHub({ db, listenUrl: isPostgresUrl(location) ? location : null });
  const server = await startServer({
    db,
    siteDir: tempDir('nestling-bench-streams-site-'),
    host: '127.0.0.1',
    port: 0,
    deps: {
      verifyToken: createFirebaseVerifier(EMULATOR_PROJECT_ID),
      ...createRateLimiters(db, { comments: 1_000_000, writes: 1_000_000, reports: 1_000_000 }),
      safety: { holdFirstComment: false, escalationUrl: null, siteUrl: 'http://bench.test' },
      threads,
    },
  });
  process.on('message', (m) => {
    if (m === 'stats') process.send!({ ...threads.stats(), rss: process.memoryUsage().rss });
  });
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
  process.send!({ url: server.url });
}

if (process.argv[2] === 'serve') await serve();
else await main();
