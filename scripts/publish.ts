// npm run publish — sync content/ into the database and publish it as a new release: its site is
// built into its own folder, then pages and API switch to it together (a running server follows
// within a second). npm run publish -- --rollback goes back to the previous release.
import os from 'node:os';
import { databaseLocation } from '../api/db/database.ts';
import { prepareDatabase } from '../api/db/prepare.ts';
import { RuleError } from '../api/lib/errors.ts';
import { loadEnv } from './lib/env.ts';
import { publisherFromEnv } from './lib/publisher.ts';

const env = loadEnv();
const { db } = await prepareDatabase(databaseLocation(env), env.CONTENT_DIR);
const publisher = publisherFromEnv(db, env);

async function publish(): Promise<boolean> {
  if (!process.argv.includes('--rollback')) {
    const run = await publisher.request('command line');
    return (await publisher.finished(run.id)).state === 'succeeded';
  }
  try {
    await publisher.rollback({ uid: null, name: `command line (${os.userInfo().username})` }, null);
    return true;
  } catch (error) {
    if (!(error instanceof RuleError)) throw error;
    console.error(`Nothing was rolled back: ${error.message}`);
    return false;
  }
}

const ok = await publish();
await publisher.idle();
await publisher.close();
await db.destroy();
process.exit(ok ? 0 : 1);
