// npm start — migrate, seed a new database, build the site if needed, serve site and API.
import path from 'node:path';
import { prepareDatabase } from '../api/db/prepare.ts';
import { startServer } from '../api/server.ts';
import { needsBuild, precompress, runAstroBuild } from './lib/build.ts';
import { loadEnv } from './lib/env.ts';

const env = loadEnv();
const distDir = path.resolve(env.SITE_DIR);

console.log(`Preparing the database at ${env.DATABASE_PATH} …`);
const { db, seeded } = await prepareDatabase(env.DATABASE_PATH, 'content');
if (seeded) console.log('Seeded a new database from content/.');

if (seeded || needsBuild(distDir)) {
  console.log('Building the site (this takes a little while on a fresh clone) …');
  const started = Date.now();
  await runAstroBuild(distDir, { ...process.env, DATABASE_PATH: env.DATABASE_PATH });
  await precompress(distDir);
  console.log(`Built the site in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

const server = await startServer({ db, distDir: () => distDir, host: env.HOST, port: env.PORT });
console.log(`Nestling is running at ${server.url}`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}; finishing in-flight requests …`);
    void server.close().then(() => process.exit(0));
  });
}
