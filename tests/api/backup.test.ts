import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { backupDatabase } from '../../api/db/backup.ts';
import { openDatabase } from '../../api/db/database.ts';
import { createTestDb, tempDir } from '../helpers/test-db.ts';

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
  it('writes a copy that restores every row, even while the source is open and written to', async () => {
    const { db, file } = await createTestDb();
    await db.insertInto('post_views').values({ post_id: 1, viewed_at: new Date().toISOString() }).execute();
    const dest = path.join(tempDir(), 'backup.db');
    const { pages } = await backupDatabase(file, dest);
    expect(pages).toBeGreaterThan(0);

    // Restoring is opening the copy in place of the original.
    const restored = openDatabase(dest);
    for (const table of [...TABLES, 'post_views']) {
      const original = (await sql`select * from ${sql.table(table)} order by 1, 2`.execute(db)).rows;
      const copy = (await sql`select * from ${sql.table(table)} order by 1, 2`.execute(restored)).rows;
      expect(copy, table).toEqual(original);
      if (table !== 'post_views') expect(original.length, table).toBeGreaterThan(0);
    }
    await restored.destroy();
    await db.destroy();
  });
});
