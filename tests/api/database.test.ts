// Each API test project runs on its own database: `api` on SQLite files, `api-pg` on the run's
// PostgreSQL cluster (tests/helpers/test-db.ts), with a new database for every test that asks.
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { isPostgres } from '../../api/db/dialect.ts';
import { migrateToLatest, RENAMED_MIGRATIONS } from '../../api/db/migrate.ts';
import { changeRoleByEmail, findRole, getOrCreateProfile } from '../../api/db/queries/profiles.ts';
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

describe('SQLite transactions', () => {
  // A command (`npm run user:role`) changing a role while the server writes: a transaction that
  // read first and then found the file's write lock taken used to fail at once with "database is
  // locked" instead of waiting its turn.
  it('wait for another process’s write to finish instead of failing', async ({ task, skip }) => {
    if (task.file.projectName === 'api-pg') skip('PostgreSQL waits for row locks by itself');
    const { db, location } = await createTestDb({ seed: false });
    const now = new Date('2026-11-26T12:00:00Z');
    await getOrCreateProfile(
      db,
      { uid: 'uid-writer', email: 'writer@example.com', name: 'Wren', picture: null },
      now,
    );

    // Another process's writer: takes the write lock, holds it for a moment, then commits.
    const other = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const SQLite = require(workerData.driver);
       const db = new SQLite(workerData.file);
       db.exec('begin immediate');
       db.prepare("insert into deletion_requests (email, created_at) values ('other@example.com', 'now')").run();
       parentPort.postMessage('holding');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
       db.exec('commit');
       db.close();`,
      {
        eval: true,
        workerData: { file: location, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
      },
    );
    await once(other, 'message');
    const changed = await changeRoleByEmail(
      db,
      { email: 'writer@example.com', role: 'author', actor: { uid: null, name: 'test' } },
      now,
    );
    await once(other, 'exit');
    expect(changed.map((p) => p.role)).toEqual(['author']);
    expect(await findRole(db, 'uid-writer')).toBe('author');
    const requests = await db.selectFrom('deletion_requests').select('email').execute();
    expect(requests).toEqual([{ email: 'other@example.com' }]);
    await db.destroy();
  });
});
