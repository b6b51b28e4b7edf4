// Rate limits kept in the database (api/middleware/rate-limit.ts, api/db/queries/rate-limits.ts):
// fixed windows per key, shared by every limiter (every server instance) on one database, exact
// when many attempts arrive at once, and cleared of ended windows.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../api/db/database.ts';
import { createBufferedRateLimiter, createRateLimiter } from '../../api/middleware/rate-limit.ts';
import { createTestDb, onPostgres } from '../helpers/test-db.ts';

const MINUTE = 60_000;

describe('the database rate limiter', () => {
  it('counts in fixed windows, says when to retry, gives attempts back and starts anew', async () => {
    const { db } = await createTestDb({ seed: false });
    let clock = 1_000_000;
    const limiter = createRateLimiter(db, { scope: 'writes', limit: 3, windowMs: MINUTE, now: () => clock });
    for (let i = 0; i < 3; i++)
      expect(await limiter.hit('like:ada')).toEqual({ allowed: true, retryAfterSeconds: 0 });
    clock += 15_000;
    expect(await limiter.hit('like:ada')).toEqual({ allowed: false, retryAfterSeconds: 45 });
    // Another key, and the same key of another limiter, count on their own.
    expect((await limiter.hit('like:bob')).allowed).toBe(true);
    const other = createRateLimiter(db, { scope: 'comments', limit: 1, windowMs: MINUTE, now: () => clock });
    expect((await other.hit('like:ada')).allowed).toBe(true);
    // A refused request that stored nothing gives its attempt back (the 4th above, then one more).
    await limiter.refund('like:ada');
    await limiter.refund('like:ada');
    expect((await limiter.hit('like:ada')).allowed).toBe(true);
    expect((await limiter.hit('like:ada')).allowed).toBe(false);
    clock += 45_000;
    expect(await limiter.hit('like:ada')).toEqual({ allowed: true, retryAfterSeconds: 0 });
    await db.destroy();
  });

  it('counts exactly across instances when attempts arrive at once', async () => {
    const { db, location } = await createTestDb({ seed: false });
    // A second instance: its own connection (SQLite) or pool (PostgreSQL) to the same database.
    const second = openDatabase(location);
    const options = { scope: 'comments', limit: 10, windowMs: MINUTE };
    const limiters = [createRateLimiter(db, options), createRateLimiter(second, options)];
    const decisions = await Promise.all(
      Array.from({ length: 50 }, (_, i) => limiters[i % 2]!.hit('parent-1')),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    const { hits } = await db
      .selectFrom('rate_limits')
      .select('hits')
      .where('scope', '=', 'comments')
      .where('key', '=', 'parent-1')
      .executeTakeFirstOrThrow();
    expect(hits).toBe(50);
    await second.destroy();
    await db.destroy();
  });

  it('clears ended windows as it goes', async () => {
    const { db } = await createTestDb({ seed: false });
    let clock = 1_000_000;
    const limiter = createRateLimiter(db, { scope: 'writes', limit: 5, windowMs: MINUTE, now: () => clock });
    for (const key of ['a', 'b', 'c']) await limiter.hit(key);
    clock += MINUTE;
    await limiter.hit('d');
    const keys = await db.selectFrom('rate_limits').select('key').execute();
    expect(keys.map((r) => r.key)).toEqual(['d']);
    await db.destroy();
  });

  // The one write that does not wait for the disk must not change how everything else is written.
  it.skipIf(onPostgres())('leaves SQLite syncing every other commit in full', async () => {
    const { db } = await createTestDb({ seed: false });
    const limiter = createRateLimiter(db, { scope: 'writes', limit: 5, windowMs: MINUTE });
    await limiter.hit('x');
    await limiter.refund('x');
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
    expect(rows).toEqual([{ synchronous: 2 }]); // FULL
    await db.destroy();
  });
});

describe('the buffered rate limiter (view beacons)', () => {
  const stored = (db: Awaited<ReturnType<typeof createTestDb>>['db'], key: string) =>
    db
      .selectFrom('rate_limits')
      .select(['hits', 'window_start'])
      .where('scope', '=', 'views')
      .where('key', '=', key)
      .executeTakeFirst();

  it('counts in memory, refuses past the limit, and writes the counts in one go', async () => {
    const { db } = await createTestDb({ seed: false });
    let clock = 1_000_000;
    const limiter = createBufferedRateLimiter(db, {
      scope: 'views',
      limit: 3,
      windowMs: MINUTE,
      flushAfterMs: 60_000,
      now: () => clock,
    });
    for (let i = 0; i < 3; i++)
      expect(await limiter.hit('127.0.0.2')).toEqual({ allowed: true, retryAfterSeconds: 0 });
    clock += 20_000;
    expect(await limiter.hit('127.0.0.2')).toEqual({ allowed: false, retryAfterSeconds: 40 });
    // Another address has its own allowance.
    expect((await limiter.hit('127.0.0.3')).allowed).toBe(true);
    // Nothing is written before the flush; then every attempt is, refused ones too.
    expect(await stored(db, '127.0.0.2')).toBeUndefined();
    await limiter.flush();
    expect(await stored(db, '127.0.0.2')).toEqual({ hits: 4, window_start: 1_020_000 });
    expect(await stored(db, '127.0.0.3')).toEqual({ hits: 1, window_start: 1_020_000 });
    // Still refused after the write, and an attempt given back (a 404) counts no more.
    expect((await limiter.hit('127.0.0.2')).allowed).toBe(false);
    await limiter.refund('127.0.0.2');
    await limiter.flush();
    expect(await stored(db, '127.0.0.2')).toMatchObject({ hits: 4 });
    // A window that has ended starts anew.
    clock += MINUTE;
    expect((await limiter.hit('127.0.0.2')).allowed).toBe(true);
    await limiter.flush();
    expect(await stored(db, '127.0.0.2')).toEqual({ hits: 1, window_start: clock });
    await db.destroy();
  });

  it('writes by itself after the interval', async () => {
    const { db } = await createTestDb({ seed: false });
    const limiter = createBufferedRateLimiter(db, {
      scope: 'views',
      limit: 5,
      windowMs: MINUTE,
      flushAfterMs: 20,
    });
    await limiter.hit('127.0.0.4');
    await limiter.hit('127.0.0.4');
    await expect.poll(() => stored(db, '127.0.0.4')).toMatchObject({ hits: 2 });
    await db.destroy();
  });

  it('drops what waits once its database is closed, rather than retrying for ever', async () => {
    const { db } = await createTestDb({ seed: false });
    const clock = 1_000_000;
    const limiter = createBufferedRateLimiter(db, {
      scope: 'views',
      limit: 2,
      windowMs: MINUTE,
      flushAfterMs: 60_000,
      now: () => clock,
    });
    await limiter.hit('127.0.0.6');
    await limiter.hit('127.0.0.6');
    await db.destroy();
    await limiter.flush();
    // Kept for a retry, the two would still count and refuse this one.
    expect(await limiter.hit('127.0.0.6')).toEqual({ allowed: true, retryAfterSeconds: 0 });
  });

  it("adds up instances' counts: each sees the others' written attempts within its interval", async () => {
    const { db, location } = await createTestDb({ seed: false });
    const second = openDatabase(location);
    let clock = 1_000_000;
    const options = { scope: 'views', limit: 5, windowMs: MINUTE, flushAfterMs: 1_000, now: () => clock };
    const a = createBufferedRateLimiter(db, options);
    const b = createBufferedRateLimiter(second, options);
    // B has read the address's (empty) window before A's attempts are written.
    expect((await b.hit('127.0.0.5')).allowed).toBe(true);
    for (let i = 0; i < 3; i++) expect((await a.hit('127.0.0.5')).allowed).toBe(true);
    await a.flush();
    await b.flush();
    expect(await stored(db, '127.0.0.5')).toMatchObject({ hits: 4 });
    // Once its interval has passed, each reads the row again (4: A's three and B's first) and adds
    // its own attempts since. B's last two are not written yet when A reads: that is the leeway
    // one interval gives several instances together.
    clock += 1_000;
    expect((await b.hit('127.0.0.5')).allowed).toBe(true);
    expect((await b.hit('127.0.0.5')).allowed).toBe(false);
    expect((await a.hit('127.0.0.5')).allowed).toBe(true);
    // One after the other: two SQLite connections in one process cannot wait for each other.
    await a.flush();
    await b.flush();
    expect(await stored(db, '127.0.0.5')).toMatchObject({ hits: 7 });
    clock += 1_000;
    expect((await a.hit('127.0.0.5')).allowed).toBe(false);
    expect((await b.hit('127.0.0.5')).allowed).toBe(false);
    await second.destroy();
    await db.destroy();
  });
});
