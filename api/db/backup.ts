import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { isPostgresUrl } from './dialect.ts';

/** Why there is no copy: the database is not a file this process can copy. */
export class BackupError extends Error {}

/**
 * A consistent online copy of the SQLite database through SQLite's backup API: safe while the
 * server is writing (WAL), unlike copying the file. A PostgreSQL server is backed up with its own
 * tools, which know its files and its write-ahead log.
 */
export async function backupDatabase(location: string, destFile: string): Promise<{ pages: number }> {
  if (isPostgresUrl(location)) {
    throw new BackupError(
      'DATABASE_URL names a PostgreSQL server; npm run db:backup copies SQLite files only. Back it up ' +
        'with PostgreSQL\'s own tools, e.g. pg_dump --format=custom --file=nestling.dump "$DATABASE_URL" ' +
        '(restore with pg_restore --clean --dbname="$DATABASE_URL" nestling.dump).',
    );
  }
  fs.mkdirSync(path.dirname(path.resolve(destFile)), { recursive: true });
  const source = new SQLite(location, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    const { totalPages } = await source.backup(destFile);
    return { pages: totalPages };
  } finally {
    source.close();
  }
}
