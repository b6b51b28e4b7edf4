// A publisher process for tests/api/killed-publish.test.ts to kill -9: it publishes the database
// file's content with a build that writes its pages phase by phase (as the real one reports them)
// and stops for good in the phase it is given, printing "hanging at <phase>" (the run's row says so
// a moment later). A short lease, so the next run takes over within a second of the kill.
// Usage: node --import tsx tests/helpers/killable-publisher.ts DB_FILE SITE_DIR CONTENT_DIR PHASE
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../api/db/database.ts';
import { createPublisher } from '../../scripts/lib/publisher.ts';

const [file, siteDir, contentDir, hangAt] = process.argv.slice(2) as [string, string, string, string];
const db = openDatabase(file);
const publisher = createPublisher({
  db,
  contentDir,
  siteDir,
  buildEnv: {},
  log: () => {},
  leaseMs: 1_000,
  progressEveryMs: 0,
  atPhase: (phase) => hang(phase),
  build: async (outDir, env, { onProgress }) => {
    fs.mkdirSync(outDir, { recursive: true });
    for (const phase of ['rendering', 'indexing', 'compressing'] as const) {
      onProgress?.({ phase, done: 0, total: null, incremental: false });
      fs.writeFileSync(path.join(outDir, `${phase}.html`), `<p>${phase} of ${env.NESTLING_RELEASE_ID}</p>`);
      await hang(phase);
    }
    fs.writeFileSync(path.join(outDir, 'index.html'), `<h1>Release ${env.NESTLING_RELEASE_ID}</h1>`);
  },
});

/** Stops for good in the phase given (the test kills the process there). */
async function hang(phase: string): Promise<void> {
  if (phase !== hangAt) return;
  console.log(`hanging at ${phase}`);
  await new Promise(() => {});
}
await publisher.finished((await publisher.request('killable')).id);
