// The photo queue (docs/product.md, "Listing screening"): listings' photos fetched from a real HTTP
// listener on this machine, analysed by the real models in a real worker thread, by two queues on
// one database (two instances on one PostgreSQL database in api-pg), each photo exactly once; bad
// photos and hosts hold the listing with the reason, never a 5xx or a hang; a lease left by a
// stopped instance is taken over, and an analysis that keeps failing holds the listing instead of
// losing the photo. The two queues share one analyser, so the models load once in this file (about
// 5 s of CPU a load): what keeps two queues from analysing one photo is the claim in the database,
// not the analyser. The pool's own faults (a worker that runs out of time and is replaced) are
// tested in tests/unit/photo-analysis.test.ts.
//
// Photographs: tests/fixtures/photos/ (see its README): astronaut.jpg (NASA, public domain),
// coffee.jpg (CC0), both from Debian's python3-skimage.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../api/contract.ts';
import type { ListingsAccepted, ScreenedListing } from '../../api/contract/screening.ts';
import { type DB, openDatabase } from '../../api/db/database.ts';
import { claimPhotoJobs, PHOTO_LEASE_MS } from '../../api/db/queries/listing-photos.ts';
import { createPhotoQueue, type PhotoQueue } from '../../api/lib/photo-queue.ts';
import { ANALYSER_CLOSED, createPhotoAnalyser, type PhotoAnalyser } from '../../api/screening/photos/pool.ts';
import { call, createCommunityApp, expectJson, newParent, type Parent } from '../helpers/parents.ts';
import { onPostgres, TEST_NOW } from '../helpers/test-db.ts';

const TOKEN = 'test-listings-token-0123456789';
const PHOTOS = path.resolve(import.meta.dirname, '../fixtures/photos');
const astronaut = fs.readFileSync(path.join(PHOTOS, 'astronaut.jpg'));
const coffee = fs.readFileSync(path.join(PHOTOS, 'coffee.jpg'));

type App = Awaited<ReturnType<typeof createCommunityApp>>['app'];
let app: App;
let db: DB;
let other: DB;
let moderator: Parent;
let now = new Date(TEST_NOW.getTime() + 3_600_000);
const clock = () => now;
let queues: PhotoQueue[] = [];
/** The queues' one analyser: one worker thread, which loads the models on the first photo. */
let analyser: PhotoAnalyser;
let base = '';
let server: http.Server;
/** How often each path and query was asked for. */
const asked = new Map<string, number>();

// What the photo host serves: real photos, and everything a photo host should not send.
async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', base);
  asked.set(url.pathname + url.search, (asked.get(url.pathname + url.search) ?? 0) + 1);
  const jpeg = (body: Buffer) => {
    res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': body.length });
    res.end(body);
  };
  if (url.pathname.startsWith('/astronaut')) return jpeg(astronaut);
  if (url.pathname.startsWith('/coffee')) return jpeg(coffee);
  if (url.pathname === '/text.jpg') return jpeg(Buffer.from('this is not a photo at all'));
  if (url.pathname === '/truncated.jpg') return jpeg(coffee.subarray(0, Math.floor(coffee.length / 3)));
  if (url.pathname === '/bomb.png') {
    res.writeHead(200, { 'Content-Type': 'image/png' });
    return void res.end(bomb);
  }
  if (url.pathname === '/huge.jpg') {
    // 100 MB, sent without a length: the fetch stops reading at its limit.
    res.writeHead(200, { 'Content-Type': 'image/jpeg' });
    const chunk = Buffer.alloc(1024 * 1024, 0xff);
    for (let i = 0; i < 100 && !res.destroyed; i++) {
      if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
    }
    return void res.end();
  }
  if (url.pathname === '/slow.jpg') {
    res.writeHead(200, { 'Content-Type': 'image/jpeg' });
    res.write(coffee.subarray(0, 100));
    return; // and never the rest: the fetch's time limit ends it
  }
  if (url.pathname === '/elsewhere.jpg') {
    res.writeHead(302, { Location: `http://localhost:${(server.address() as AddressInfo).port}/coffee.jpg` });
    return void res.end();
  }
  res.writeHead(404).end();
}

/**
 * A decompression bomb: a small PNG whose header says 30,000 × 30,000 pixels (3.6 GB decoded).
 * The header's own checksum is made right, so only its size gives it away.
 */
async function makeBomb(): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  // Signature (8), then IHDR: length (4), type (4), width (4), height (4), 5 more bytes, CRC (4).
  png.writeUInt32BE(30_000, 16);
  png.writeUInt32BE(30_000, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}
let bomb: Buffer;

