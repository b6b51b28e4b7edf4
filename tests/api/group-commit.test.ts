// Group commit (docs/decisions/031-group-commit.md): writes made in the same turn share one commit
// on SQLite and commit alone on PostgreSQL; on both, a write is answered only once it is
// committed, and one that fails takes nothing else with it.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type DB, openDatabase } from '../../api/db/database.ts';
import { isPostgres } from '../../api/db/dialect.ts';
import { groupedTransaction } from '../../api/db/group-commit.ts';
import { RuleError } from '../../api/lib/errors.ts';
import { createTestDb } from '../helpers/test-db.ts';

const opened: DB[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.destroy()));
});

/** The test database, and a second connection to it that sees only what is committed. */
async function twoConnections() {
  const { db, location } = await createTestDb({ seed: false });
  const other = openDatabase(location);
  opened.push(db, other);
  return { db, other };
}

const requestFrom = (email: string) => (trx: DB) =>
  trx
    .insertInto('deletion_requests')
    .values({ email, created_at: '2026-11-28T12:00:00Z' })
    .returning('request_id')
    .executeTakeFirstOrThrow();

const storedEmails = async (db: DB) =>
  (await db.selectFrom('deletion_requests').select('email').orderBy('email').execute()).map((r) => r.email);

describe('grouped transactions', () => {
  it('answer a write only once it is committed, and on SQLite commit the writes of one turn together', async () => {
    const { db, other } = await twoConnections();
    const emails = ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com'];
    const writes = emails.map((email, i) => groupedTransaction(db, requestFrom(email)).then(() => i));
    // What another connection sees the moment the first write is answered.
    const first = await Promise.race(writes);
    const seen = await storedEmails(other);
    expect(seen).toContain(emails[first]);
    // On PostgreSQL each commits alone; on SQLite the turn's writes went in one commit.
    if (!isPostgres(db)) expect(seen).toEqual(emails);
    await Promise.all(writes);
    expect(await storedEmails(other)).toEqual(emails);
  });

  it('undo only the write that a rule refuses, answering it with its own error', async () => {
    const { db, other } = await twoConnections();
    const results = await Promise.allSettled([
      groupedTransaction(db, requestFrom('first@example.com')),
      groupedTransaction(db, async (trx) => {
        await requestFrom('refused@example.com')(trx);
        throw new RuleError('Not this one', 409);
      }),
      groupedTransaction(db, requestFrom('third@example.com')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const refused = results[1] as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(RuleError);
    expect((refused.reason as RuleError).status).toBe(409);
    expect(await storedEmails(other)).toEqual(['first@example.com', 'third@example.com']);
  });

  it('undo only the write whose statement fails, and keep the group going', async () => {
    const { db, other } = await twoConnections();
    const window = (key: string) => (trx: DB) =>
      trx
        .insertInto('rate_limits')
        .values({ scope: 'group-test', key, window_start: 1, hits: 1 })
        .execute()
        .then(() => key);
    // A key stored before: on PostgreSQL, where the three run side by side, a key two of them
    // wrote would fail whichever came second.
    await window('taken')(db);
    const results = await Promise.allSettled([
      groupedTransaction(db, window('one')),
      // A key already stored: a unique constraint refuses it.
      groupedTransaction(db, async (trx) => {
        await requestFrom('half-written@example.com')(trx);
        return window('taken')(trx);
      }),
      groupedTransaction(db, window('two')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/unique|duplicate/i);
    const keys = await other
      .selectFrom('rate_limits')
      .select('key')
      .where('scope', '=', 'group-test')
      .execute();
    expect(keys.map((k) => k.key).sort()).toEqual(['one', 'taken', 'two']);
    // Its first statement went with it.
    expect(await storedEmails(other)).toEqual([]);
    // On SQLite the savepoints' sub-journal, which that rollback read, is kept in memory, not in a
    // temporary file (api/db/database.ts).
    if (!isPostgres(db)) {
      const { rows } = await sql<{ temp_store: number }>`pragma temp_store`.execute(db);
      expect(rows).toEqual([{ temp_store: 2 }]); // MEMORY
    }
  });

  it('answer the values each write returned, in a group of many', async () => {
    const { db } = await twoConnections();
    const emails = Array.from({ length: 40 }, (_, i) => `p${String(i).padStart(2, '0')}@example.com`);
    const ids = await Promise.all(emails.map((email) => groupedTransaction(db, requestFrom(email))));
    const stored = await db.selectFrom('deletion_requests').select(['request_id', 'email']).execute();
    const idOf = new Map(stored.map((row) => [row.email, row.request_id]));
    expect(ids.map((r) => r.request_id)).toEqual(emails.map((email) => idOf.get(email)));
  });
});
