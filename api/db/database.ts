import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type SqliteDatabase, SqliteDialect } from 'kysely';
import type { Database } from './schema.ts';

export type DB = Kysely<Database>;

/**
 * Opens the SQLite file with the pragmas the product relies on: WAL so readers never block the
 * writer, foreign keys enforced, a generous busy timeout for concurrent writers, and
 * synchronous=FULL so an acknowledged like or comment survives a crash.
 */
export function openDatabase(file: string): DB {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = FULL');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query's SQL anew; the app sends the same few dozen statements over and
 * over, so prepared statements are kept by their SQL (bounded; the oldest goes first). Safe because
 * better-sqlite3 runs each statement to completion before the next one starts.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
