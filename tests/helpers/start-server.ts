import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describeDatabase, openDatabase } from '../../api/db/database.ts';
import { prepareDatabase } from '../../api/db/prepare.ts';
import { liveRelease } from '../../api/db/queries/releases.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { CONTENT_DIR, releaseNow } from './test-db.ts';

export interface StartedServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM, then SIGKILL if it has not exited within 10 s. */
  stop: () => Promise<void>;
  /** The folder of the site it serves now (its live release's). */
  liveFolder: () => Promise<string>;
}

/** The live release folders of the run's two site builds (tests/helpers/e2e-setup.ts). */
export interface BuiltSites {
  demo: string;
  auth: string;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Runs the real `npm start` entry (scripts/start.ts) as a child process with its own database and
 * site folder, and resolves once it prints its URL. PORT=0 lets the OS pick a free port, so a
 * leftover server from an earlier run can never collide with this one. The database is the
 * DATABASE_PATH given unless a DATABASE_URL is: an empty one counts as unset, so a DATABASE_URL in
 * a developer's .env never reaches a test server.
 */
export function startServer(env: Record<string, string>, timeoutMs = 240_000): Promise<StartedServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', NODE_ENV: 'production', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const location = env.DATABASE_URL || env.DATABASE_PATH || path.join(ROOT, 'data', 'nestling.db');
  const liveFolder = async () => {
    const db = openDatabase(location);
    try {
      const live = await liveRelease(db);
      if (!live) throw new Error(`${describeDatabase(location)} has no live release`);
      return path.join(path.resolve(ROOT, env.SITE_DIR ?? 'dist'), live.folder);
    } finally {
      await db.destroy();
    }
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Nestling is running at (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      // It must have used the database it was given, never a default or a developer's .env.
      const expected = `Preparing the database: ${describeDatabase(location)} `;
      if (!output.includes(expected)) {
        void stop();
        return reject(new Error(`A test server did not say "${expected}":\n${output}`));
      }
      resolve({ url: match[1]!, child, output: () => output, stop, liveFolder });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code} before it started:\n${output}`));
    });
  });
}

/**
 * `npm start` over a new database (env's DATABASE_URL, else a SQLite file of its own), seeded from
 * CONTENT_DIR (env's, else content/) and released as a fresh server would be, serving a copy of
 * `builtFolder`: a live release folder built from the same content with the same site settings.
 * The server then starts without building, as after a publish.
 */
export async function startFromBuild(
  builtFolder: string,
  env: Record<string, string>,
): Promise<StartedServer> {
  const dir = tempDir('nestling-server-');
  const location = env.DATABASE_URL || env.DATABASE_PATH || path.join(dir, 'nestling.db');
  const database: Record<string, string> = env.DATABASE_URL ? {} : { DATABASE_PATH: location };
  const siteDir = env.SITE_DIR ?? path.join(dir, 'site');
  const { db } = await prepareDatabase(location, env.CONTENT_DIR ?? CONTENT_DIR);
  try {
    await releaseNow(db, new Date());
    fs.cpSync(builtFolder, path.join(siteDir, (await liveRelease(db))!.folder), { recursive: true });
  } finally {
    await db.destroy();
  }
  return startServer({ ...database, SITE_DIR: siteDir, ...env });
}
