// @ts-check
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';
import { loadEnv } from 'vite';
import { DEFAULT_SITE_URL } from './api/contract.ts';

// .env under the real environment, as api/env.ts reads it.
const env = { ...loadEnv('production', process.cwd(), ''), ...process.env };

export default defineConfig({
  site: env.PUBLIC_SITE_URL || DEFAULT_SITE_URL,
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
