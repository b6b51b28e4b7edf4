// npm run db:migrate — bring the database (DATABASE_URL, else DATABASE_PATH) to the latest schema.
import { databaseLocation, openDatabase } from '../api/db/database.ts';
import { migrateToLatest } from '../api/db/migrate.ts';
import { loadEnv } from './lib/env.ts';

const env = loadEnv();
const db = openDatabase(databaseLocation(env));
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await db.destroy();
}
