// Publishes build in a worker thread of their own (docs/decisions/029-publishing-off-the-serving-thread.md):
// the server and the publisher share a process (npm start), and a build's synchronous file work
// held the event loop that answers readers for up to 0.4 s at 1,000 posts (npm run bench:publish).
// The thread keeps the warm renderer (docs/decisions/020) between publishes, and is started on the
// first publish; an idle thread does not keep the process alive.
import type { Worker } from 'node:worker_threads';
import type { PublishProgress } from '../../api/contract.ts';
import { startTsWorker } from '../../api/node/ts-worker.ts';
import type { BuildOptions, BuiltSite } from './build.ts';

export type BuildRequest =
  | { type: 'build'; id: number; outDir: string; env: NodeJS.ProcessEnv; previous: string | null }
  | { type: 'close' };

export type BuildThreadMessage =
  | { type: 'ready' }
  | { type: 'progress'; id: number; progress: PublishProgress }
  | { type: 'log'; id: number; line: string }
  | { type: 'built'; id: number; site: BuiltSite }
  | { type: 'failed'; id: number; message: string; code: string | null }
  | { type: 'closed' };

export interface BuildThread {
  /** buildSite in the thread, with its warm renderer; progress and log lines come back as they happen. */
  build: (
    outDir: string,
    env: NodeJS.ProcessEnv,
    options: Omit<BuildOptions, 'renderer'>,
  ) => Promise<BuiltSite>;
  /** Stops the renderer and the thread. */
  close: () => Promise<void>;
}

interface Pending {
  options: Omit<BuildOptions, 'renderer'>;
  resolve: (site: BuiltSite) => void;
  reject: (error: Error) => void;
}

const WORKER_URL = new URL('./build-worker.ts', import.meta.url);

export function createBuildThread(): BuildThread {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let closed: (() => void) | null = null;

  function failAll(error: Error) {
    for (const job of pending.values()) job.reject(error);
    pending.clear();
  }

  function start(): Worker {
    const thread = startTsWorker(WORKER_URL);
    thread.unref();
    thread.on('message', (message: BuildThreadMessage) => {
      if (message.type === 'ready') return;
      if (message.type === 'closed') return closed?.();
      const job = pending.get(message.id);
      if (!job) return;
      if (message.type === 'progress') job.options.onProgress?.(message.progress);
      else if (message.type === 'log') job.options.log?.(message.line);
      else {
        pending.delete(message.id);
        if (pending.size === 0) thread.unref();
        if (message.type === 'built') job.resolve(message.site);
        else
          job.reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
      }
    });
    thread.on('error', (error) => failAll(error));
    thread.on('exit', (code) => {
      if (worker === thread) worker = null;
      failAll(new Error(`The build thread stopped (exit code ${code}).`));
      closed?.();
    });
    return thread;
  }

  return {
    build(outDir, env, options) {
      worker ??= start();
      const id = nextId++;
      // Held open while it builds: a command-line publish waits for it.
      worker.ref();
      const thread = worker;
      return new Promise<BuiltSite>((resolve, reject) => {
        pending.set(id, { options, resolve, reject });
        thread.postMessage({
          type: 'build',
          id,
          outDir,
          env,
          previous: options.previous,
        } satisfies BuildRequest);
      });
    },
    async close() {
      const thread = worker;
      if (!thread) return;
      worker = null;
      // Held open until the renderer has stopped: an idle thread is unref'd, and nothing else may
      // keep a command-line publish's process waiting for the answer.
      thread.ref();
      await new Promise<void>((resolve) => {
        closed = resolve;
        thread.postMessage({ type: 'close' } satisfies BuildRequest);
      });
      await thread.terminate();
    },
  };
}
