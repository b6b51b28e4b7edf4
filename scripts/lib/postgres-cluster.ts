// A throwaway PostgreSQL cluster for tests and benchmarks, from Debian's initdb and pg_ctl (found or
// apt-installed by system-deps.ts), with its data and socket folders in a fresh temporary folder and
// a free port on 127.0.0.1. PostgreSQL refuses to run as root, so as root the server runs as the
// `postgres` system user (created when missing). stop() stops and removes it; one left behind by a
// process that was killed is stopped and removed by the next start, and one whose process is still
// running is left alone.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports.ts';
import { isAlive } from './processes.ts';
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
  /**
   * Shuts the server down as an administrator's restart does (`pg_ctl stop -m fast`: connections
   * are ended with 57P01), keeping its data; start() brings it back on the same port.
   */
  halt: () => Promise<void>;
  start: () => Promise<void>;
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
    if (!Number.isInteger(owner) || isAlive(owner)) continue;
    if (fs.existsSync(path.join(dir, 'data', 'postmaster.pid'))) {
      await run(pgCtl, ['stop', '-D', path.join(dir, 'data'), '-m', 'immediate', '-w'], {
        as: account,
      }).catch(
        () => undefined, // already stopped
      );
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts a throwaway cluster. Tests skip fsync (nothing has to survive a crash); `durable` keeps
 * PostgreSQL's defaults, for benchmarks compared with SQLite's synchronous=FULL.
 */
export async function startCluster(how: { durable?: boolean } = {}): Promise<Cluster> {
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
    // C locale: text sorts by bytes, as in SQLite.
    await run(
      initdb,
      ['-D', data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
      {
        as: account,
      },
    );
    const port = await freePort();
    const settings = [
      `port=${port}`,
      'listen_addresses=127.0.0.1',
      `unix_socket_directories=${dir}`,
      ...(how.durable ? [] : ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off']),
      // Every test database has a pool of its own, and test files run side by side.
      'max_connections=400',
    ];
    const options = settings.map((s) => `-c ${s}`).join(' ');
    const start = async () => {
      await run(
        pgCtl,
        ['start', '-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', '-o', options],
        { as: account },
      );
    };
    await start();
    const halt = async () => {
      await run(pgCtl, ['stop', '-D', data, '-m', 'fast', '-w'], { as: account });
    };
    return { adminUrl: `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`, stop, halt, start };
  } catch (error) {
    await stop();
    throw error;
  }
}
