import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
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

/** Creates an empty database beside the one `adminUrl` names and returns its URL (DATABASE_URL). */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** True in the PostgreSQL projects; usable where tests are declared (`it.runIf(onPostgres())`). */
export const onPostgres = () => inject('postgresUrl') !== undefined;

let databases = 0;

/**
 * Where a new, empty database for a test lives (what openDatabase takes): a SQLite file in its own
 * temp folder, or, in the PostgreSQL projects (api-pg, e2e-pg), a new database in the run's cluster.
 */
export async function newDatabaseLocation(): Promise<string> {
  const postgresUrl = inject('postgresUrl');
  if (!postgresUrl) return path.join(tempDir(), 'test.db');
  databases += 1;
  return createDatabase(postgresUrl, `test_${process.pid}_${databases}_${Date.now().toString(36)}`);
}

/**
 * A fresh migrated database (SQLite or PostgreSQL, by project); seeded from content/ and released
 * (as of TEST_NOW) unless told not to.
 */
export async function createTestDb(options: { seed?: boolean } = {}): Promise<{ db: DB; location: string }> {
  const location = await newDatabaseLocation();
  const db = openDatabase(location);
  await migrateToLatest(db);
  if (options.seed !== false) {
    await syncContent(db, loadContent(CONTENT_DIR), TEST_NOW);
    await releaseNow(db);
  }
  return { db, location };
}

/**
 * The real Hono app over a fresh seeded database, with the fixed test clock. Dependencies that need
 * the database (rate limiters) come from a function of it. A first comment does
 * not wait for review here unless a test asks for it (tests/api/pre-moderation.test.ts does).
 */
export async function createTestApp(deps: Partial<AppDeps> | ((db: DB) => Partial<AppDeps>) = {}) {
  const { db, location } = await createTestDb();
  const app = createApp({
    db,
    now: () => TEST_NOW,
    safety: { holdFirstComment: false, escalationUrl: null, siteUrl: 'http://nestling.test' },
    mail: TEST_MAIL,
    ...(typeof deps === 'function' ? deps(db) : deps),
  });
  return { app, db, location };
}
