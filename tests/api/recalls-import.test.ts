// Importing the public recall database (docs/product.md, "Recall screening"): feeds the tests write
// in the CPSC Recalls JSON format, imported into a real database (SQLite here, PostgreSQL in api-pg);
// the daily refresh over real HTTP from a listener the test starts, on the app's clock; and the
// command line against a file and an address.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type DB, openDatabase } from '../../api/db/database.ts';
import { importRecalls, SAMPLE_SOURCE } from '../../api/db/queries/recall-imports.ts';
import {
  allRecallsForMatching,
  listRecalls,
  recallsByIds,
  recallStatus,
} from '../../api/db/queries/recalls.ts';
import {
  createRecallRefresher,
  importRecallSource,
  refreshBackoffMs,
  type RefreshOutcome,
} from '../../api/lib/recall-refresh.ts';
import { RecallFeedError } from '../../api/recalls/feed.ts';
import { createPublisher } from '../../scripts/lib/publisher.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { databaseEnv, runScript } from '../helpers/run-script.ts';
import { CONTENT_DIR, createTestDb, TEST_NOW } from '../helpers/test-db.ts';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function freshDb(): Promise<{ db: DB; location: string }> {
  const made = await createTestDb();
  stops.push(() => made.db.destroy());
  return made;
}

const SAMPLE = JSON.parse(fs.readFileSync(path.join(CONTENT_DIR, 'recalls.json'), 'utf8')) as unknown[];
const DAY = 24 * 60 * 60_000;

/** A record as the CPSC service publishes it, with every field; `over` replaces or removes fields. */
function record(recallId: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  const full: Record<string, unknown> = {
    RecallID: recallId,
    RecallNumber: `27${recallId}`,
    RecallDate: '2026-11-02T00:00:00',
    Description: `Test recall ${recallId}.`,
    URL: `https://www.cpsc.gov/Recalls/2027/test-${recallId}`,
    Title: `Testco Recalls Baby Walkers ${recallId} Due to Fall Hazard`,
    ConsumerContact: 'Testco at 800-555-0199',
    LastPublishDate: '2026-11-02T00:00:00',
    Products: [
      {
        Name: `Testco Baby Walker ${recallId}`,
        Description: 'A walker',
        Model: `TW-${recallId}`,
        Type: 'Walkers',
        CategoryID: '1200',
        NumberOfUnits: 'About 1,000',
      },
    ],
    Inconjunctions: [],
    Images: [{ URL: 'https://www.cpsc.gov/s3fs-public/walker.jpg' }],
    Injuries: [{ Name: 'None reported' }],
    Manufacturers: [{ Name: 'Testco Inc.', CompanyID: '9001' }],
    ManufacturerCountries: [{ Country: 'China' }],
    ProductUPCs: [{ UPC: '012345678905' }],
    Hazards: [{ Name: 'Babies can fall down stairs.', HazardTypeID: '42' }],
    Remedies: [{ Name: 'Refund' }],
    RemedyOptions: [{ Option: 'Refund' }],
    Retailers: [{ Name: 'Shopmart', CompanyID: '77' }],
    Importers: [],
    Distributors: [],
  };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) delete full[key];
    else full[key] = value;
  }
  return full;
}

/** Every row of every table, in a stable order: what "the data stays exactly as it was" compares. */
async function dump(db: DB): Promise<Record<string, string[]>> {
  const tables = (await db.introspection.getTables())
    .map((t) => t.name)
    .filter((n) => !n.startsWith('kysely_'));
  const out: Record<string, string[]> = {};
  for (const table of tables.sort()) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    out[table] = rows.rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

async function refused(db: DB, feed: unknown): Promise<string> {
  const error = await importRecalls(db, feed, 'test', TEST_NOW).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RecallFeedError);
  return (error as Error).message;
}

