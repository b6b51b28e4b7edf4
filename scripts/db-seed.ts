// npm run db:seed — sync content/ into DATABASE_PATH. Idempotent: a second run changes nothing.
import { loadContent } from '../api/db/content.ts';
import { openDatabase } from '../api/db/database.ts';
import { migrateToLatest } from '../api/db/migrate.ts';
import { syncContent } from '../api/db/sync.ts';
import { loadEnv } from './lib/env.ts';

const env = loadEnv();
const db = openDatabase(env.DATABASE_PATH);
try {
  await migrateToLatest(db);
  const result = await syncContent(db, loadContent(env.CONTENT_DIR), new Date());
  console.log(
    `Seeded ${env.DATABASE_PATH}: ${result.inserted.length} posts added, ${result.updated.length} updated, ` +
      `${result.unpublished.length} unpublished, ${result.unchanged} unchanged.`,
  );
} finally {
  await db.destroy();
}
