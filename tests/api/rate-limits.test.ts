// Rate limits kept in the database (api/middleware/rate-limit.ts, api/db/queries/rate-limits.ts):
// fixed windows per key, shared by every limiter (every server instance) on one database, exact
// when many attempts arrive at once, and cleared of ended windows.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../api/db/database.ts';
import { createRateLimiter } from '../../api/middleware/rate-limit.ts';
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
