// npm run db:backup [-- <file>] — a consistent online copy of the database, safe while serving:
// SQLite's backup API for DATABASE_PATH, pg_dump (custom format) for DATABASE_URL. Restore it with
// npm run db:restore (scripts/db-restore.ts; README, "Backups").
import path from 'node:path';
import { BackupError, backupDatabase } from '../api/db/backup.ts';
import { databaseLocation, describeDatabase } from '../api/db/database.ts';
import { isPostgresUrl } from '../api/db/dialect.ts';
import { commandLine } from './lib/command-line.ts';
import { loadEnv } from './lib/env.ts';

const { args } = commandLine({
  usage: 'npm run db:backup [-- <file>]',
  takes: ['a file'],
  refusal: 'Nothing was backed up',
});
const env = loadEnv();
const location = databaseLocation(env);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const extension = isPostgresUrl(location) ? 'dump' : 'db';
const dest =
  args[0] ?? path.join(path.dirname(env.DATABASE_PATH), 'backups', `nestling-${stamp}.${extension}`);
try {
  const { pages } = await backupDatabase(location, dest);
  console.log(`Backed up ${describeDatabase(location)} to ${dest}${pages ? ` (${pages} pages)` : ''}.`);
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
