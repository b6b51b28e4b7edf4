import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
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
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
