// Build-time access to the API: the same Hono app the server runs, called in-process through the
// typed client, so a build needs no running server. Only .astro frontmatter and endpoints import
// this (never islands).
import path from 'node:path';
import { hc } from 'hono/client';
import { type AppType, createApp } from '../../api/app.ts';
import { databaseLocation } from '../../api/db/database.ts';
import { prepareDatabase } from '../../api/db/prepare.ts';
import { parseEnv } from '../../api/env.ts';

let app: Promise<AppType> | undefined;

function getApp(): Promise<AppType> {
  // The database the server uses: DATABASE_URL (PostgreSQL) when set, else DATABASE_PATH.
  app ??= prepareDatabase(
    databaseLocation(parseEnv(process.env)),
    path.resolve(process.env.CONTENT_DIR || 'content'),
  ).then(({ db }) => createApp({ db }));
  return app;
}

export const buildApi = hc<AppType>('http://build.invalid', {
  fetch: async (input: RequestInfo | URL, init?: RequestInit) => (await getApp()).request(input, init),
}).api;

export { read } from './api.ts';
export { sanitizeHtml } from '../../api/lib/html.ts';
