import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type AppDeps, createApp } from '../../api/app.ts';
import { loadContent } from '../../api/db/content.ts';
import { type DB, openDatabase } from '../../api/db/database.ts';
import { migrateToLatest } from '../../api/db/migrate.ts';
import { importSampleIfEmpty } from '../../api/db/queries/recall-imports.ts';
import {
  claimQueuedRelease,
  enqueueRelease,
  snapshotRelease,
  switchLive,
} from '../../api/db/queries/releases.ts';
import { seedContent } from '../../api/db/prepare.ts';
import type { MailSettings } from '../../api/lib/emails.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import type { Started } from './run-shared.ts';

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
 * Creates a database beside the one `adminUrl` names, empty or as a copy of `template` (a database
 * nobody is connected to), and returns its URL (DATABASE_URL).
 */
export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // FILE_COPY rather than the default of PostgreSQL 15 and later, WAL_LOG, which writes every page
    // of the copy to the log: a copy of the seeded template takes about 80 ms less CPU (the cluster
    // skips fsync, so the checkpoint FILE_COPY needs is cheap). Before 15 it was the only way.
    const { rows } = await admin.query<{ server_version_num: string }>('show server_version_num');
    const strategy = Number(rows[0]?.server_version_num) >= 150000 ? ' strategy file_copy' : '';
    const from = template ? ` template ${pg.escapeIdentifier(template)}${strategy}` : '';
    await admin.query(`create database ${pg.escapeIdentifier(name)}${from}`);
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
const newDatabaseName = () => `test_${process.pid}_${(databases += 1)}_${Date.now().toString(36)}`;

/**
 * Where a new, empty database for a test lives (what openDatabase takes): a SQLite file in its own
 * temp folder, or, in the PostgreSQL projects (api-pg, e2e-pg), a new database in the run's cluster.
 */
export async function newDatabaseLocation(): Promise<string> {
  const postgresUrl = inject('postgresUrl');
  if (!postgresUrl) return path.join(tempDir(), 'test.db');
  return createDatabase(postgresUrl, newDatabaseName());
}

/** The run's template databases (SQLite files, or database names in the run's cluster). */
export interface Templates {
  /** Migrated only. */
  empty: string;
  /** Migrated, seeded from content/ (and its sample recall feed) and released, as of TEST_NOW. */
  seeded: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    templates: Templates;
  }
}

/**
 * Makes the run's templates once (tests/helpers/api-setup.ts): migrating and seeding from Markdown
 * costs far more than copying the result, which is all a test then does.
 */
export async function makeTemplates(postgresUrl: string | undefined): Promise<Started<Templates>> {
  const dir = tempDir('nestling-templates-');
  const make = async (name: string, seed: boolean): Promise<string> => {
    const location = postgresUrl
      ? await createDatabase(postgresUrl, `template_${process.pid}_${name}`)
      : path.join(dir, `${name}.db`);
    const db = openDatabase(location);
    await migrateToLatest(db);
    if (seed) {
      await seedContent(db, loadContent(CONTENT_DIR), TEST_NOW);
      await importSampleIfEmpty(db, CONTENT_DIR, TEST_NOW);
      await releaseNow(db);
    }
    // Closed, so a SQLite file is whole (its log folded in) and nobody is connected to a
    // PostgreSQL template, which CREATE DATABASE … TEMPLATE requires.
    await db.destroy();
    return postgresUrl ? new URL(location).pathname.slice(1) : location;
  };
  const templates = { empty: await make('empty', false), seeded: await make('seeded', true) };
  return { value: templates, stop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh migrated database (SQLite or PostgreSQL, by project), a copy of the run's template:
 * seeded from content/ and released (as of TEST_NOW) unless told not to.
 */
export async function createTestDb(options: { seed?: boolean } = {}): Promise<{ db: DB; location: string }> {
  const templates = inject('templates');
  const template = options.seed === false ? templates.empty : templates.seeded;
  const postgresUrl = inject('postgresUrl');
  let location: string;
  if (postgresUrl) {
    location = await createDatabase(postgresUrl, newDatabaseName(), template);
  } else {
    location = path.join(tempDir(), 'test.db');
    fs.copyFileSync(template, location);
  }
  return { db: openDatabase(location), location };
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
