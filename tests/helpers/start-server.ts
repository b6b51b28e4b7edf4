import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export interface StartedServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM, then SIGKILL if it has not exited within 10 s. */
  stop: () => Promise<void>;
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
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, child, output: () => output, stop });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code} before it started:\n${output}`));
    });
  });
}
