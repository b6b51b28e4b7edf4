// npm run db:backup [-- <file>] — a consistent online copy of DATABASE_PATH, safe while serving.
// On PostgreSQL (DATABASE_URL) it says to use pg_dump instead, and exits with 1.
import path from 'node:path';
import { BackupError, backupDatabase } from '../api/db/backup.ts';
import { databaseLocation } from '../api/db/database.ts';
import { loadEnv } from './lib/env.ts';

const env = loadEnv();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const dest = process.argv[2] ?? path.join(path.dirname(env.DATABASE_PATH), 'backups', `nestling-${stamp}.db`);
try {
  const { pages } = await backupDatabase(databaseLocation(env), dest);
  console.log(`Backed up ${env.DATABASE_PATH} to ${dest} (${pages} pages).`);
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