describe('the sample feed', () => {
  it('is in every new database, from source "sample"', async () => {
    const { db } = await freshDb();
    expect(await recallStatus(db)).toEqual({
      source: SAMPLE_SOURCE,
      lastImportedAt: TEST_NOW.toISOString(),
      count: SAMPLE.length,
      childrenCount: SAMPLE.length - 2,
    });
    const listed = await listRecalls(db, 100);
    expect(listed[0]).toMatchObject({
      recallId: 990001,
      recallDate: '2026-11-12',
      url: 'https://www.cpsc.gov/Recalls',
    });
    expect(listed[0]!.title).toMatch(/^SafeRide Recalls Convertible Car Seats .*\(sample\)$/);
    expect(listed.map((r) => r.title).filter((t) => /Heaters|Dressers/.test(t))).toEqual([]);
  });

  it('is replaced, with its matches, by the first import of real data', async () => {
    const { db } = await freshDb();
    const sampleMatches = await db.selectFrom('recall_matches').select('match_id').execute();
    expect(sampleMatches.length).toBeGreaterThan(0);
    await importRecalls(db, [record(401)], 'https://www.saferproducts.gov/feed.json', TEST_NOW);
    expect((await db.selectFrom('recalls').select('recall_id').execute()).map((r) => r.recall_id)).toEqual([
      401,
    ]);
    expect(await db.selectFrom('recall_matches').select('match_id').execute()).toEqual([]);
    // Real data stays when the next import comes.
    await importRecalls(db, [record(402)], 'https://www.saferproducts.gov/feed.json', TEST_NOW);
    expect(await recallStatus(db)).toMatchObject({ count: 2 });
  });
});

