import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { isPostgresUrl } from './dialect.ts';
import { pgDriver } from './pg.ts';

/** Why there is no copy, or no restore: said to the admin in one line. */
export class BackupError extends Error {}

/** What a backup file holds, from its first bytes. */
export type BackupKind = 'sqlite' | 'pg_dump';

/**
 * A consistent online copy of the database, safe while the server is writing: `VACUUM INTO` for a
 * SQLite file (unlike copying the file, it never catches a write half done), and pg_dump's
 * custom format for PostgreSQL (one snapshot of the whole database). Returns what was written.
 */
export async function backupDatabase(
  location: string,
  destFile: string,
): Promise<{ kind: BackupKind; pages?: number }> {
  fs.mkdirSync(path.dirname(path.resolve(destFile)), { recursive: true });
  if (isPostgresUrl(location)) {
    // Written beside its name and renamed when whole, so a failed dump never looks like a backup.
    const partial = `${destFile}.partial`;
    try {
      await runTool('pg_dump', [
        '--format=custom',
        '--no-owner',
        `--file=${partial}`,
        `--dbname=${location}`,
      ]);
      fs.renameSync(partial, destFile);
    } finally {
      fs.rmSync(partial, { force: true });
    }
    return { kind: 'pg_dump' };
  }
  // VACUUM INTO reads one snapshot (a read transaction, which never blocks the server's writers in
  // WAL mode) and writes it compacted. SQLite's backup API would start again after every write by
  // another process, so under a steady stream of writes it might never finish.
  const partial = `${destFile}.partial`;
  fs.rmSync(partial, { force: true });
  const source = new SQLite(location, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    source.prepare('vacuum into ?').run(partial);
  } finally {
    source.close();
  }
  fs.renameSync(partial, destFile);
  const copy = new SQLite(destFile, { readonly: true });
  try {
    return { kind: 'sqlite', pages: Number(copy.pragma('page_count', { simple: true })) };
  } finally {
    copy.close();
  }
}

/** A backup file's kind, or a BackupError when it is neither. */
export function backupKind(file: string): BackupKind {
  if (!fs.existsSync(file)) throw new BackupError(`There is no backup at ${file}.`);
  const head = Buffer.alloc(16);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head.toString('latin1') === 'SQLite format 3\0') return 'sqlite';
  if (head.subarray(0, 5).toString('latin1') === 'PGDMP') return 'pg_dump';
  throw new BackupError(`${file} is neither a SQLite backup nor a pg_dump file.`);
}

/**
 * Restores `file` (a db:backup) into the database at `location`: a SQLite path, or a PostgreSQL
 * database (created when missing). A database that already holds Nestling's tables is refused
 * unless `replace` is set: a restore must never overwrite the live database by mistake. A replaced
 * SQLite file is kept beside it (`<file>.before-restore-<time>`).
 */
export async function restoreDatabase(
  file: string,
  location: string,
  options: { replace?: boolean; now?: Date } = {},
): Promise<{ replaced: boolean; kept?: string }> {
  const kind = backupKind(file);
  if (isPostgresUrl(location)) {
    if (kind !== 'pg_dump')
      throw new BackupError(`${file} is a SQLite backup; DATABASE_URL names PostgreSQL.`);
    await createDatabaseIfMissing(location);
    const used = await postgresHasTables(location);
    if (used && !options.replace) throw new BackupError(refusal(location.replace(/:[^:@/]*@/, ':***@')));
    await runTool('pg_restore', [
      '--no-owner',
      '--exit-on-error',
      '--single-transaction',
      ...(used ? ['--clean', '--if-exists'] : []),
      `--dbname=${location}`,
      file,
    ]);
    return { replaced: used };
  }
  if (kind !== 'sqlite') throw new BackupError(`${file} is a pg_dump file; set DATABASE_URL to restore it.`);
  const check = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const result = check.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new BackupError(`${file} fails SQLite's integrity check (${String(result)}).`);
  } finally {
    check.close();
  }
  const target = path.resolve(location);
  const used = fs.existsSync(target) && fs.statSync(target).size > 0;
  if (used && !options.replace) throw new BackupError(refusal(target));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // Copied beside the target, then renamed over it: the target is the old file or the whole copy.
  const staged = `${target}.restoring`;
  fs.copyFileSync(file, staged);
  let kept: string | undefined;
  if (used) {
    kept = `${target}.before-restore-${(options.now ?? new Date()).toISOString().replace(/[:.]/g, '-')}`;
    // Through the backup API, so what its write-ahead log holds is kept too.
    const old = new SQLite(target, { fileMustExist: true });
    try {
      await old.backup(kept);
    } finally {
      old.close();
    }
  }
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${target}${suffix}`, { force: true });
  fs.renameSync(staged, target);
  return { replaced: used, kept };
}

function refusal(where: string): string {
  return (
    `${where} already holds a database. Restore into a new one (set DATABASE_PATH or DATABASE_URL to ` +
    'a new name), or stop every server using it and add --replace to overwrite it.'
  );
}

async function createDatabaseIfMissing(url: string): Promise<void> {
  const pg = pgDriver();
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: maintenance.href });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
}

async function postgresHasTables(url: string): Promise<boolean> {
  const client = new (pgDriver().Client)({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "select count(*) as n from information_schema.tables where table_schema = 'public'",
    );
    return Number(rows[0]!.n) > 0;
  } finally {
    await client.end();
  }
}

/** PostgreSQL's client tools: on PATH, else Debian's /usr/lib/postgresql/<version>/bin (newest first). */
export function findPostgresTool(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  const lib = '/usr/lib/postgresql';
  const versions = fs.existsSync(lib) ? fs.readdirSync(lib) : [];
  versions.sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
  for (const version of versions) {
    const candidate = path.join(lib, version, 'bin', name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

function runTool(name: string, args: string[]): Promise<void> {
  const tool = findPostgresTool(name);
  if (!tool) {
    throw new BackupError(
      `${name} was not found (on PATH or in /usr/lib/postgresql/*/bin): install PostgreSQL's client ` +
        "tools (Debian: apt-get install postgresql-client), of the server's version or newer.",
    );
  }
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: os.tmpdir() });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${name} failed (exit ${code}): ${errors.trim()}`)),
    );
  });
}
