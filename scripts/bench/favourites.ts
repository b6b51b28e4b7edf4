// npm run bench:favourites [-- --pg] — favourites and alerts at scale (docs/product.md, "Favourites
// and alerts"), on a fresh SQLite database (and a throwaway PostgreSQL cluster with --pg):
//   1. GET /api/favourites for a parent with 500 favourites, through the real app in-process:
//      p50/p99 of 1,000 requests (target: p99 under 10 ms on SQLite);
//   2. a heart toggled (PUT, then DELETE) 500 times each: the server's time, p50/p99 (target 5 ms);
//   3. 1,000 new items matched against 100,000 active saved searches of 20,000 parents
//      (listingsChanged in one transaction): wall time and the process's peak memory (target 10 s).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import pg from 'pg';
import { createApp } from '../../api/app.ts';
import type { Identity } from '../../api/auth/verifier.ts';
import { type DB, openDatabase } from '../../api/db/database.ts';
import { migrateToLatest } from '../../api/db/migrate.ts';
import { listingsChanged } from '../../api/db/queries/alerts.ts';
import { createRateLimiters } from '../../api/middleware/rate-limit.ts';
import { startCluster } from '../lib/postgres-cluster.ts';
import { tempDir } from '../lib/temp.ts';
import { machine, mib } from './lib.ts';

const FAVOURITES = 500;
const READS = 1_000;
const TOGGLES = 500;
const SEARCHES = 100_000;
const PARENTS = 20_000;
const NEW_ITEMS = 1_000;

let seed = 38;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

const CATEGORIES = ['clothing', 'toys', 'gear', 'books', 'furniture', 'health'] as const;
const AGES = ['0-6 months', '6-18 months', '1-3 years', '2-3 years', '3-6 years', 'All Ages'] as const;
// Item names are three words of this vocabulary, and a search's words one of them: a search then
// matches about 1% of the items of its category, as a parent's specific search would.
const VOCABULARY = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}x`);
const itemName = (n: number) => `${pick(VOCABULARY)} ${pick(VOCABULARY)} ${pick(VOCABULARY)} ${n}`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

const ms = (n: number) => `${n.toFixed(2)} ms`;

async function insertItems(db: DB, from: number, count: number, stamp: string) {
  for (let i = 0; i < count; i += 200) {
    await db
      .insertInto('items')
      .values(
        Array.from({ length: Math.min(200, count - i) }, (_, j) => {
          const n = from + i + j;
          return {
            item_id: `bench-${n}`,
            item_name: itemName(n),
            category: pick(CATEGORIES),
            listing_price: (5 + Math.floor(random() * 9500) / 100).toFixed(2),
            age_group: pick(AGES),
            brand: pick(['Maple Kids', 'Little Sprout', 'BrightBuild', null]),
            is_featured: 0,
            created_at: stamp,
            status: 'active' as const,
            screening_state: 'cleared' as const,
          };
        }),
      )
      .execute();
  }
}

/** One server on a free port for `fetch`, as api/server.ts serves the app. */
async function listen(fetch: (request: Request) => Response | Promise<Response>) {
  return new Promise<{ port: number; close: () => Promise<void> }>((resolve) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
      resolve({ port: info.port, close: () => new Promise((done) => server.close(() => done())) }),
    );
  });
}

/** GET / on `port` over a kept-alive connection: the time to the last byte. */
function timedGet(agent: http.Agent, port: number, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/favourites', agent, headers }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(performance.now() - started)
          : reject(new Error(`HTTP ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
  });
}

/** The list over HTTP and the bare ceiling, a tenth of the requests at a time each, in turns. */
async function readsOverHttp(fetch: (request: Request) => Response | Promise<Response>, body: Buffer) {
  const bare = new Hono().get('*', (c) =>
    c.body(new Uint8Array(body), 200, { 'Content-Type': 'application/json' }),
  );
  const servers = [await listen(fetch), await listen(bare.fetch)];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { Authorization: 'Bearer bench' };
  const times = { api: [] as number[], bare: [] as number[] };
  for (let i = 0; i < 20; i += 1) await timedGet(agent, servers[0]!.port, headers);
  for (let i = 0; i < 20; i += 1) await timedGet(agent, servers[1]!.port, headers);
  for (let turn = 0; turn < 10; turn += 1) {
    for (let i = 0; i < READS / 10; i += 1) times.api.push(await timedGet(agent, servers[0]!.port, headers));
    for (let i = 0; i < READS / 10; i += 1) times.bare.push(await timedGet(agent, servers[1]!.port, headers));
  }
  agent.destroy();
  await Promise.all(servers.map((s) => s.close()));
  times.api.sort((a, b) => a - b);
  times.bare.sort((a, b) => a - b);
  return { ...times, bytes: body.byteLength };
}