let serial = 0;
const listing = (photos: string[], fields: Record<string, unknown> = {}) => ({
  itemId: `photo-${process.pid}-${++serial}`,
  itemName: 'Wooden Stacking Rainbow',
  category: 'toys',
  listingPrice: '24.00',
  condition: 'like_new',
  brand: 'Maple Grove Toys',
  ageGroup: 'All Ages',
  photos,
  ...fields,
});

const send = async (...listings: unknown[]) =>
  expectJson<ListingsAccepted>(
    app.request('/api/listings', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ listings }),
    }),
    202,
  );
const screened = (itemId: string) =>
  expectJson<ScreenedListing>(
    call(app, 'GET', `/api/moderation/listings/${itemId}`, { token: moderator.token }),
    200,
  );
const items = () => expectJson<Item[]>(app.request('/api/items'), 200);
const allIdle = () => Promise.all(queues.map((q) => q.idle()));
const timesAsked = () => [...asked.values()].reduce((sum, n) => sum + n, 0);

/** A queue on `on`; it works only when a test waits for it to be idle (it is never started). */
function queueOn(on: DB, photoAnalyser: PhotoAnalyser = analyser) {
  return createPhotoQueue({
    db: on,
    analyser: photoAnalyser,
    allowedHosts: ['127.0.0.1'],
    // Lower than the defaults: the slow host is given up on sooner, and the 100 MB body is cut
    // after a megabyte, not 15 (the default limit is the fetch's own test's).
    fetchLimits: { timeoutMs: 1_500, maxBytes: 1024 * 1024 },
    now: clock,
    intervalMs: 60_000,
  });
}

beforeAll(async () => {
  bomb = await makeBomb();
  server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const setup = await createCommunityApp({ now: clock, listings: { token: TOKEN } });
  ({ app, db } = setup);
  // A second instance: on PostgreSQL its own pool on the same database, as another process has.
  // On SQLite a second connection in this one thread would wait on the first's open transaction
  // while blocking it (better-sqlite3 is synchronous), so the second queue shares the connection;
  // it still claims under its own name, which is what keeps two claimers from taking one photo.
  other = onPostgres() ? openDatabase(setup.location) : db;
  moderator = await newParent(app, db, 'Mo Moderator', 'moderator');
  analyser = createPhotoAnalyser({ workers: 1 });
  queues = [queueOn(db), queueOn(other)];
}, 180_000);

afterAll(async () => {
  await Promise.all(queues.map((q) => q.stop()));
  await analyser?.close();
  if (other !== db) await other?.destroy();
  await new Promise((resolve) => server?.close(resolve));
  server?.closeAllConnections();
});

