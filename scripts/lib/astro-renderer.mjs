// @ts-check
// A site build that stays warm (docs/decisions/020). `astro build` bundles the code with Vite twice
// (some 12 s here) before it renders a page, and a publish that changed one post needs none of it
// again: the code is the same, only the data changed. This process does what `astro build` does
// once, keeps the server bundle and Astro's build state, and for every later render only runs
// Astro's page generation again, so a publish renders its pages in well under a second more than
// the pages themselves take.
//
// It is a child of scripts/lib/site-renderer.ts, which starts one per code key and settings and
// sends it { type: 'render', id, outDir, env } over IPC. It answers { type: 'rendered', id } or
// { type: 'failed', id, error }. Its output lines are Astro's own (the page lines the publish
// counts for its progress).
//
// Astro 5 has no public API for this, so it calls the same internal modules its `build` command
// does (node_modules/astro/dist/core/build/index.js), in the same order. The lockfile pins Astro,
// and tests/e2e/incremental-publish.test.ts compares a warm render with a full `astro build` byte
// for byte, so an Astro upgrade that changes these internals fails that test rather than a publish.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ASTRO = pathToFileURL(path.join(ROOT, 'node_modules/astro/dist')).href + '/';

/** @param {string} file */
const astro = (file) => import(ASTRO + file);

const [
  { resolveConfig },
  { createNodeLogger },
  { createSettings },
  hooks,
  { createDevelopmentManifest },
  { createVite },
  { createKey },
  { apply: applyPolyfill },
  { createRoutesList },
  { ensureProcessNodeEnv },
  { collectPagesData },
  { viteBuild },
  { generatePages },
  { syncInternal },
] = await Promise.all([
  astro('core/config/config.js'),
  astro('core/config/logging.js'),
  astro('core/config/settings.js'),
  astro('integrations/hooks.js'),
  astro('vite-plugin-astro-server/plugin.js'),
  astro('core/create-vite.js'),
  astro('core/encryption.js'),
  astro('core/polyfill.js'),
  astro('core/routing/index.js'),
  astro('core/util.js'),
  astro('core/build/page-data.js'),
  astro('core/build/static-build.js'),
  astro('core/build/generate.js'),
  astro('core/sync/index.js'),
]);

/** The workspace Astro builds into: the server bundle, the browser assets, the public files. */
const workspace = process.env.NESTLING_OUT_DIR ?? '';
if (!workspace || !process.send) throw new Error('astro-renderer runs as a child of site-renderer.ts');

/**
 * @typedef {{
 *   opts: any,
 *   internals: any,
 *   routes: unknown[],
 *   serverFiles: Set<string>,
 *   template: Set<string>,
 * }} Warm
 */

/** @type {Warm | undefined} */
let warm;

/** Every file under dir, relative to it. @param {string} dir */
function filesOf(dir) {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => fs.statSync(path.join(dir, file)).isFile());
}

/** What `astro build` does before it renders a page: configure, bundle, keep the state. */
async function bundle() {
  ensureProcessNodeEnv('production');
  applyPolyfill();
  const inlineConfig = { root: ROOT, mode: 'production' };
  const logger = createNodeLogger(inlineConfig);
  const { astroConfig } = await resolveConfig(inlineConfig, 'build');
  let settings = await createSettings(astroConfig, fileURLToPath(astroConfig.root));
  settings = await hooks.runHookConfigSetup({ settings, command: 'build', logger });
  const manifest = createDevelopmentManifest(settings);
  const routesList = await createRoutesList({ settings }, logger);
  await hooks.runHookConfigDone({ settings, logger, command: 'build' });
  const viteConfig = await createVite(
    { server: { hmr: false, middlewareMode: true } },
    { settings, logger, mode: 'production', command: 'build', sync: false, routesList, manifest },
  );
  await syncInternal({ mode: 'production', settings, logger, fs, routesList, command: 'build', manifest });
  await hooks.runHookBuildStart({ config: settings.config, logger });
  const { allPages } = collectPagesData({ settings, logger, manifest: routesList });
  const opts = {
    allPages,
    settings,
    logger,
    routesList,
    runtimeMode: 'production',
    origin: settings.config.site ? new URL(settings.config.site).origin : '',
    pageNames: /** @type {string[]} */ ([]),
    teardownCompiler: true,
    viteConfig,
    key: createKey(),
  };
  const { internals, ssrOutputChunkNames } = await viteBuild(opts);
  // The server bundle stays here for the next render; a release never gets it. These are the files
  // `astro build` removes when it is done (cleanServerOutput in its static-build.js).
  /** @type {string[]} */
  const chunks = ssrOutputChunkNames.filter((/** @type {string} */ name) => name.endsWith('.mjs'));
  if (internals.manifestFileName) chunks.push(internals.manifestFileName);
  return {
    opts,
    internals,
    routes: Object.values(allPages).flatMap((page) => page.route),
    serverFiles: new Set(chunks.flatMap((name) => [name, `${name}.map`])),
    // What the workspace holds between renders; everything else a render writes is the release's.
    template: new Set(filesOf(workspace)),
  };
}

/** Moves a file, or copies it when `to` is on another file system. @param {string} from @param {string} to */
function move(from, to) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.renameSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
    fs.rmSync(from);
  }
}

/**
 * Renders every page into the workspace, then gives outDir the release's files: the rendered ones
 * are moved, the bundle's assets and public files copied (the workspace keeps them for next time).
 * @param {string} outDir
 */
async function render(outDir) {
  warm ??= await bundle();
  const { opts, internals, routes, serverFiles, template } = warm;
  opts.pageNames.length = 0;
  await generatePages(opts, internals);
  await hooks.runHookBuildDone({
    settings: opts.settings,
    pages: opts.pageNames,
    routes,
    logger: opts.logger,
  });
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  for (const file of filesOf(workspace)) {
    if (serverFiles.has(file)) continue;
    const from = path.join(workspace, file);
    const to = path.join(outDir, file);
    if (template.has(file)) {
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(from, to);
    } else {
      move(from, to);
    }
  }
}

// One render at a time: site-renderer.ts sends the next only after this one answers.
process.on('message', async (/** @type {any} */ message) => {
  if (message?.type !== 'render') return;
  // The settings this render is for (site-renderer.ts's PER_RENDER; null: unset); the rest of the
  // environment is this process's own.
  for (const [name, value] of Object.entries(message.env)) {
    if (value === null) delete process.env[name];
    else process.env[name] = value;
  }
  try {
    await render(message.outDir);
    process.send?.({ type: 'rendered', id: message.id });
  } catch (error) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.error(text);
    process.send?.({ type: 'failed', id: message.id, error: text.split('\n')[0] });
  }
});
// The renderer's owner is gone (it exited or closed the channel): so is the reason to stay.
process.on('disconnect', () => {
  fs.rmSync(workspace, { recursive: true, force: true });
  if (process.env.NESTLING_CACHE_DIR)
    fs.rmSync(process.env.NESTLING_CACHE_DIR, { recursive: true, force: true });
  process.exit(0);
});
process.send({ type: 'ready' });
