// Group commit for the parents' frequent writes (docs/decisions/031-group-commit.md). On SQLite
// every commit is one fsync (synchronous=FULL) on the thread that serves every request: in a CPU
// profile under bench:streams' comment writes it was half of that thread. Writes that arrive in
// the same turn of the event loop therefore run one after another in one transaction, each in a
// savepoint of its own, and are made durable by one commit; none is answered before that commit.
// A write that fails rolls back to its savepoint and leaves the others alone. PostgreSQL commits
// each alone: its server groups commits itself, and its connections run side by side.
import type { Transaction } from 'kysely';
import type { Database } from './schema.ts';
import type { DB } from './database.ts';
import { isPostgres } from './dialect.ts';

type Work<T> = (trx: Transaction<Database>) => Promise<T>;

interface Waiting {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Writes waiting for the next group, per database. */
const groups = new WeakMap<DB, Waiting[]>();

/**
 * Runs `work` in a transaction that commits with the others waiting now (SQLite) or alone
 * (PostgreSQL). Resolves only once its rows are committed; rejects with its own error (its rows
 * rolled back, the others unaffected) or with the commit's.
 */
export function groupedTransaction<T>(db: DB, work: Work<T>): Promise<T> {
  if (isPostgres(db)) return db.transaction().execute(work);
  return new Promise<T>((resolve, reject) => {
    let group = groups.get(db);
    if (!group) {
      group = [];
      groups.set(db, group);
      // After the requests already read in this turn have reached their write.
      setImmediate(() => void commitGroup(db));
    }
    group.push({ work, resolve: resolve as (value: unknown) => void, reject });
  });
}

async function commitGroup(db: DB): Promise<void> {
  const group = groups.get(db) ?? [];
  groups.delete(db);
  if (group.length === 1) {
    const [only] = group as [Waiting];
    await db.transaction().execute(only.work).then(only.resolve, only.reject);
    return;
  }
  let trx;
  try {
    trx = await db.startTransaction().execute();
  } catch (error) {
    for (const waiting of group) waiting.reject(error);
    return;
  }
  const done: { waiting: Waiting; value: unknown }[] = [];
  try {
    for (const waiting of group) {
      const saved = await trx.savepoint('write').execute();
      let value: unknown;
      try {
        value = await waiting.work(trx);
      } catch (error) {
        // A rule refused it, or a statement failed: undo its rows only. When SQLite has rolled
        // back the whole transaction (a full disk, an I/O error) the savepoint is gone, this
        // throws, and the group fails with the write's own error.
        await saved
          .rollbackToSavepoint('write')
          .execute()
          .catch(() => Promise.reject(error));
        await saved.releaseSavepoint('write').execute();
        waiting.reject(error);
        continue;
      }
      await saved.releaseSavepoint('write').execute();
      done.push({ waiting, value });
    }
    await trx.commit().execute();
  } catch (error) {
    await trx
      .rollback()
      .execute()
      .catch(() => undefined);
    // Nothing of the group is committed; a write refused earlier keeps its own answer.
    for (const waiting of group) waiting.reject(error);
    return;
  }
  for (const { waiting, value } of done) waiting.resolve(value);
}
