// The few places where SQLite and PostgreSQL need different SQL, all in this file
// (docs/decisions/011-postgresql.md). Migrations may import it: it imports nothing
// of the app, so it cannot change under them.
import {
  type ColumnDefinitionBuilder,
  type Kysely,
  PostgresAdapter,
  type SelectQueryBuilder,
  sql,
} from 'kysely';

// Migrations work on Kysely<any>; everything here serves them and the app alike.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDB = Kysely<any>;

/** A DATABASE_URL that names a PostgreSQL server (anything else is a SQLite file path). */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

export function isPostgres(db: AnyDB): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * An integer primary key that the database numbers: AUTOINCREMENT on SQLite, an identity column on
 * PostgreSQL (Kysely's autoIncrement() writes MySQL's keyword there).
 */
export function generatedId(db: AnyDB) {
  return (column: ColumnDefinitionBuilder) =>
    isPostgres(db) ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement();
}

/**
 * Locks the rows a select reads until the transaction ends, so what the transaction decides from
 * them still holds when it writes: PostgreSQL runs transactions side by side, SQLite one writer at
 * a time (and has no such clause). It is the lock an UPDATE of the row takes (FOR NO KEY UPDATE),
 * so rows that merely reference it (a reply, a like, a report) can still be added meanwhile.
 */
export function forUpdate(db: AnyDB) {
  return <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>) =>
    isPostgres(db) ? query.forNoKeyUpdate() : query;
}

/**
 * Runs a write whose loss in a power cut is harmless (rate-limit counts) without waiting for the
 * disk. SQLite syncs every commit (synchronous=FULL, for likes and comments), so this one runs with
 * NORMAL on the same connection, which in WAL mode keeps the file consistent and only defers the
 * sync. On PostgreSQL it is an ordinary commit: one round trip, fewer than the three a
 * `SET LOCAL synchronous_commit` transaction would take.
 */
export async function withoutDiskSync<S, T>(db: Kysely<S>, write: (db: Kysely<S>) => Promise<T>): Promise<T> {
  if (isPostgres(db)) return write(db);
  return db.connection().execute(async (connection) => {
    await sql`pragma synchronous = NORMAL`.execute(connection);
    try {
      return await write(connection);
    } finally {
      await sql`pragma synchronous = FULL`.execute(connection);
    }
  });
}
