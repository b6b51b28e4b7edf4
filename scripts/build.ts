// npm run build — build the static site into SITE_DIR (default dist/) from the database.
import path from 'node:path';
import { prepareDatabase } from '../api/db/prepare.ts';
import { precompress, runAstroBuild } from './lib/build.ts';
import { loadEnv } from './lib/env.ts';

const env = loadEnv();
const { db } = await prepareDatabase(env.DATABASE_PATH, 'content');
await db.destroy();
const outDir = path.resolve(env.SITE_DIR);
const started = Date.now();
await runAstroBuild(outDir, { ...process.env, DATABASE_PATH: env.DATABASE_PATH });
await precompress(outDir);
console.log(`Built ${outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
