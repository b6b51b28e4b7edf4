// Which release the API answers from, as one instance sees it, over a real database.
import { afterEach, describe, expect, it } from 'vitest';
import type { DB } from '../../api/db/database.ts';
import { fixedReleaseSource, liveReleaseSource } from '../../api/lib/live-release.ts';
import { createTestDb, releaseNow, TEST_NOW } from '../helpers/test-db.ts';

let db: DB | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

describe('the live release', () => {
  it('is known without reading only once a read has finished, and while it is fresh', async () => {
    ({ db } = await createTestDb());
    let clock = 0;
    const source = liveReleaseSource(db, { ttlMs: 1_000, now: () => clock });
    expect(source.known()).toBeUndefined();
    const reading = source.current();
    // Being read: a kept answer must not guess which release it is.
    expect(source.known()).toBeUndefined();
    const live = await reading;
    expect(live).not.toBeNull();
    expect(source.known()).toEqual(live);
    clock = 999;
    expect(source.known()).toEqual(live);
    clock = 1_000;
    expect(source.known()).toBeUndefined();
    // The next request reads again, and the release is known again once it has.
    await source.current();
    expect(source.known()).toEqual(live);
  });

  it('does not go on knowing the old release once reading it again has failed', async () => {
    ({ db } = await createTestDb());
    let clock = 0;
    const source = liveReleaseSource(db, { ttlMs: 1_000, now: () => clock });
    await source.current();
    clock = 1_000;
    await db.destroy();
    db = undefined;
    await expect(source.current()).rejects.toThrow();
    expect(source.known()).toBeUndefined();
  });

  it('reads again at once after refresh, even within its time (its own publisher switched)', async () => {
    ({ db } = await createTestDb());
    const clock = 0;
    const source = liveReleaseSource(db, { ttlMs: 1_000, now: () => clock });
    const before = await source.current();
    const next = await releaseNow(db, new Date(TEST_NOW.getTime() + 60_000));
    // Within its second it still gives what it read.
    expect((await source.current())?.id).toBe(before!.id);
    source.refresh();
    expect(source.known()).toBeUndefined();
    expect((await source.current())?.id).toBe(next);
    expect(source.known()?.id).toBe(next);
  });

  it('knows a fixed release once it has been read', async () => {
    ({ db } = await createTestDb());
    const live = await liveReleaseSource(db).current();
    const source = fixedReleaseSource(db, live!.id);
    expect(source.known()).toBeUndefined();
    expect(await source.current()).toEqual(live);
    expect(source.known()).toEqual(live);
  });
});
