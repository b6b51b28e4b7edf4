import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { backupDatabase } from '../../api/db/backup.ts';
import { openDatabase } from '../../api/db/database.ts';
import { createTestDb, onPostgres } from '../helpers/test-db.ts';
import { tempDir } from '../../scripts/lib/temp.ts';

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
});
