import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AppDeps, createApp } from '../../api/app.ts';
import { loadContent } from '../../api/db/content.ts';
import { type DB, openDatabase } from '../../api/db/database.ts';
import { migrateToLatest } from '../../api/db/migrate.ts';
import {
  claimQueuedRelease,
  enqueueRelease,
  snapshotRelease,
  switchLive,
} from '../../api/db/queries/releases.ts';
import { syncContent } from '../../api/db/sync.ts';
import type { MailSettings } from '../../api/lib/emails.ts';

export const CONTENT_DIR = path.resolve(import.meta.dirname, '../../content');
/** A fixed "now" after every seeded post, so results never depend on the day the tests run. */
export const TEST_NOW = new Date('2026-11-22T12:00:00Z');
/** What the test app's emails say about the site: links go to http://nestling.test. */
export const TEST_MAIL: MailSettings = {
  siteName: 'Nestling',
  siteUrl: 'http://nestling.test',
  privacyEmail: 'privacy@nestling.test',
  transport: 'outbox',
};

const created: string[] = [];
process.once('exit', () => {
  for (const dir of created) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new folder under the OS temp dir, removed when the test process exits. */
export function tempDir(prefix = 'nestling-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/**
 * Makes what the database holds now the live release, as the publisher does but without building
 * pages (API tests read only the API). Returns the release's id.
 */
export async function releaseNow(db: DB, now = TEST_NOW): Promise<number> {
  const { id } = await enqueueRelease(db, 'test', now);
  await claimQueuedRelease(db, 'test', now);
  await snapshotRelease(db, id, now);
  await db.transaction().execute((trx) => switchLive(trx, id, now));
  return id;
}

/**
 * A fresh migrated SQLite file in its own temp folder; seeded from content/ and released (as of
 * TEST_NOW) unless told not to.
 */
export async function createTestDb(options: { seed?: boolean } = {}): Promise<{ db: DB; file: string }> {
  const file = path.join(tempDir(), 'test.db');
  const db = openDatabase(file);
  await migrateToLatest(db);
  if (options.seed !== false) {
    await syncContent(db, loadContent(CONTENT_DIR), TEST_NOW);
    await releaseNow(db);
  }
  return { db, file };
}

/**
 * The real Hono app over a fresh seeded database, with the fixed test clock. A first comment does
 * not wait for review here unless a test asks for it (tests/api/pre-moderation.test.ts does).
 */
export async function createTestApp(deps: Partial<AppDeps> = {}) {
  const { db, file } = await createTestDb();
  const app = createApp({
    db,
    now: () => TEST_NOW,
    safety: { holdFirstComment: false, escalationUrl: null, siteUrl: 'http://nestling.test' },
    mail: TEST_MAIL,
    ...deps,
  });
  return { app, db, file };
}