describe('importing a feed', () => {
  it('adds new recalls, updates changed ones by RecallID and counts the unchanged', async () => {
    const { db } = await freshDb();
    const feed = [record(101), record(102), record(103, { Title: 'Testco Recalls Kettles', Products: [] })];
    expect(await importRecalls(db, JSON.stringify(feed), 'test', TEST_NOW)).toEqual({
      records: 3,
      added: 3,
      updated: 0,
      unchanged: 0,
      children: 2,
      raised: 0,
    });
    const later = new Date(TEST_NOW.getTime() + DAY);
    feed[1] = record(102, { Title: 'Testco Recalls Baby Walkers, corrected' });
    expect(await importRecalls(db, feed, 'test', later)).toMatchObject({
      records: 3,
      added: 0,
      updated: 1,
      unchanged: 2,
    });
    const stored = await db
      .selectFrom('recalls')
      .select(['recall_id', 'title', 'imported_at'])
      .where('recall_id', 'in', [101, 102])
      .orderBy('recall_id')
      .execute();
    expect(stored).toEqual([
      { recall_id: 101, title: record(101).Title, imported_at: TEST_NOW.toISOString() },
      { recall_id: 102, title: 'Testco Recalls Baby Walkers, corrected', imported_at: later.toISOString() },
    ]);
    expect(await importRecalls(db, feed, 'test', later)).toMatchObject({
      added: 0,
      updated: 0,
      unchanged: 3,
    });
    // Every import is recorded, with where it came from; the sample's stays.
    const imports = await db
      .selectFrom('recall_imports')
      .select(['source', 'records', 'added', 'updated'])
      .execute();
    expect(imports).toEqual([
      { source: 'sample', records: SAMPLE.length, added: SAMPLE.length, updated: 0 },
      { source: 'test', records: 3, added: 3, updated: 0 },
      { source: 'test', records: 3, added: 0, updated: 1 },
      { source: 'test', records: 3, added: 0, updated: 0 },
    ]);
    expect(await recallStatus(db)).toMatchObject({ source: 'test', lastImportedAt: later.toISOString() });
  });

  it('keeps records with missing fields, empty and null lists', async () => {
    const { db } = await freshDb();
    const feed = [
      { RecallID: 201, Title: 'Bare Recalls Toy Drums' },
      record(202, { Products: null, Hazards: [], Remedies: null, Images: null, Manufacturers: [], URL: '' }),
      record(203, {
        RecallDate: undefined,
        Description: null,
        Hazards: [{ Name: null, HazardTypeID: null }],
      }),
    ];
    expect(await importRecalls(db, feed, 'test', TEST_NOW)).toMatchObject({ records: 3, added: 3 });
    const byId = await recallsByIds(db, [201, 202, 203]);
    expect(byId.get(201)).toEqual({
      recallId: 201,
      recallNumber: null,
      recallDate: null,
      title: 'Bare Recalls Toy Drums',
      description: null,
      hazards: [],
      remedies: [],
      url: null,
      products: [],
      manufacturers: [],
    });
    // Remedies missing: the short options stand in.
    expect(byId.get(202)).toMatchObject({
      url: null,
      products: [],
      hazards: [],
      remedies: ['Refund'],
      manufacturers: [],
    });
    expect(byId.get(203)).toMatchObject({ recallDate: null, description: null, hazards: [] });
    // Undated recalls come after dated ones.
    const ids = (await listRecalls(db, 100)).map((r) => r.recallId);
    expect(ids.indexOf(990001)).toBeLessThan(ids.indexOf(202));
    expect(ids.slice(-2).sort()).toEqual([201, 203]);
  });

  it('keeps odd Unicode exactly, as matching reads it', async () => {
    const { db } = await freshDb();
    const title = 'Bébé Crèche 🍼 Recalls Cribs — מיטת תינוק \u200f(סדרה א) 𝒞 ﷽';
    const maker = 'Ünïcødé Spielwaren GmbH 👶🏽';
    await importRecalls(
      db,
      [record(301, { Title: title, Manufacturers: [{ Name: maker }] })],
      'test',
      TEST_NOW,
    );
    const [listed] = (await listRecalls(db, 100)).filter((r) => r.recallId === 301);
    expect(listed).toMatchObject({ title, manufacturers: [maker] });
    const forMatching = (await allRecallsForMatching(db)).find((r) => r.recallId === 301)!;
    expect(forMatching).toMatchObject({ title, forChildren: true });
    expect(forMatching.lists.manufacturers).toEqual([{ name: maker, companyId: null }]);
  });

  it('lists only recalls of children’s products, newest first, at most the limit', async () => {
    const { db } = await freshDb();
    await importRecalls(
      db,
      [
        record(401, { RecallDate: '2026-11-20' }),
        record(402, { RecallDate: '2026-11-20' }),
        record(403, { RecallDate: '2026-11-21', Title: 'Testco Recalls Lawn Mowers', Products: [] }),
        record(404, { RecallDate: '2026-11-01' }),
      ],
      'test',
      TEST_NOW,
    );
    expect((await listRecalls(db, 10)).map((r) => r.recallId)).toEqual([402, 401, 404]);
    expect((await listRecalls(db, 2)).map((r) => r.recallId)).toEqual([402, 401]);
  });

  it('refuses a malformed record, a feed that is not a list, and text neither database can store, changing nothing', async () => {
    const { db } = await freshDb();
    await importRecalls(db, [record(501), record(502)], 'test', TEST_NOW);
    const before = await dump(db);
    const changed = [record(501, { Title: 'Changed' }), record(503)];
    expect(await refused(db, [...changed, record(9102, { RecallDate: 'yesterday' })])).toBe(
      'The recall feed was refused: Record 3 (RecallID 9102): RecallDate "yesterday" is not a date.',
    );
    expect(await refused(db, [...changed, record(504, { Hazards: 'Fire' })])).toBe(
      'The recall feed was refused: Record 3 (RecallID 504): Hazards must be a list, not text.',
    );
    expect(await refused(db, [...changed, record(505, { Title: '' })])).toBe(
      'The recall feed was refused: Record 3 (RecallID 505): Title is missing.',
    );
    expect(await refused(db, JSON.stringify({ records: changed }))).toBe(
      'The recall feed was refused: it must be a list of records, not an object.',
    );
    expect(await refused(db, '[{"RecallID": 501, "Title": "Cut off')).toMatch(
      /^The recall feed was refused: it is not JSON/,
    );
    expect(
      await refused(db, JSON.stringify([...changed, record(506, { Products: [{ Name: 'Crib\u0000' }] })])),
    ).toBe(
      'The recall feed was refused: Record 3 (RecallID 506): Products.0.Name contains text that cannot be stored (a NUL or an unpaired surrogate).',
    );
    expect(await refused(db, '[{"RecallID": 507, "Title": "Crib \\ud83d"}]')).toBe(
      'The recall feed was refused: Record 1 (RecallID 507): Title contains text that cannot be stored (a NUL or an unpaired surrogate).',
    );
    expect(await dump(db)).toEqual(before);
  });

  it('rolls back everything when the transaction fails after writing', async () => {
    const { db } = await freshDb();
    const before = await dump(db);
    const failed = await importRecalls(
      db,
      [record(601), record(990002, { Title: 'Changed' })],
      'test',
      TEST_NOW,
      {
        beforeCommit: async (trx) => {
          expect(
            await trx
              .selectFrom('recalls')
              .select('title')
              .where('recall_id', '=', 990002)
              .executeTakeFirst(),
          ).toEqual({
            title: 'Changed',
          });
          throw new Error('stop here');
        },
      },
    ).catch((e: unknown) => e);
    expect((failed as Error).message).toBe('stop here');
    expect(await dump(db)).toEqual(before);
  });
});

