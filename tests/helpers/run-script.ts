import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** How a script is told which database to use: DATABASE_URL for PostgreSQL, else DATABASE_PATH. */
export function databaseEnv(location: string): Record<string, string> {
  return /^postgres(ql)?:/.test(location)
    ? { DATABASE_URL: location }
    : { DATABASE_PATH: location, DATABASE_URL: '' };
}

/**
 * Runs one of the project's scripts (`scripts/<name>.ts`, as `npm run` does) as a child process with
 * `env` over this process's, and resolves with its exit code and everything it printed.
 */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    // 'close', not 'exit': a process can have exited before what it printed has all been read
    // (two exports at once on Node 24 in CI: an empty output).
    child.once('close', (code) => resolve({ code, output }));
  });
}
