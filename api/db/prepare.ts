import fs from 'node:fs';
import { loadContent } from './content.ts';
import { type DB, openDatabase } from './database.ts';
import { isPostgresUrl } from './dialect.ts';
import { migrateToLatest } from './migrate.ts';
import { importSampleIfEmpty } from './queries/recall-imports.ts';
import { importListings } from './queries/listings.ts';
import { type Content } from './content.ts';
import { syncContent } from './sync.ts';

export interface Prepared {
  db: DB;
  /** True when the database was new (or had no posts) and has just been seeded from content/. */
  seeded: boolean;
}

export interface PrepareOptions {
  now?: Date;
  /**
   * Whether a database without recall data gets the sample feed (content/recalls.json). By default
   * only one just seeded; npm start asks for it unless RECALLS_URL brings the real data, so
   * fictional recalls never sit beside real ones.
   */
  sampleRecalls?: boolean;
}

/**
 * Opens the database (a SQLite file or a PostgreSQL URL), brings it to the latest schema and seeds
 * it from content/ if it is new: a SQLite file that did not exist, or any database without posts.
 */
export async function prepareDatabase(
  location: string,
  contentDir: string,
  options: PrepareOptions = {},
): Promise<Prepared> {
  const now = options.now ?? new Date();
  const isNew = location === ':memory:' || (!isPostgresUrl(location) && !fs.existsSync(location));
  const db = openDatabase(location);
  await migrateToLatest(db);
  const { count } = await db
    .selectFrom('blog_posts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  const seeded = isNew || Number(count) === 0;
  if (seeded) await seedContent(db, loadContent(contentDir), now);
  if (options.sampleRecalls ?? seeded) await importSampleIfEmpty(db, contentDir, now);
  return { db, seeded };
}

/**
 * A new database's content: the posts, categories and sample discussion, and the sample listings
 * through the marketplace's own way in, so they are screened like any other.
 */
export async function seedContent(db: DB, content: Content, now: Date): Promise<void> {
  await syncContent(db, content, now);
  if (content.items.length > 0) await importListings(db, content.items, now);
}
