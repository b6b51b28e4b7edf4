import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BackupError, backupDatabase } from '../../api/db/backup.ts';
import { openDatabase } from '../../api/db/database.ts';
import { createTestDb, onPostgres } from '../helpers/test-db.ts';
import { tempDir } from '../../scripts/lib/temp.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TABLES = [
  'items',
  'blog_categories',
  'blog_posts',
  'post_categories',
  'comments',
  'comment_likes',
  'post_likes',
];

describe('db:backup', () => {
  it.skipIf(onPostgres())(
    'writes a copy that restores every row, even while the source is open and written to',
    async () => {
      const { db, location } = await createTestDb();
      await db.insertInto('post_view_days').values({ post_id: 1, day: '2026-11-23', views: 4 }).execute();
      const dest = path.join(tempDir(), 'backup.db');
      const { pages } = await backupDatabase(location, dest);
      expect(pages).toBeGreaterThan(0);

      // Restoring is opening the copy in place of the original.
      const restored = openDatabase(dest);
      for (const table of [...TABLES, 'post_view_days']) {
        const original = (await sql`select * from ${sql.table(table)} order by 1, 2`.execute(db)).rows;
        const copy = (await sql`select * from ${sql.table(table)} order by 1, 2`.execute(restored)).rows;
        expect(copy, table).toEqual(original);
        expect(original.length, table).toBeGreaterThan(0);
      }
      await restored.destroy();
      await db.destroy();
    },
  );

  it.runIf(onPostgres())('points to pg_dump on PostgreSQL, and writes nothing', async () => {
    const { db, location } = await createTestDb({ seed: false });
    await db.destroy();
    const dest = path.join(tempDir(), 'backup.db');
    await expect(backupDatabase(location, dest)).rejects.toThrow(BackupError);
    // The script says so in one line and fails, so a scheduled backup does not pass unnoticed.
    const script = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/db-backup.ts', dest], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: location },
      encoding: 'utf8',
    });
    expect(script.status).toBe(1);
    expect(script.stderr).toMatch(/^DATABASE_URL names a PostgreSQL server.*pg_dump --format=custom/);
    expect(fs.existsSync(dest)).toBe(false);
  });
});
