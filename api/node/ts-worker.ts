// A worker thread running a TypeScript module, as the server runs, through tsx. tsx's loader
// (`--import tsx`, as `tsx script.ts` passes it) registers itself on the main thread only, and
// Vitest runs TypeScript its own way in its own process, so each thread registers tsx itself before
// it loads its module: the same under npm start, the benches and the tests. The thread needs none
// of the process's flags.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** tsx's ESM API (`import('tsx/esm/api')`), found through its package's exports from this file. */
function tsxEsmApi(): URL {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {
    exports: { './esm/api': { import: { default: string } } };
  };
  return new URL(exports['./esm/api'].import.default, pathToFileURL(manifest));
}

/** Starts a worker thread that runs `module` (a .ts file's URL). */
export function startTsWorker(module: URL, options: Omit<WorkerOptions, 'eval' | 'execArgv'> = {}): Worker {
  const bootstrap =
    `import(${JSON.stringify(tsxEsmApi().href)})` +
    `.then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true, execArgv: [] });
}
