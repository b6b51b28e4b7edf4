import fs from 'node:fs';
import { loadContent } from './content.ts';
import { type DB, openDatabase } from './database.ts';
import { isPostgresUrl } from './dialect.ts';
import { migrateToLatest } from './migrate.ts';
import { syncContent } from './sync.ts';

export interface Prepared {
  db: DB;
  /** True when the database was new (or had no posts) and has just been seeded from content/. */
  seeded: boolean;
}

/**
 * Opens the database (a SQLite file or a PostgreSQL URL), brings it to the latest schema and seeds
 * it from content/ if it is new: a SQLite file that did not exist, or any database without posts.
 */
export async function prepareDatabase(
  location: string,
  contentDir: string,
  now = new Date(),
): Promise<Prepared> {
  const isNew = location === ':memory:' || (!isPostgresUrl(location) && !fs.existsSync(location));
  const db = openDatabase(location);
  await migrateToLatest(db);
  const { count } = await db
    .selectFrom('blog_posts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  if (!isNew && Number(count) > 0) return { db, seeded: false };
  await syncContent(db, loadContent(contentDir), now);
  return { db, seeded: true };
}