/** A feed server on a real port: answers `status` with `body` and records the addresses asked for. */
async function feedServer(options: { port?: number } = {}) {
  const state = { status: 200, body: '[]', requests: [] as string[], hold: null as Promise<void> | null };
  const server = http.createServer((req, res) => {
    state.requests.push(req.url ?? '');
    void (state.hold ?? Promise.resolve()).then(() =>
      res.writeHead(state.status, { 'Content-Type': 'application/json' }).end(state.body),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  stops.push(close);
  return { state, port, url: `http://127.0.0.1:${port}/RestWebServices/Recall?format=json`, close };
}

/** A port nothing listens on (taken and let go at once). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The real publisher over db, with a build that only writes a page (no Astro): runs are real rows. */
function publisherFor(db: DB) {
  const siteDir = tempDir();
  const publisher = createPublisher({
    db,
    contentDir: CONTENT_DIR,
    siteDir,
    buildEnv: {},
    now: () => TEST_NOW,
    log: () => {},
    build: async (outDir) => {
      fs.mkdirSync(outDir, { recursive: true });
      fs.writeFileSync(path.join(outDir, 'index.html'), '<h1>Nestling</h1>');
    },
  });
  stops.push(() => publisher.idle());
  return publisher;
}

const publishRuns = (db: DB) =>
  db.selectFrom('releases').select(['trigger']).where('trigger', '=', 'recall refresh').execute();

describe('the daily refresh from RECALLS_URL', () => {
  it('imports over HTTP once a day, asking only for what changed since the last import, and publishes', async () => {
    const { db } = await freshDb();
    const source = await feedServer();
    let now = new Date(TEST_NOW);
    const publisher = publisherFor(db);
    const logs: string[] = [];
    const refresher = createRecallRefresher({
      db,
      url: source.url,
      publisher,
      now: () => now,
      log: (line) => logs.push(line),
      instance: 'one',
    });
    stops.push(() => refresher.stop());

    source.state.body = JSON.stringify([record(701), record(702)]);
    expect(await refresher.tick()).toMatchObject({ state: 'imported', result: { added: 2, updated: 0 } });
    expect(source.state.requests).toEqual(['/RestWebServices/Recall?format=json']);
    await publisher.idle();
    expect(await publishRuns(db)).toHaveLength(1);
    expect(await recallStatus(db)).toMatchObject({ source: source.url, lastImportedAt: now.toISOString() });
    expect(logs).toEqual([
      'Recall refresh: 2 record(s), 2 added, 0 updated, 0 unchanged; 0 possible match(es) raised.',
    ]);

    // Later the same day: nothing to do, nothing asked.
    now = new Date(TEST_NOW.getTime() + 6 * 60 * 60_000);
    expect(await refresher.tick()).toEqual({ state: 'skipped' });
    expect(source.state.requests).toHaveLength(1);

    // The next day: only what was published since the day of the last import.
    now = new Date(TEST_NOW.getTime() + DAY);
    source.state.body = JSON.stringify([
      record(702, { Title: 'Testco Recalls Baby Walkers, corrected' }),
      record(703),
    ]);
    expect(await refresher.tick()).toMatchObject({ state: 'imported', result: { added: 1, updated: 1 } });
    expect(source.state.requests[1]).toBe(
      '/RestWebServices/Recall?format=json&LastPublishDateStart=2026-11-22',
    );
    expect((await recallsByIds(db, [702])).get(702)!.title).toBe('Testco Recalls Baby Walkers, corrected');

    // The day after: nothing new is an import too (it says when the data was last checked), but no publish.
    now = new Date(TEST_NOW.getTime() + 2 * DAY);
    source.state.body = '[]';
    expect(await refresher.tick()).toMatchObject({ state: 'imported', result: { records: 0 } });
    expect(source.state.requests[2]).toBe(
      '/RestWebServices/Recall?format=json&LastPublishDateStart=2026-11-23',
    );
    await publisher.idle();
    expect(await publishRuns(db)).toHaveLength(2);
  });

  it('fails while the source is down, changing nothing, and tries again after a wait', async () => {
    const { db } = await freshDb();
    const port = await closedPort();
    let now = new Date(TEST_NOW);
    const logs: string[] = [];
    const url = `http://127.0.0.1:${port}/recalls.json`;
    const refresher = createRecallRefresher({
      db,
      url,
      now: () => now,
      log: (l) => logs.push(l),
      instance: 'one',
    });
    stops.push(() => refresher.stop());
    const data = async () => {
      const all = await dump(db);
      delete all.recall_refresh;
      return all;
    };
    const before = await data();

    const failed = (await refresher.tick()) as Extract<RefreshOutcome, { state: 'failed' }>;
    expect(failed).toMatchObject({ state: 'failed', failures: 1 });
    expect(failed.error).toBe(`Could not reach ${url}: ECONNREFUSED.`);
    expect(failed.retryAt).toBe(new Date(now.getTime() + refreshBackoffMs(1)).toISOString());
    expect(logs[0]).toBe(`Recall refresh failed (try 1); next try from ${failed.retryAt}. ${failed.error}`);
    expect(await data()).toEqual(before);

    // Not again before the wait is over.
    now = new Date(now.getTime() + refreshBackoffMs(1) - 1000);
    expect(await refresher.tick()).toEqual({ state: 'skipped' });

    // The source answers, but with an error: a second failure, a longer wait.
    const source = await feedServer({ port });
    source.state.status = 503;
    now = new Date(TEST_NOW.getTime() + refreshBackoffMs(1));
    expect(await refresher.tick()).toMatchObject({
      state: 'failed',
      failures: 2,
      error: `http://127.0.0.1:${port}/recalls.json answered 503 Service Unavailable.`,
    });
    expect(await data()).toEqual(before);

    // Back up: the next try after the wait imports.
    source.state.status = 200;
    source.state.body = JSON.stringify([record(801)]);
    now = new Date(now.getTime() + refreshBackoffMs(2));
    expect(await refresher.tick()).toMatchObject({ state: 'imported', result: { added: 1 } });
    expect(source.state.requests).toHaveLength(2);
    expect(
      await db.selectFrom('recall_refresh').select(['failures', 'retry_at', 'holder']).execute(),
    ).toEqual([{ failures: 0, retry_at: null, holder: null }]);
  });

  it('is run by only one of two instances refreshing at once', async () => {
    const { db, location } = await freshDb();
    const other = openDatabase(location);
    stops.push(() => other.destroy());
    const source = await feedServer();
    source.state.body = JSON.stringify([record(901)]);
    const refreshers = [
      createRecallRefresher({ db, url: source.url, now: () => TEST_NOW, log: () => {}, instance: 'one' }),
      createRecallRefresher({
        db: other,
        url: source.url,
        now: () => TEST_NOW,
        log: () => {},
        instance: 'two',
      }),
    ];
    const outcomes = await Promise.all(refreshers.map((r) => r.tick()));
    expect(outcomes.map((o) => o.state).sort()).toEqual(['imported', 'skipped']);
    expect(source.state.requests).toHaveLength(1);
    expect(
      await db.selectFrom('recall_imports').select('source').where('source', '=', source.url).execute(),
    ).toHaveLength(1);
  });

  it('commits nothing when another instance took over its claim meanwhile', async () => {
    const { db, location } = await freshDb();
    const other = openDatabase(location);
    stops.push(() => other.destroy());
    const source = await feedServer();
    source.state.body = JSON.stringify([record(951)]);
    let release = () => {};
    source.state.hold = new Promise((resolve) => (release = resolve));
    let now = new Date(TEST_NOW);
    const slow = createRecallRefresher({
      db,
      url: source.url,
      now: () => now,
      log: () => {},
      instance: 'slow',
    });
    const fast = createRecallRefresher({
      db: other,
      url: source.url,
      now: () => now,
      log: () => {},
      instance: 'fast',
    });
    const slowTick = slow.tick();
    await expect.poll(() => source.state.requests.length).toBe(1);
    // The slow instance's claim runs out (15 minutes); the other claims the refresh and imports.
    now = new Date(now.getTime() + 16 * 60_000);
    source.state.hold = null;
    expect(await fast.tick()).toMatchObject({ state: 'imported', result: { added: 1 } });
    release();
    expect(await slowTick).toMatchObject({
      state: 'failed',
      error: 'Lost the claim on the recall refresh to another instance; nothing was imported.',
    });
    expect(
      await db.selectFrom('recall_imports').select('source').where('source', '=', source.url).execute(),
    ).toHaveLength(1);
  });
});

// Each run starts a process (a few seconds on a busy 2-core machine), hence the longer timeouts.
describe('npm run recalls:import', () => {
  const script = 'scripts/recalls-import.ts';

  it('imports a file and an address, and says what changed', { timeout: 120_000 }, async () => {
    const { db, location } = await freshDb();
    const env = databaseEnv(location);
    const file = path.join(tempDir(), 'recalls.json');
    fs.writeFileSync(
      file,
      JSON.stringify([record(1001), record(1002, { Title: 'Testco Recalls Lamps', Products: [] })]),
    );

    const first = await runScript(script, [file, '--no-publish'], env);
    expect(first.output).toContain(
      `Imported ${file}: 2 record(s), 2 added, 0 updated, 0 unchanged; 1 of children's products; 0 possible match(es) raised for moderators.`,
    );
    expect(first.output).toContain('Not published (--no-publish)');
    expect(first.code).toBe(0);
    // The same feed again changes nothing, so no publish is needed.
    const again = await runScript(script, [file], env);
    expect(again.output).toContain('2 record(s), 0 added, 0 updated, 2 unchanged');
    expect(again.output).toContain('Nothing changed, so nothing needs publishing.');
    expect(again.code).toBe(0);

    const source = await feedServer();
    source.state.body = JSON.stringify([record(1001, { Title: 'Testco Recalls Baby Walkers, corrected' })]);
    const fetched = await runScript(script, [source.url, '--no-publish'], env);
    expect(fetched.output).toContain(`Imported ${source.url}: 1 record(s), 0 added, 1 updated, 0 unchanged`);
    expect(fetched.code).toBe(0);
    expect(await recallStatus(db)).toMatchObject({ source: source.url });
    expect((await recallsByIds(db, [1001])).get(1001)!.title).toBe('Testco Recalls Baby Walkers, corrected');
  });

  it(
    'refuses a bad feed, a missing file and a source that is down, changing nothing',
    { timeout: 120_000 },
    async () => {
      const { db, location } = await freshDb();
      const env = databaseEnv(location);
      const dir = tempDir();
      const file = path.join(dir, 'recalls.json');
      fs.writeFileSync(file, JSON.stringify([record(1003), record(1004, { RecallDate: 'soon' })]));
      const source = await feedServer();
      source.state.status = 404;
      const down = `http://127.0.0.1:${await closedPort()}/recalls.json`;
      const before = await dump(db);

      // The command's two ways of refusing, each a process: a feed it refuses, and a source it
      // cannot read (its exit code and what it prints).
      const [bad, missing] = await Promise.all([
        runScript(script, [file], env),
        runScript(script, [source.url], env),
      ]);
      expect(bad.output).toContain(
        'Nothing was imported; the data is as it was. The recall feed was refused: Record 2 (RecallID 1004): RecallDate "soon" is not a date.',
      );
      expect(bad.code).toBe(1);
      expect(missing.output).toContain(`Nothing was imported: ${source.url} answered 404 Not Found.`);
      expect(missing.code).toBe(1);
      // The other sources it cannot read say why through the same function the command prints
      // (importRecallSource): in-process, rather than a process each for the same printing.
      const why = (target: string) =>
        importRecallSource(db, target, TEST_NOW).then(
          () => 'imported',
          (error: unknown) => (error as Error).message,
        );
      expect(await why(down)).toBe(`Could not reach ${down}: ECONNREFUSED.`);
      expect(await why(path.join(dir, 'nope.json'))).toBe(`There is no file ${path.join(dir, 'nope.json')}.`);
      expect(await dump(db)).toEqual(before);
    },
  );
});
