// npm run publish — sync content/ into the database and publish it as a new release: its site is
// built into its own folder, then pages and API switch to it together (a running server follows
// within a second). A running server's warm publisher does the run when one is up (--here: this
// process does). npm run publish -- --rollback goes back to the previous release.
import os from 'node:os';
import { databaseLocation } from '../api/db/database.ts';
import { prepareDatabase } from '../api/db/prepare.ts';
import { RuleError } from '../api/lib/errors.ts';
import { storageFailure } from '../api/lib/storage-failure.ts';
import { commandLine } from './lib/command-line.ts';
import { loadEnv } from './lib/env.ts';
import { publisherFromEnv } from './lib/publisher.ts';

/**
 * A full disk or a database that cannot be reached ends the command with one plain line, not a
 * stack trace: nothing was switched, so the live release is as it was (docs/decisions/027).
 */
function failPlainly(error: unknown): never {
  const failure = storageFailure(error);
  if (!failure) throw error;
  const why = failure.status === 507 ? 'the disk is full' : 'the database cannot be reached';
  console.error(`Nothing was published: ${why} (${failure.detail}). The live release is unchanged.`);
  process.exit(1);
}

// A mistyped option must not publish: `--rolback` would otherwise put a new release live when the
// admin meant to go back to the last one.
const { flags } = commandLine({
  usage: 'npm run publish [-- --here | --rollback]',
  flags: ['here', 'rollback'],
  refusal: 'Nothing was published',
});

const env = loadEnv();
const { db } = await prepareDatabase(databaseLocation(env), env.CONTENT_DIR).catch(failPlainly);
const publisher = publisherFromEnv(db, env);

async function publish(): Promise<boolean> {
  if (!flags.rollback) {
    // A running server's publisher builds warm: the run goes to it unless --here says otherwise.
    if (flags.here)
      return (await publisher.finished((await publisher.request('command line')).id)).state === 'succeeded';
    return (await publisher.publishHere('command line')).run.state === 'succeeded';
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

const ok = await publish().catch(failPlainly);
await publisher.idle();
await publisher.close();
await db.destroy();
process.exit(ok ? 0 : 1);
