// Each API test project runs on its own database: `api` on SQLite files, `api-pg` on the run's
// PostgreSQL cluster (tests/helpers/test-db.ts), with a new database for every test that asks.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { isPostgres } from '../../api/db/dialect.ts';
import { migrateToLatest, RENAMED_MIGRATIONS } from '../../api/db/migrate.ts';
import { createTestDb } from '../helpers/test-db.ts';

describe('the test database', () => {
  it("is the project's kind, and new each time", async ({ task }) => {
    const onPostgres = task.file.projectName === 'api-pg';
    const first = await createTestDb({ seed: false });
    const second = await createTestDb({ seed: false });
    expect(isPostgres(first.db)).toBe(onPostgres);
    expect(first.location.startsWith('postgres://')).toBe(onPostgres);
    expect(second.location).not.toBe(first.location);
    await first.db.insertInto('deletion_requests').values({ email: 'a@b.c', created_at: 'now' }).execute();
    const count = (db: typeof first.db) =>
      db
        .selectFrom('deletion_requests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
    expect(await count(first.db)).toEqual({ n: 1 });
    expect(await count(second.db)).toEqual({ n: 0 });
    const version = await sql<{
      v: string;
    }>`select ${sql.raw(onPostgres ? 'version()' : 'sqlite_version()')} as v`.execute(first.db);
    expect(version.rows[0]!.v).toMatch(onPostgres ? /^PostgreSQL \d+/ : /^3\.\d+/);
    await first.db.destroy();
    await second.db.destroy();
  });
});

describe('migrations', () => {
  it('migrate a database that ran renamed migrations under their old names, running none again', async () => {
    const { db } = await createTestDb({ seed: false });
    const recorded = async () =>
      (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map(
        (r) => r.name,
      );
    const current = await recorded();
    // As a database migrated before the renames has them.
    for (const [from, to] of Object.entries(RENAMED_MIGRATIONS)) {
      await sql`update kysely_migration set name = ${from} where name = ${to}`.execute(db);
    }
    expect(await recorded()).toEqual(expect.arrayContaining(Object.keys(RENAMED_MIGRATIONS)));

    expect(await migrateToLatest(db)).toEqual([]);
    expect(await recorded()).toEqual(current);
    expect(current).toEqual(expect.arrayContaining(Object.values(RENAMED_MIGRATIONS)));
    await db.destroy();
  });
});
