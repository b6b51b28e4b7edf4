// npm run recalls:import -- <file or http(s) URL> [--no-publish] — import a recall feed in the CPSC
// Recalls JSON format (docs/product.md, "Recall screening"): new recalls are added, changed ones
// updated by RecallID, and every item is checked again. When the data changed, a publish follows so
// /recalls and every list show it (--no-publish leaves that to the next publish).
import { databaseLocation, openDatabase } from '../api/db/database.ts';
import { migrateToLatest } from '../api/db/migrate.ts';
import { importRecallSource } from '../api/lib/recall-refresh.ts';
import { RecallFeedError } from '../api/recalls/feed.ts';
import { commandLine } from './lib/command-line.ts';
import { loadEnv } from './lib/env.ts';

const { flags, args } = commandLine({
  usage: 'npm run recalls:import -- <file or http(s) URL> [--no-publish]',
  needs: ['a file or an http(s) URL'],
  flags: ['no-publish'],
  refusal: 'Nothing was imported',
});
const target = args[0]!;
const publish = !flags['no-publish'];

const env = loadEnv();
// Migrated only, not seeded: a database without posts is seeded by the next start or publish, and
// leaving the Markdown renderer unloaded keeps the import's memory small.
const db = openDatabase(databaseLocation(env));
await migrateToLatest(db);
const imported = await importRecallSource(db, target, new Date()).catch(async (error: unknown) => {
  await db.destroy();
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RecallFeedError)
    console.error(`Nothing was imported; the data is as it was. ${message}`);
  else console.error(`Nothing was imported: ${message}`);
  process.exit(1);
});

const { source, result } = imported;
console.log(
  `Imported ${source}: ${result.records} record(s), ${result.added} added, ${result.updated} updated, ` +
    `${result.unchanged} unchanged; ${result.children} of children's products; ` +
    `${result.raised} possible match(es) raised for moderators.`,
);
let ok = true;
if (result.added + result.updated === 0) {
  console.log('Nothing changed, so nothing needs publishing.');
} else if (!publish) {
  console.log('Not published (--no-publish): the pages show the change after the next publish.');
} else {
  const { publishImport } = await import('./lib/publisher.ts');
  ok = await publishImport(db, env, 'recall import', 'the recall data is imported');
}
await db.destroy();
process.exit(ok ? 0 : 1);
