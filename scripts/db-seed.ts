// npm run db:seed — sync content/ into the database (DATABASE_URL, else DATABASE_PATH), and the
// sample listings into one without listings. Idempotent: a second run changes nothing.
import { loadContent } from '../api/db/content.ts';
import { databaseLocation, describeDatabase, openDatabase } from '../api/db/database.ts';
import { migrateToLatest } from '../api/db/migrate.ts';
import { importListings } from '../api/db/queries/listings.ts';
import { importSampleIfEmpty } from '../api/db/queries/recall-imports.ts';
import { syncContent } from '../api/db/sync.ts';
import { loadEnv } from './lib/env.ts';

const env = loadEnv();
const location = databaseLocation(env);
const db = openDatabase(location);
try {
  await migrateToLatest(db);
  const result = await syncContent(db, loadContent(env.CONTENT_DIR), new Date());
  console.log(
    `Seeded ${describeDatabase(location)}: ${result.inserted.length} posts added, ${result.updated.length} updated, ` +
      `${result.unpublished.length} unpublished, ${result.unchanged} unchanged` +
      (result.skipped.length > 0
        ? `, ${result.skipped.length} skipped: edited in the studio (${result.skipped.join(', ')}).`
        : '.'),
  );
  // The sample listings, through the marketplace's way in, into a database that has none.
  const listed = await db.selectFrom('items').select('item_id').limit(1).execute();
  if (listed.length === 0) {
    const { listings } = await importListings(db, loadContent(env.CONTENT_DIR).items, new Date());
    console.log(`Imported ${listings.length} sample listings from content/items.json, each screened.`);
  }
  // The sample recall feed, only into a database that has no recall data (and not with RECALLS_URL,
  // which brings the real data).
  const sample = env.RECALLS_URL ? null : await importSampleIfEmpty(db, env.CONTENT_DIR, new Date());
  if (sample)
    console.log(`Imported the sample recall feed: ${sample.records} recalls (fictional, for trying it out).`);
} finally {
  await db.destroy();
}
