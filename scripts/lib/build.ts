import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { CSP_HASHES_FILE } from '../../api/middleware/security-headers.ts';

const SOURCES = ['src', 'public', 'astro.config.mjs', 'api'];

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** A build is needed when the live build is missing or older than anything it is built from. */
export function needsBuild(buildDir: string, contentDir: string): boolean {
  const marker = path.join(buildDir, 'index.html');
  if (!fs.existsSync(marker)) return true;
  const built = fs.statSync(marker).mtimeMs;
  return [contentDir, ...SOURCES].some((source) => newestMtime(source) > built);
}

/** Runs `astro build` into outDir as a child process, streaming its progress with a prefix. */
export async function runAstroBuild(outDir: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  // Astro's cache (its content-layer store) is the build's own, so builds never share one.
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nestling-astro-cache-'));
  try {
    await astroBuild(outDir, cacheDir, env);
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

function astroBuild(outDir: string, cacheDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/astro/astro.js', 'build'], {
      env: { ...env, NESTLING_OUT_DIR: outDir, NESTLING_CACHE_DIR: cacheDir, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    let pages = 0;
    // Astro prints a line per page; show the phases and a running page count instead.
    const relay = (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-4000);
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        if (/[├└]─/.test(line)) {
          pages += 1;
          if (pages % 100 === 0) console.log(`  [build] ${pages} pages written …`);
        } else if (!/^\s*▶/.test(line)) {
          console.log(`  [build] ${line.replace(/^\d\d:\d\d:\d\d /, '')}`);
        }
      }
    };
    child.stdout.on('data', relay);
    child.stderr.on('data', relay);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) return resolve();
      const reason =
        /error[^\n]*\n?[^\n]*/i.exec(tail)?.[0]?.trim() ?? tail.trim().split('\n').slice(-5).join(' ');
      reject(new Error(`Site build failed (${signal ?? `exit code ${code}`}): ${reason}`));
    });
  });
}

/**
 * Builds the whole site into outDir (a release's folder) and precompresses it. The build renders
 * the release named by NESTLING_RELEASE_ID in env (src/lib/server-api.ts).
 */
export async function buildSite(outDir: string, env: NodeJS.ProcessEnv): Promise<{ durationMs: number }> {
  const started = Date.now();
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  await runAstroBuild(outDir, env);
  await indexForSearch(outDir);
  await writeInlineScriptHashes(outDir);
  await precompress(outDir);
  return { durationMs: Date.now() - started };
}

/** Builds Pagefind's static search index of the posts (pages marked data-pagefind-body). */
export async function indexForSearch(dir: string): Promise<void> {
  const pagefind = await import('pagefind');
  const { index, errors } = await pagefind.createIndex({});
  if (!index) throw new Error(`Search index failed: ${errors.join('; ')}`);
  try {
    const added = await index.addDirectory({ path: dir });
    if (added.errors.length) throw new Error(`Search index failed: ${added.errors.join('; ')}`);
    const written = await index.writeFiles({ outputPath: path.join(dir, 'pagefind') });
    if (written.errors.length) throw new Error(`Search index failed: ${written.errors.join('; ')}`);
    console.log(`  [search] indexed ${added.page_count} pages`);
  } finally {
    await pagefind.close();
  }
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const COMPRESSIBLE = /\.(html|css|js|mjs|json|xml|svg|txt|webmanifest)$/;

/** Records the sha256 of every inline script in the built HTML, for the server's CSP. */
export async function writeInlineScriptHashes(dir: string): Promise<void> {
  const hashes = new Set<string>();
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
  for (const file of files) {
    const html = await fs.promises.readFile(path.join(dir, file), 'utf8');
    for (const match of html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/gi)) {
      const type = /\btype=["']?([^"'\s>]+)/i.exec(match[1] ?? '')?.[1];
      if (type && !/^(module|text\/javascript|application\/javascript)$/i.test(type)) continue;
      hashes.add(
        `sha256-${crypto
          .createHash('sha256')
          .update(match[2] ?? '')
          .digest('base64')}`,
      );
    }
  }
  await fs.promises.writeFile(path.join(dir, CSP_HASHES_FILE), JSON.stringify([...hashes].sort()));
}

/** Writes .gz and .br beside every text file so the server never compresses static files itself. */
export async function precompress(dir: string): Promise<void> {
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' });
  await Promise.all(
    files
      .filter((f) => COMPRESSIBLE.test(f))
      .map(async (f) => {
        const file = path.join(dir, f);
        const data = await fs.promises.readFile(file);
        if (data.length < 1024) return;
        const [gz, br] = await Promise.all([
          gzip(data, { level: 9 }),
          brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        ]);
        await Promise.all([fs.promises.writeFile(`${file}.gz`, gz), fs.promises.writeFile(`${file}.br`, br)]);
      }),
  );
}
