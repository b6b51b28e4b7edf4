// Build-time access to the API: the same Hono app the server runs, called in-process through the
// typed client, so a build needs no running server. Only .astro frontmatter and endpoints import
// this (never islands).
import { hc } from 'hono/client';
import type { AppType } from '../../api/app.ts';
import { createBuildApp } from '../../api/build-app.ts';

export { sanitizeHtml } from '../../api/build-app.ts';

let app: Promise<AppType> | undefined;

export const buildApi = hc<AppType>('http://build.invalid', {
  fetch: async (input: RequestInfo | URL, init?: RequestInit) =>
    (await (app ??= createBuildApp())).request(input, init),
}).api;

export { read } from './api.ts';
