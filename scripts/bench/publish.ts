// npm run bench:publish — 1,000 generated posts; the time from publish to live and peak memory.
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../api/db/database.ts';
import { migrateToLatest } from '../../api/db/migrate.ts';
import { buildSite } from '../lib/build.ts';
import { createPublisher } from '../lib/publisher.ts';
import { generateContent } from './generate-posts.ts';
import { machine, mib, SQLITE_ONLY, trackPeakMemory } from './lib.ts';
import { tempDir } from '../lib/temp.ts';

const count = Number(process.argv[2] ?? 1000);
console.log(`bench:publish on ${machine()}, ${new Date().toISOString()}`);
const dir = tempDir('nestling-bench-publish-');
try {
  const content = path.join(dir, 'content');
  generateContent('content', content, count);
  const dbFile = path.join(dir, 'bench.db');
  const siteDir = path.join(dir, 'site');
  const db = openDatabase(dbFile);
  await migrateToLatest(db);
  const buildEnv = { ...process.env, ...SQLITE_ONLY, DATABASE_PATH: dbFile };
  let peak = 0;
  // The real build, with the peak memory of the build process tree recorded.
  const measuredBuild = async (site: string, env: NodeJS.ProcessEnv) => {
    const stop = trackPeakMemory(process.pid);
    try {
      return await buildSite(site, env);
    } finally {
      peak = Math.max(peak, stop());
    }
  };
  const publisher = createPublisher({
    db,
    contentDir: content,
    siteDir,
    buildEnv,
    build: measuredBuild,
    log: () => {},
  });

  const initialStarted = Date.now();
  await publisher.finished((await publisher.request('initial')).id);
  console.log(`initial publish of ${count} posts: ${((Date.now() - initialStarted) / 1000).toFixed(1)} s`);

  // An editor adds one post and publishes: how long until it is served?
  const slug = 'bench-new-post';
  fs.writeFileSync(
    path.join(content, 'posts', `${slug}.md`),
    `---\ntitle: "A new post"\nslug: ${slug}\nexcerpt: "New."\nauthor: "Editor"\npublishedAt: ${new Date(Date.now() - 60_000).toISOString()}\ncategories: [seasonal]\n---\n\nFresh news for parents.\n`,
  );
  peak = 0;
  const started = Date.now();
  const run = await publisher.finished((await publisher.request('bench')).id);
  const live = fs.existsSync(path.join(siteDir, String(run.id), 'blog', slug, 'index.html'));
  console.log(
    `publish to live with ${count + 1} posts: ${((Date.now() - started) / 1000).toFixed(1)} s ` +
      `(${run.state}${live ? ', page served' : ', PAGE MISSING'}), build peak memory ${mib(peak)}`,
  );
  await db.destroy();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
