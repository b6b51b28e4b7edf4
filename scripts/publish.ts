// npm run publish — sync content/ into the database, rebuild the site and swap it in.
// A running server picks the new site up at once (it serves SITE_DIR through its link).
import path from 'node:path';
import { databaseLocation } from '../api/db/database.ts';
import { prepareDatabase } from '../api/db/prepare.ts';
import { loadEnv } from './lib/env.ts';
import { createPublisher } from './lib/publisher.ts';

const env = loadEnv();
const { db } = await prepareDatabase(databaseLocation(env), env.CONTENT_DIR);
const publisher = createPublisher({
  db,
  contentDir: env.CONTENT_DIR,
  siteDir: path.resolve(env.SITE_DIR),
  buildEnv: { ...process.env, DATABASE_PATH: env.DATABASE_PATH },
  hookUrl: env.PUBLISH_HOOK_URL,
});
publisher.request('command line');
await publisher.idle();
await db.destroy();
const run = publisher.status().recent[0]!;
process.exit(run.state === 'succeeded' ? 0 : 1);
