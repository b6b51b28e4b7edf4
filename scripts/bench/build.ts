// npm run bench:build — build time and peak memory for 1,000 and 5,000 generated posts.
import fs from 'node:fs';
import path from 'node:path';
import { loadContent } from '../../api/db/content.ts';
import { openDatabase } from '../../api/db/database.ts';
import { migrateToLatest } from '../../api/db/migrate.ts';
import { seedContent } from '../../api/db/prepare.ts';
import { generateContent } from './generate-posts.ts';
import { machine, mib, runMeasured, SQLITE_ONLY } from './lib.ts';
import { tempDir } from '../lib/temp.ts';

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
console.log(`bench:build on ${machine()}, ${new Date().toISOString()}`);
for (const count of sizes.length ? sizes : [1000, 5000]) {
  const dir = tempDir('nestling-bench-build-');
  try {
    const content = path.join(dir, 'content');
    generateContent('content', content, count);
    const dbFile = path.join(dir, 'bench.db');
    const db = openDatabase(dbFile);
    await migrateToLatest(db);
    const syncStarted = Date.now();
    await seedContent(db, loadContent(content), new Date());
    const syncMs = Date.now() - syncStarted;
    await db.destroy();

    const result = await runMeasured(process.execPath, ['--import', 'tsx', 'scripts/publish.ts'], {
      ...process.env,
      ...SQLITE_ONLY,
      DATABASE_PATH: dbFile,
      CONTENT_DIR: content,
      SITE_DIR: path.join(dir, 'site'),
    });
    if (result.code !== 0) throw new Error(`build of ${count} posts failed (exit ${result.code})`);
    const pages = fs
      .readdirSync(path.join(dir, 'site'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.html')).length;
    console.log(
      `${count} posts: sync ${(syncMs / 1000).toFixed(1)} s; build ${(result.ms / 1000).toFixed(1)} s ` +
        `(${pages} pages), peak memory ${mib(result.peakBytes)}`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
