// Build-time access to the API: the same Hono app the server runs, called in-process through the
// typed client, so a build needs no running server. Only .astro frontmatter and endpoints import
// this (never islands).
import { hc } from 'hono/client';
import type { AppType } from '../../api/app.ts';
import { createBuildApp } from '../../api/build-app.ts';

export { sanitizeHtml } from '../../api/build-app.ts';

/** The app of the release being built (a warm renderer builds one release after another). */
let app: { release: string | undefined; app: Promise<AppType> } | undefined;

function appOfThisBuild(): Promise<AppType> {
  const release = process.env.NESTLING_RELEASE_ID;
  if (!app || app.release !== release) app = { release, app: createBuildApp() };
  return app.app;
}

export const buildApi = hc<AppType>('http://build.invalid', {
  fetch: async (input: RequestInfo | URL, init?: RequestInit) =>
    (await appOfThisBuild()).request(input, init),
}).api;

export { read } from './api.ts';
