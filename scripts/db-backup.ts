// npm run db:backup [-- <file>] — a consistent online copy of DATABASE_PATH, safe while serving.
import path from 'node:path';
import { backupDatabase } from '../api/db/backup.ts';
import { loadEnv } from './lib/env.ts';

const env = loadEnv();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const dest = process.argv[2] ?? path.join(path.dirname(env.DATABASE_PATH), 'backups', `nestling-${stamp}.db`);
const { pages } = await backupDatabase(env.DATABASE_PATH, dest);
console.log(`Backed up ${env.DATABASE_PATH} to ${dest} (${pages} pages).`);
