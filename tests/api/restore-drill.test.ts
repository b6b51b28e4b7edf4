// The restore drill (README, "Backups"): parents write, `npm run db:backup` runs while they go on
// writing, more is written, and `npm run db:restore` puts the backup into a new database. The copy
// has everything written before the backup began, a consistent cut of what came during it, nothing
// from after, and the same content everywhere else; a restore over a database in use is refused.
// On SQLite (VACUUM INTO) and, in api-pg, on PostgreSQL (pg_dump and pg_restore).
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BackupError, restoreDatabase } from '../../api/db/backup.ts';
import { type DB, openDatabase } from '../../api/db/database.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { databaseEnv, runScript } from '../helpers/run-script.ts';
import { createTestDb, onPostgres } from '../helpers/test-db.ts';

/** Tables whose rows the drill compares whole, beside the comments it writes. */
const TABLES = ['blog_posts', 'blog_categories', 'post_categories', 'items', 'release_posts', 'site_state'];

async function comments(db: DB, tag: string): Promise<string[]> {
  const rows = await db
    .selectFrom('comments')
    .select('content')
    .where('content', 'like', `${tag} %`)
    .orderBy('comment_id')
    .execute();
  return rows.map((row) => row.content);
}

describe('the restore drill', () => {
  it('restores what was written before the backup, a consistent cut of what came during it, and nothing after', async () => {
    const { db, location } = await createTestDb();
    const { post_id } = await db.selectFrom('blog_posts').select('post_id').executeTakeFirstOrThrow();
    const write = (content: string) =>
      db
        .insertInto('comments')
        .values({
          post_id,
          parent_comment_id: null,
          author_uid: null,
          author_name: 'Drill Parent',
          author_avatar_url: null,
          content,
          created_at: new Date().toISOString(),
          seed_key: null,
        })
        .execute();
    try {
      for (let i = 0; i < 20; i += 1) await write(`before ${i}`);
      // A parent goes on commenting while the backup is taken.
      let writing = true;
      let during = 0;
      const writer = (async () => {
        while (writing) {
          await write(`during ${during}`);
          during += 1;
          // A parent's pace, not a flood: the drill is about what the copy holds.
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const file = path.join(tempDir(), onPostgres() ? 'drill.dump' : 'drill.db');
      const backup = await runScript('scripts/db-backup.ts', [file], databaseEnv(location));
      writing = false;
      await writer;
      expect(backup.code, backup.output).toBe(0);
      for (let i = 0; i < 20; i += 1) await write(`after ${i}`);

      // Into a new database: a new file, or a new database beside the live one (made by the restore).
      const target = onPostgres()
        ? Object.assign(new URL(location), { pathname: `/${new URL(location).pathname.slice(1)}_restored` })
            .href
        : path.join(tempDir(), 'restored.db');
      const restore = await runScript('scripts/db-restore.ts', [file], databaseEnv(target));
      expect(restore.code, restore.output).toBe(0);

      const restored = openDatabase(target);
      try {
        expect(await comments(restored, 'before')).toEqual(await comments(db, 'before'));
        expect(await comments(restored, 'after')).toEqual([]);
        // One snapshot: the comments written during the backup that it has are the first k of them.
        const cut = await comments(restored, 'during');
        expect(cut).toEqual((await comments(db, 'during')).slice(0, cut.length));
        for (const table of TABLES) {
          const original = (await sql`select * from ${sql.table(table)} order by 1, 2`.execute(db)).rows;
          const copy = (await sql`select * from ${sql.table(table)} order by 1, 2`.execute(restored)).rows;
          expect(copy, table).toEqual(original);
        }
        if (!onPostgres()) {
          const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(restored);
          expect(rows[0]!.integrity_check).toBe('ok');
        }
        console.log(
          `restore drill: ${20 + during + 20} comments written, ${during} during the backup, ` +
            `${20 + cut.length} in the backup, 0 acknowledged before it lost`,
        );
      } finally {
        await restored.destroy();
      }

      // Over the database in use: refused, and nothing changes (what the script prints, in one line).
      const refused = await restoreDatabase(file, location).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(BackupError);
      expect((refused as BackupError).message).toContain('already holds a database');
      expect(await comments(db, 'after')).toHaveLength(20);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
