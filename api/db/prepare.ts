import fs from 'node:fs';
import { loadContent } from './content.ts';
import { type DB, openDatabase } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { syncContent } from './sync.ts';

export interface Prepared {
  db: DB;
  /** True when the file was new (or empty) and has just been seeded from content/. */
  seeded: boolean;
}

/** Opens the database, brings it to the latest schema and seeds it from content/ if it is new. */
export async function prepareDatabase(file: string, contentDir: string, now = new Date()): Promise<Prepared> {
  const isNew = file === ':memory:' || !fs.existsSync(file);
  const db = openDatabase(file);
  await migrateToLatest(db);
  const { count } = await db
    .selectFrom('blog_posts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  if (!isNew && Number(count) > 0) return { db, seeded: false };
  await syncContent(db, loadContent(contentDir), now);
  return { db, seeded: true };
}
