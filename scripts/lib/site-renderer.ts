// Keeps a site build warm between publishes (docs/decisions/020): a child process
// (astro-renderer.mjs) bundles the code once and then only renders pages, for as long as the code
// and the settings stay the same. A change to either starts a new child, which bundles again.
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAlive } from './processes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WORKER = path.join(ROOT, 'scripts/lib/astro-renderer.mjs');
/** Where the child keeps its bundle (inside the checkout, as Astro needs: see runAstroBuild). */
const WORKSPACES = path.join(ROOT, '.site-builds');
/** Settings that differ from one render to the next; any other change needs a new child. */
const PER_RENDER = new Set(['NESTLING_RELEASE_ID', 'NESTLING_RENDER_PLAN']);

type Answer =
  { type: 'ready' } | { type: 'rendered'; id: number } | { type: 'failed'; id: number; error: string };

interface Warm {
  key: string;
  child: ChildProcess;
  workspace: string;
  cacheDir: string;
  ready: Promise<void>;
  /** Answers by render id. */
  waiting: Map<number, { resolve: () => void; reject: (error: Error) => void }>;
  exited: boolean;
}

export interface SiteRenderer {
  /**
   * Renders the site into outDir as `astro build` would, with env's release and plan; `code` is
   * the build's code key. Calls `watch` with each line the build prints. One render at a time.
   */
  render: (
    outDir: string,
    env: NodeJS.ProcessEnv,
    code: string,
    watch: (line: string) => void,
  ) => Promise<void>;
  /** Whether the next render with these settings reuses a bundle (for the log and the tests). */
  isWarm: (env: NodeJS.ProcessEnv, code: string) => boolean;
  /** Stops the child and removes its bundle. */
  close: () => Promise<void>;
}

function settingsKey(env: NodeJS.ProcessEnv, code: string): string {
  const settings = Object.keys(env)
    .filter((name) => !PER_RENDER.has(name))
    .sort()
    .map((name) => `${name}=${env[name]}`);
  return crypto
    .createHash('sha256')
    .update(code)
    .update('\0')
    .update(settings.join('\n'))
    .digest('base64url');
}

/**
 * Removes the workspaces of renderers whose process has gone without removing them (it was killed):
 * the workspace's name carries its owner's pid.
 */
function removeOrphans(): void {
  for (const name of fs.readdirSync(WORKSPACES)) {
    const owner = /^warm-(\d+)-/.exec(name)?.[1];
    if (!owner || Number(owner) === process.pid || isAlive(Number(owner))) continue;
    fs.rmSync(path.join(WORKSPACES, name), { recursive: true, force: true });
  }
}

/**
 * A renderer that keeps its child between renders and stops it after `idleMs` without one. The
 * child never keeps this process alive while it waits.
 */
export function createSiteRenderer(options: { idleMs?: number } = {}): SiteRenderer {
  const idleMs = options.idleMs ?? 15 * 60_000;
  let warm: Warm | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let nextId = 1;

  function stop(current: Warm): Promise<void> {
    if (warm === current) warm = null;
    const gone = current.exited
      ? Promise.resolve()
      : new Promise<void>((resolve) => current.child.once('exit', () => resolve()));
    // Waited for even when idle: an unreferenced child's exit would not keep this process running.
    current.child.ref();
    if (!current.exited) current.child.kill('SIGKILL');
    return gone.then(() => {
      fs.rmSync(current.workspace, { recursive: true, force: true });
      fs.rmSync(current.cacheDir, { recursive: true, force: true });
    });
  }

  function start(key: string, env: NodeJS.ProcessEnv, watch: { line: (line: string) => void }): Warm {
    fs.mkdirSync(WORKSPACES, { recursive: true });
    removeOrphans();
    const workspace = fs.mkdtempSync(path.join(WORKSPACES, `warm-${process.pid}-`));
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nestling-astro-cache-'));
    const child = fork(WORKER, [], {
      cwd: ROOT,
      env: {
        ...env,
        NESTLING_OUT_DIR: workspace,
        NESTLING_CACHE_DIR: cacheDir,
        ASTRO_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Plain Node, as `astro build` runs: the child imports no TypeScript itself (Astro loads the
      // config), and tsx's loader, which fork would pass on, cost 2-3 s and 200 MiB a bundle.
      execArgv: [],
    });
    const waiting: Warm['waiting'] = new Map();
    let partial = '';
    const relay = (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) watch.line(line);
    };
    child.stdout!.on('data', relay);
    child.stderr!.on('data', relay);
    let markReady: () => void = () => {};
    let failReady: (error: Error) => void = () => {};
    const current: Warm = {
      key,
      child,
      workspace,
      cacheDir,
      ready: new Promise<void>((resolve, reject) => {
        markReady = resolve;
        failReady = reject;
      }),
      waiting,
      exited: false,
    };
    child.on('message', (answer: Answer) => {
      if (answer.type === 'ready') return markReady();
      const pending = waiting.get(answer.id);
      waiting.delete(answer.id);
      if (answer.type === 'rendered') pending?.resolve();
      else pending?.reject(new Error(`Site build failed: ${answer.error}`));
    });
    child.once('exit', (code, signal) => {
      current.exited = true;
      const error = new Error(
        `Site build failed: the build process stopped (${signal ?? `exit code ${code}`}).`,
      );
      failReady(error);
      for (const pending of waiting.values()) pending.reject(error);
      waiting.clear();
      if (warm === current) void stop(current);
    });
    idle(current);
    return current;
  }

  /** While the child waits, it neither keeps this process alive nor outlives its usefulness. */
  function idle(current: Warm): void {
    current.child.unref();
    current.child.channel?.unref();
    (current.child.stdout as unknown as { unref?: () => void }).unref?.();
    (current.child.stderr as unknown as { unref?: () => void }).unref?.();
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void stop(current), idleMs);
    idleTimer.unref();
  }

  function busy(current: Warm): void {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    current.child.ref();
    current.child.channel?.ref();
  }

  // The line watcher of the render in progress (the child's output between renders goes to the log).
  const watch = { line: (line: string) => console.log(`  [build] ${line}`) };

  return {
    isWarm: (env, code) => warm !== null && warm.key === settingsKey(env, code),

    async render(outDir, env, code, onLine) {
      const key = settingsKey(env, code);
      if (warm && warm.key !== key) await stop(warm);
      const current = (warm ??= start(key, env, watch));
      busy(current);
      watch.line = onLine;
      try {
        await current.ready;
        const id = nextId++;
        const rendered = new Promise<void>((resolve, reject) => current.waiting.set(id, { resolve, reject }));
        // null for an unset one (IPC's JSON drops undefined), so the child unsets it.
        const perRender = Object.fromEntries([...PER_RENDER].map((name) => [name, env[name] ?? null]));
        current.child.send({ type: 'render', id, outDir: path.resolve(outDir), env: perRender });
        await rendered;
      } catch (error) {
        // A failed render may have left the child's state half-changed: the next one starts afresh.
        await stop(current);
        throw error;
      } finally {
        watch.line = (line) => console.log(`  [build] ${line}`);
        if (warm === current) idle(current);
      }
    },

    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      if (warm) await stop(warm);
    },
  };
}
