// npm run items:import -- <file or http(s) URL> [--no-publish] — take listings in the JSON the
// marketplace sends to POST /api/listings ({ "listings": [...] }, or a bare list like
// content/items.json), through the same function (docs/product.md, "Listing screening"): each is
// upserted by itemId and screened. A bad listing refuses the whole file, named. Photos wait in the
// database's queue for a running server to analyse them. When what parents see changed, a publish
// follows (--no-publish leaves that to the next one).
import fs from 'node:fs';
import { databaseLocation, openDatabase } from '../api/db/database.ts';
import { migrateToLatest } from '../api/db/migrate.ts';
import { importListings } from '../api/db/queries/listings.ts';
import { parseListings } from '../api/screening/listing-input.ts';
import { commandLine } from './lib/command-line.ts';
import { loadEnv } from './lib/env.ts';

const { flags, args } = commandLine({
  usage: 'npm run items:import -- <file or http(s) URL> [--no-publish]',
  needs: ['a file or an http(s) URL'],
  flags: ['no-publish'],
  refusal: 'Nothing was imported',
});
const target = args[0]!;
const publish = !flags['no-publish'];

async function read(source: string): Promise<string> {
  if (/^https?:\/\//i.test(source)) {
    const res = await fetch(source, { signal: AbortSignal.timeout(60_000) });
    if (!res.ok) throw new Error(`${source} answered ${res.status}`);
    return res.text();
  }
  return fs.readFileSync(source, 'utf8');
}

let body: unknown;
try {
  body = JSON.parse(await read(target));
} catch (error) {
  console.error(`Nothing was imported: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const parsed = parseListings(body);
if (!parsed.ok) {
  console.error(`Nothing was imported; the listings are as they were. ${target}: ${parsed.error}`);
  process.exit(1);
}

const env = loadEnv();
const db = openDatabase(databaseLocation(env));
await migrateToLatest(db);
const result = await importListings(db, parsed.listings, new Date());
const counts = new Map<string, number>();
for (const l of result.listings) counts.set(l.screening, (counts.get(l.screening) ?? 0) + 1);
console.log(
  `Imported ${result.accepted} listing(s) from ${target}: ` +
    [...counts].map(([state, n]) => `${n} ${state}`).join(', ') +
    '. Pending listings wait for their photos to be checked by a running server.',
);
let ok = true;
if (result.shownChanged === 0) {
  console.log('What parents see did not change, so nothing needs publishing.');
} else if (!publish) {
  console.log('Not published (--no-publish): the pages show the change after the next publish.');
} else {
  const { publishImport } = await import('./lib/publisher.ts');
  ok = await publishImport(db, env, 'items import', 'the listings are in');
}
await db.destroy();
process.exit(ok ? 0 : 1);