describe('two instances analyse the queue, each photo once', () => {
  it('clears a photo without people and holds one with a face, with its box', async () => {
    const cup = listing([`${base}/coffee.jpg?a`, `${base}/coffee.jpg?b`]);
    const person = listing([`${base}/astronaut.jpg?a`]);
    const answer = await send(cup, person);
    expect(answer.listings.map((l) => l.screening)).toEqual(['pending', 'pending']);
    await allIdle();

    expect(asked.get('/coffee.jpg?a')).toBe(1);
    expect(asked.get('/coffee.jpg?b')).toBe(1);
    expect(asked.get('/astronaut.jpg?a')).toBe(1);
    const shown = (await items()).find((i) => i.itemId === cup.itemId)!;
    expect(shown.checks.ran).toEqual(['rules', 'recall', 'photo']);
    expect(shown.imageUrl).toMatch(/^\/api\/images\/[0-9a-f]+-\d+x\d+\/\d+\.webp$/);

    const held = await screened(person.itemId);
    expect(held.screening.state).toBe('held');
    const photo = held.screening.checks.find((c) => c.check === 'photo')!;
    expect(photo.outcome).toBe('flag');
    expect(photo.reasons.map((r) => r.rule)).toContain('photo.face');
    expect(held.screening.photos[0]!.faces.length).toBeGreaterThanOrEqual(1);
    const face = held.screening.photos[0]!.faces[0]!;
    for (const n of [face.x, face.y, face.width, face.height]) expect(n).toBeGreaterThanOrEqual(0);
    expect(face.x + face.width).toBeLessThanOrEqual(1.0001);
    expect((await items()).some((i) => i.itemId === person.itemId)).toBe(false);

    // The kept copy is served, and carries no metadata.
    const kept = await app.request(held.screening.photos[0]!.url!);
    expect(kept.status).toBe(200);
    const meta = await sharp(Buffer.from(await kept.arrayBuffer())).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();

    // A moderator publishes it with the face blurred: another copy is shown, not the original.
    const blurred = await expectJson<ScreenedListing>(
      call(app, 'POST', `/api/moderation/listings/${person.itemId}/decision`, {
        token: moderator.token,
        body: { decision: 'blur' },
      }),
      200,
    );
    expect(blurred.screening.state).toBe('cleared');
    const card = (await items()).find((i) => i.itemId === person.itemId)!;
    expect(card.imageUrl).toMatch(/^\/api\/images\//);
    expect(card.imageUrl).not.toBe(held.screening.photos[0]!.url);
  }, 120_000); // whichever test analyses a photo first waits for the worker to load the models
});

// What a photo is and where it comes from is decided before the database is involved, and the
// models are the same on both: these run once, on the embedded default.
const onSqliteOnly = !onPostgres();

describe.runIf(onSqliteOnly)('bad photos hold their listing with the reason', () => {
  it.each([
    ['a file that is not a photo', '/text.jpg', /could not be read: That file is not a JPEG/],
    ['a truncated photo', '/truncated.jpg', /could not be read/],
    ['a decompression bomb', '/bomb.png', /could not be read: That image is too large/],
    ['100 MB', '/huge.jpg', /could not be fetched: .*larger than/],
    ['a host that never finishes', '/slow.jpg', /could not be fetched: .*too long/],
    [
      'a redirect to a host not listed',
      '/elsewhere.jpg',
      /could not be fetched: .*host it does not fetch from/,
    ],
    ['a missing photo', '/gone.jpg', /could not be fetched: .*HTTP 404/],
  ])('%s', async (_name, file, reason) => {
    const one = listing([`${base}${file}`]);
    await send(one);
    await allIdle();
    const held = await screened(one.itemId);
    expect(held.screening.state).toBe('held');
    expect(held.screening.photos[0]!.state).toBe('failed');
    const photo = held.screening.checks.find((c) => c.check === 'photo')!;
    expect(photo.outcome).toBe('flag');
    expect(photo.reasons[0]!.text).toMatch(reason);
  });

  it('never fetches from a host that is not listed, nor from the server itself by another name', async () => {
    const port = (server.address() as AddressInfo).port;
    const before = timesAsked();
    const one = listing([`http://localhost:${port}/coffee.jpg`, 'http://[::1]:4321/api/items']);
    await send(one);
    await allIdle();
    expect(timesAsked()).toBe(before);
    const held = await screened(one.itemId);
    expect(held.screening.photos.map((p) => p.state)).toEqual(['failed', 'failed']);
    expect(held.screening.checks.find((c) => c.check === 'photo')!.reasons[0]!.text).toMatch(
      /host is not one Nestling fetches from/,
    );
  });
});

describe('faults', () => {
  it('takes over a photo whose instance stopped once its lease has run out', async () => {
    const one = listing([`${base}/coffee.jpg?stopped`]);
    await send(one);
    // An instance leases the photo and stops before it is done.
    const leased = await claimPhotoJobs(other, 'stopped-instance', now, 10);
    expect(leased.map((j) => j.itemId)).toContain(one.itemId);
    await allIdle();
    expect((await screened(one.itemId)).screening.state).toBe('pending');
    now = new Date(now.getTime() + PHOTO_LEASE_MS + 1_000);
    await allIdle();
    expect((await screened(one.itemId)).screening.state).toBe('cleared');
  }, 120_000);

  it.runIf(onSqliteOnly)(
    'holds a listing whose photo cannot be analysed, after its tries, instead of losing it',
    async () => {
      // A queue whose analyser fails every photo with PhotoAnalysisFailed, as one whose worker
      // crashes or runs out of time does: a closed one, which starts no worker to fail. The other
      // queues are not asked to work meanwhile, so this photo is this queue's alone.
      const broken = createPhotoAnalyser();
      await broken.close();
      const failing = queueOn(db, broken);
      try {
        const one = listing([`${base}/coffee.jpg?failing`]);
        await send(one);
        await failing.idle();
        const held = await screened(one.itemId);
        expect(held.screening.state).toBe('held');
        const reason = held.screening.checks.find((c) => c.check === 'photo')!.reasons[0]!.text;
        expect(reason).toMatch(/could not be analysed/);
        expect(reason).toContain(ANALYSER_CLOSED);
        const row = await db
          .selectFrom('listing_photos')
          .select(['attempts', 'state'])
          .where('item_id', '=', one.itemId)
          .executeTakeFirstOrThrow();
        expect(row).toEqual({ attempts: 3, state: 'failed' });
      } finally {
        await failing.stop();
      }
    },
  );
});
