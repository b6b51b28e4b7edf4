// npm run build — build the static site into SITE_DIR (default dist/) from the database.
import path from 'node:path';
import { databaseLocation } from '../api/db/database.ts';
import { prepareDatabase } from '../api/db/prepare.ts';
import { buildSite } from './lib/build.ts';
import { loadEnv } from './lib/env.ts';

const env = loadEnv();
const { db } = await prepareDatabase(databaseLocation(env), env.CONTENT_DIR);
await db.destroy();
const siteDir = path.resolve(env.SITE_DIR);
const { durationMs } = await buildSite(siteDir, { ...process.env, DATABASE_PATH: env.DATABASE_PATH });
console.log(`Built ${siteDir} in ${(durationMs / 1000).toFixed(1)} s.`);