const say = (what: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${what}\n`);

async function measure(label: string, db: DB): Promise<string[]> {
  say(`${label}: migrating and generating`);
  await migrateToLatest(db);
  const now = new Date();
  const stamp = now.toISOString();
  const uid = 'bench-parent';
  const identity: Identity = {
    uid,
    email: 'bench@example.com',
    name: 'Bench Parent',
    picture: null,
    emailVerified: true,
  };
  // Limits out of the way: 1,000 toggles in seconds are the point here, not the per-minute rule.
  const limits = createRateLimiters(db, { comments: 1e6, writes: 1e6, reports: 1e6 });
  const app = createApp({
    db,
    verifyToken: async (token) => (token === 'bench' ? identity : { ...identity, uid: 'bench-toggler' }),
    ...limits,
  });
  const auth = { headers: { Authorization: 'Bearer bench' } };
  const lines: string[] = [];

  await insertItems(db, 0, FAVOURITES + 1, stamp);
  for (let i = 0; i < FAVOURITES; i += 250) {
    await db
      .insertInto('favourites')
      .values(
        Array.from({ length: 250 }, (_, j) => ({
          user_uid: uid,
          item_id: `bench-${i + j}`,
          saved_at: new Date(now.getTime() - (i + j) * 1000).toISOString(),
          price_when_saved: '10.00',
        })),
      )
      .execute();
  }
  const first = await app.request('/api/favourites', auth);
  const body = (await first.json()) as { items: unknown[] };
  if (first.status !== 200 || body.items.length !== FAVOURITES)
    throw new Error(`GET /api/favourites: ${first.status}`);
  say(`${label}: reading`);
  const reads: number[] = [];
  for (let i = 0; i < READS; i += 1) {
    const started = performance.now();
    const res = await app.request('/api/favourites', auth);
    await res.arrayBuffer();
    reads.push(performance.now() - started);
  }
  reads.sort((a, b) => a - b);
  lines.push(
    `| ${label} | GET /api/favourites, ${FAVOURITES} saved, in process (${READS} app.request calls) | p50 ${ms(percentile(reads, 50))} | p99 ${ms(percentile(reads, 99))} |`,
  );
  // As a parent's phone asks: over HTTP through @hono/node-server, as api/server.ts serves it,
  // in turns with a bare Hono server answering the same bytes from memory (the ceiling).
  const overHttp = await readsOverHttp(
    app.fetch,
    Buffer.from(await (await app.request('/api/favourites', auth)).arrayBuffer()),
  );
  lines.push(
    `| ${label} | GET /api/favourites, ${FAVOURITES} saved, over HTTP (${READS} requests, one at a time) | p50 ${ms(percentile(overHttp.api, 50))} | p99 ${ms(percentile(overHttp.api, 99))} |`,
    `| ${label} | ceiling: bare Hono answering the same ${Math.round(overHttp.bytes / 1024)} KiB from memory | p50 ${ms(percentile(overHttp.bare, 50))} | p99 ${ms(percentile(overHttp.bare, 99))} |`,
  );

  say(`${label}: toggling`);
  const toggles: number[] = [];
  const item = `bench-${FAVOURITES}`;
  for (let i = 0; i < TOGGLES; i += 1) {
    for (const method of ['PUT', 'DELETE']) {
      const started = performance.now();
      const res = await app.request(`/api/favourites/${item}`, {
        method,
        headers: { Authorization: 'Bearer toggler' },
      });
      await res.arrayBuffer();
      toggles.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`${method}: ${res.status}`);
    }
  }
  toggles.sort((a, b) => a - b);
  lines.push(
    `| ${label} | heart toggled (${TOGGLES} PUT + ${TOGGLES} DELETE) | p50 ${ms(percentile(toggles, 50))} | p99 ${ms(percentile(toggles, 99))} |`,
  );

  say(`${label}: generating saved searches`);
  for (let i = 0; i < SEARCHES; i += 500) {
    await db
      .insertInto('saved_searches')
      .values(
        Array.from({ length: 500 }, (_, j) => ({
          user_uid: `parent-${(i + j) % PARENTS}`,
          category: random() < 0.95 ? pick(CATEGORIES) : null,
          age_group: random() < 0.5 ? pick(AGES) : null,
          max_price_cents: random() < 0.7 ? 1000 + Math.floor(random() * 9000) : null,
          words: pick(VOCABULARY),
          frequency: random() < 0.7 ? ('instant' as const) : ('daily' as const),
          paused: 0,
          token: `t-${i + j}`,
          last_sent_at: null,
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .execute();
  }
  await insertItems(db, 10_000, NEW_ITEMS, stamp);
  const changes = Array.from({ length: NEW_ITEMS }, (_, i) => ({
    itemId: `bench-${10_000 + i}`,
    wasVisible: false,
    isVisible: true,
    oldPrice: null,
    newPrice: '10.00',
  }));
  say(`${label}: matching`);
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  await db.transaction().execute((trx) => listingsChanged(trx, changes, now));
  const matchMs = performance.now() - started;
  const matches = await db
    .selectFrom('alerts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  lines.push(
    `| ${label} | ${NEW_ITEMS.toLocaleString('en-US')} new items vs ${SEARCHES.toLocaleString('en-US')} saved searches | ${(matchMs / 1000).toFixed(2)} s, ${Number(matches.n).toLocaleString('en-US')} matches | peak RSS ${mib(process.resourceUsage().maxRSS * 1024)} (RSS ${mib(rssBefore)} before matching, ${mib(process.memoryUsage().rss)} after) |`,
  );
  return lines;
}

console.log(`Favourites and alerts on ${machine()}\n`);
console.log('| database | what | | |');
console.log('| --- | --- | --- | --- |');
const sqlite = openDatabase(path.join(tempDir(), 'bench.db'));
for (const line of await measure('SQLite', sqlite)) console.log(line);
await sqlite.destroy();

if (process.argv.includes('--pg')) {
  const cluster = await startCluster();
  try {
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query('create database bench_favourites');
    await admin.end();
    const url = new URL(cluster.adminUrl);
    url.pathname = '/bench_favourites';
    const db = openDatabase(url.href);
    for (const line of await measure('PostgreSQL', db)) console.log(line);
    await db.destroy();
  } finally {
    await cluster.stop();
  }
}
