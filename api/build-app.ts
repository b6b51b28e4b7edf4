// The app a site build renders from: the same Hono app the server runs, over the database the
// server uses (DATABASE_URL for PostgreSQL when set, else DATABASE_PATH), answering from the
// release being built. src/lib/server-api.ts calls it through the typed client; src/ never opens
// the database itself. It is src/'s one entry into the server's code, so it also hands the build
// the sanitizer stored post bodies went through, which the build applies again before rendering.
import path from 'node:path';
import { type AppType, createApp } from './app.ts';
import { type DB, databaseLocation } from './db/database.ts';
import { prepareDatabase } from './db/prepare.ts';
import { parseEnv } from './env.ts';
import { fixedReleaseSource } from './lib/live-release.ts';

export { sanitizeHtml } from './lib/html.ts';

const databases = new Map<string, Promise<DB>>();

/**
 * The publisher names the release being built (NESTLING_RELEASE_ID): pages render its posts while
 * the live API still answers from the live one, and both switch together. Without it (`astro dev`)
 * pages show the live release.
 */
export async function createBuildApp(env: NodeJS.ProcessEnv = process.env): Promise<AppType> {
  const candidate = env.NESTLING_RELEASE_ID;
  const location = databaseLocation(parseEnv(env));
  // One connection per database for the process, however many releases it builds.
  let prepared = databases.get(location);
  if (!prepared) {
    prepared = prepareDatabase(location, path.resolve(env.CONTENT_DIR || 'content')).then(({ db }) => db);
    databases.set(location, prepared);
    prepared.catch(() => databases.delete(location));
  }
  const db = await prepared;
  return createApp({ db, ...(candidate ? { release: fixedReleaseSource(db, Number(candidate)) } : {}) });
}
