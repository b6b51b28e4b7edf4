import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()}`;
}

/** Peak resident memory of a process and its children, sampled from /proc every 100 ms. */
export function trackPeakMemory(pid: number): () => number {
  let peak = 0;
  const descendants = (root: number): number[] => {
    const all = [root];
    try {
      for (const entry of fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (all.includes(ppid)) all.push(Number(entry));
      }
    } catch {
      // processes come and go while we look
    }
    return all;
  };
  const sample = () => {
    let total = 0;
    for (const p of descendants(pid)) {
      try {
        const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
        total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      } catch {
        // gone
      }
    }
    peak = Math.max(peak, total);
  };
  const timer = setInterval(sample, 100);
  sample();
  return () => {
    clearInterval(timer);
    return peak;
  };
}

export function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(0)} MiB`;
}

/** Runs a command, resolving with its exit code and the peak memory of its process tree. */
export function runMeasured(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; peakBytes: number; ms: number }> {
  const started = Date.now();
  const child: ChildProcess = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const stop = trackPeakMemory(child.pid!);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, peakBytes: stop(), ms: Date.now() - started }));
  });
}

/**
 * The benches measure the embedded SQLite default: a DATABASE_URL in .env or the environment must
 * not send their servers and builds to a PostgreSQL server (empty counts as unset, and dotenv
 * leaves a variable that is already set alone).
 */
export const SQLITE_ONLY = { DATABASE_URL: '' };
