// Build-time access to the API: the same Hono app the server runs, called in-process through the
// typed client, so a build needs no running server. Only .astro frontmatter and endpoints import
// this (never islands).
import path from 'node:path';
import { hc } from 'hono/client';
import { type AppType, createApp } from '../../api/app.ts';
import { prepareDatabase } from '../../api/db/prepare.ts';
import { fixedReleaseSource } from '../../api/lib/live-release.ts';

let app: Promise<AppType> | undefined;

/**
 * The publisher names the release being built (NESTLING_RELEASE_ID): pages render its posts while
 * the live API still answers from the live one, and both switch together. Without it (`astro dev`)
 * pages show the live release.
 */
function getApp(): Promise<AppType> {
  const candidate = process.env.NESTLING_RELEASE_ID;
  app ??= prepareDatabase(
    process.env.DATABASE_PATH || './data/nestling.db',
    path.resolve(process.env.CONTENT_DIR || 'content'),
  ).then(({ db }) =>
    createApp({ db, ...(candidate ? { release: fixedReleaseSource(db, Number(candidate)) } : {}) }),
  );
  return app;
}

export const buildApi = hc<AppType>('http://build.invalid', {
  fetch: async (input: RequestInfo | URL, init?: RequestInit) => (await getApp()).request(input, init),
}).api;

export { read } from './api.ts';
export { sanitizeHtml } from '../../api/lib/html.ts';
