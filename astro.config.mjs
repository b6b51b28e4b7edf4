// @ts-check
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import fs from 'node:fs';
import { defineConfig } from 'astro/config';
import { loadEnv } from 'vite';
import { DEFAULT_SITE_URL } from './api/contract.ts';

// .env under the real environment, as api/env.ts reads it.
const env = { ...loadEnv('production', process.cwd(), ''), ...process.env };
const site = env.PUBLIC_SITE_URL || DEFAULT_SITE_URL;

/**
 * Pages an incremental build keeps from the live release rather than rendering (src/lib/site-plan.ts
 * writes them while the build runs): the sitemap lists them as a full build would.
 */
function keptPages() {
  // Read at each build's end: a warm renderer (scripts/lib/astro-renderer.mjs) builds many.
  const plan = process.env.NESTLING_RENDER_PLAN;
  if (!plan) return [];
  const { out } = JSON.parse(fs.readFileSync(plan, 'utf8'));
  if (!fs.existsSync(out)) return [];
  /** @type {{ kept: string[] }} */
  const { kept } = JSON.parse(fs.readFileSync(out, 'utf8'));
  // Feeds and other files are not pages; pages are written as folders (build.format 'directory').
  return kept
    .filter((page) => !/\.[a-z]+$/.test(page))
    .map((page) => new URL(`${page.slice(1)}/`, site).href);
}

export default defineConfig({
  site,
  output: 'static',
  // scripts/ build into a fresh directory and swap it in, so readers never see a half-built site.
  outDir: env.NESTLING_OUT_DIR || './dist',
  // Each build of scripts/lib/build.ts has a cache of its own: two builds at once (two databases on
  // one checkout, as the tests have) would otherwise write the same content-layer store.
  cacheDir: env.NESTLING_CACHE_DIR || './node_modules/.astro',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  integrations: [
    react(),
    sitemap({
      // Read when the build has rendered its pages, not when this file loads.
      get customPages() {
        return keptPages();
      },
      // The studio (its screens and the preview template) is for editors, never for search.
      filter: (page) =>
        !/\/(404|confirmation|admin|admin\/outbox|moderation|account|email\/confirm|email\/unsubscribe)\/?$/.test(
          page,
        ) && !/\/studio(\/|$)/.test(new URL(page).pathname),
      // The same address as each page's canonical link: no trailing slash but on the home page.
      serialize: (item) => {
        const url = new URL(item.url);
        if (url.pathname !== '/') url.pathname = url.pathname.replace(/\/$/, '');
        return { ...item, url: url.href };
      },
    }),
  ],
  vite: {
    plugins: [tailwindcss()],
    ssr: { external: ['better-sqlite3', 'jsdom', 'dompurify'] },
  },
});
