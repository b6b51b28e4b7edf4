// Vitest globalSetup for the PostgreSQL projects (api-pg, e2e-pg): one throwaway cluster for the
// run, from Debian's initdb and pg_ctl (found or apt-installed by system-deps.ts), with its data and
// socket folders in a fresh temporary folder and a free port on 127.0.0.1; every test database is a
// new database in it (tests/helpers/test-db.ts). PostgreSQL refuses to run as root, so as root the
// server runs as the `postgres` system user (created when missing). The cluster is stopped and
// removed when the run ends; one left behind by a run that was killed is stopped and removed by the
// next run, and one whose run is still going is left alone.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './ports.ts';
import { findOrInstall, postgresqlBinary, SystemDependencyError } from './system-deps.ts';

const PREFIX = 'nestling-pg-';
const OWNER_FILE = 'owner.pid';
const SUPERUSER = 'nestling';
/** The unprivileged account the server runs as when the tests run as root. */
const SERVER_ACCOUNT = 'postgres';

export interface Cluster {
  /** The cluster's maintenance database, from which test databases are created. */
  adminUrl: string;
  stop: () => Promise<void>;
}

const asRoot = () => process.getuid?.() === 0;

function run(command: string, args: string[], options: { as?: string } = {}): Promise<string> {
  const [file, argv] = options.as ? ['runuser', ['-u', options.as, '--', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`)),
    );
  });
}

/** As root, the system account the server runs as (created once, reused after). */
async function serverAccount(): Promise<string | undefined> {
  if (!asRoot()) return undefined;
  try {
    await run('id', ['-u', SERVER_ACCOUNT]);
  } catch {
    await run('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', SERVER_ACCOUNT]);
  }
  return SERVER_ACCOUNT;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but is not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Stops and removes the clusters of earlier runs that died without cleaning up. */
async function removeLeftovers(pgCtl: string, account: string | undefined): Promise<void> {
  const tmp = os.tmpdir();
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = path.join(tmp, name);
    let owner: number;
    try {
      owner = Number(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8'));
    } catch {
      continue; // not (yet) one of ours
    }
    if (!Number.isInteger(owner) || alive(owner)) continue;
    if (fs.existsSync(path.join(dir, 'data', 'postmaster.pid'))) {
      // It may have stopped already.
      await run(pgCtl, ['stop', '-D', path.join(dir, 'data'), '-m', 'immediate'], { as: account }).catch(
        () => undefined,
      );
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function startCluster(): Promise<Cluster> {
  let initdb: string, pgCtl: string;
  try {
    initdb = await findOrInstall(postgresqlBinary('initdb'));
    pgCtl = await findOrInstall(postgresqlBinary('pg_ctl'));
  } catch (error) {
    if (!(error instanceof SystemDependencyError)) throw error;
    throw Object.assign(new Error(error.message), { stack: error.message });
  }
  const account = await serverAccount();
  await removeLeftovers(pgCtl, account);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), PREFIX));
  fs.writeFileSync(path.join(dir, OWNER_FILE), String(process.pid));
  const data = path.join(dir, 'data');
  if (account) await run('chown', ['-R', account, dir]);
  const stopServer = () =>
    run(pgCtl, ['stop', '-D', data, '-m', 'immediate', '-w'], { as: account }).catch(() => undefined);
  const stop = async () => {
    if (fs.existsSync(path.join(data, 'postmaster.pid'))) await stopServer();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    // C locale: text sorts by bytes, as in SQLite. No fsync: nothing here has to survive a crash.
    const initOptions = ['-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'];
    await run(initdb, ['-D', data, ...initOptions], { as: account });
    const port = await freePort();
    const settings = [
      `port=${port}`,
      'listen_addresses=127.0.0.1',
      `unix_socket_directories=${dir}`,
      'fsync=off',
      'synchronous_commit=off',
      'full_page_writes=off',
      // Every test database has a pool of its own, and test files run side by side.
      'max_connections=400',
    ];
    const options = settings.map((s) => `-c ${s}`).join(' ');
    const log = path.join(dir, 'server.log');
    await run(pgCtl, ['start', '-D', data, '-l', log, '-w', '-t', '60', '-o', options], { as: account });
    return { adminUrl: `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Only in the PostgreSQL projects: the cluster's maintenance database (tests/helpers/test-db.ts). */
    postgresUrl?: string;
  }
}

export default async function setup(project: TestProject) {
  const cluster = await startCluster();
  project.provide('postgresUrl', cluster.adminUrl);
  return cluster.stop;
}
