import { DEFAULT_MIGRATION_TABLE, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { DB } from './database.ts';
import * as initial from './migrations/2026-11-22-001-initial.ts';
import * as threadPages from './migrations/2026-11-23-001-thread-pages.ts';
import * as trustAndSafety from './migrations/2026-11-24-001-trust-and-safety.ts';
import * as accountsAndMail from './migrations/2026-11-25-001-accounts-and-mail.ts';
import * as releases from './migrations/2026-11-25-002-releases.ts';
import * as topLevelThreadIndex from './migrations/2026-11-25-003-top-level-thread-index.ts';
import * as rateLimits from './migrations/2026-11-25-004-rate-limits.ts';
import * as postViewDays from './migrations/2026-11-26-001-post-view-days.ts';
import * as revokedSignIns from './migrations/2026-11-27-001-revoked-sign-ins.ts';
import * as releaseItems from './migrations/2026-11-28-001-release-items.ts';
import * as recalls from './migrations/2026-11-29-001-recalls.ts';
import * as studio from './migrations/2026-11-30-001-studio.ts';
import * as publishProgress from './migrations/2026-12-01-001-publish-progress.ts';
import * as listingScreening from './migrations/2026-12-02-001-listing-screening.ts';
import * as favourites from './migrations/2026-12-02-002-favourites.ts';
import * as threadEvents from './migrations/2026-12-02-003-thread-events.ts';
import * as warmPublishers from './migrations/2026-12-03-001-warm-publishers.ts';

// Migrations are listed here rather than read from disk so the same code runs under tsx,
// Vitest and Astro's bundled build.
const migrations: Record<string, Migration> = {
  '2026-11-22-001-initial': initial,
  '2026-11-23-001-thread-pages': threadPages,
  '2026-11-24-001-trust-and-safety': trustAndSafety,
  '2026-11-25-001-accounts-and-mail': accountsAndMail,
  '2026-11-25-002-releases': releases,
  '2026-11-25-003-top-level-thread-index': topLevelThreadIndex,
  '2026-11-25-004-rate-limits': rateLimits,
  '2026-11-26-001-post-view-days': postViewDays,
  '2026-11-27-001-revoked-sign-ins': revokedSignIns,
  '2026-11-28-001-release-items': releaseItems,
  '2026-11-29-001-recalls': recalls,
  '2026-11-30-001-studio': studio,
  '2026-12-01-001-publish-progress': publishProgress,
  '2026-12-02-001-listing-screening': listingScreening,
  '2026-12-02-002-favourites': favourites,
  '2026-12-02-003-thread-events': threadEvents,
  '2026-12-03-001-warm-publishers': warmPublishers,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Migrations renamed after databases had run them under their old names (three once shared one
 * prefix); the names run in the same order as before. A database that recorded an old name has it
 * renamed before migrating, or the migrator would find that migration missing.
 */
export const RENAMED_MIGRATIONS: Readonly<Record<string, string>> = {
  '2026-11-25-001-releases': '2026-11-25-002-releases',
  '2026-11-25-001-top-level-thread-index': '2026-11-25-003-top-level-thread-index',
  '2026-11-25-002-rate-limits': '2026-11-25-004-rate-limits',
};

async function renameRecordedMigrations(db: DB): Promise<void> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === DEFAULT_MIGRATION_TABLE)) return;
  await db.transaction().execute(async (trx) => {
    for (const [from, to] of Object.entries(RENAMED_MIGRATIONS)) {
      await sql`update ${sql.table(DEFAULT_MIGRATION_TABLE)} set name = ${to} where name = ${from}`.execute(
        trx,
      );
    }
  });
}

/** Brings the database to the latest schema; throws with the failing migration's name. */
export async function migrateToLatest(db: DB): Promise<string[]> {
  await renameRecordedMigrations(db);
  const migrator = new Migrator({ db, provider });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((r) => r.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Migration failed${name}: ${String(error)}`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
