// Build-time access to the API: the same Hono app the server runs, called in-process, so a build
// needs no running server. Only .astro frontmatter and endpoints import this (never islands).
import path from 'node:path';
import { createApp } from '../../api/app.ts';
import { prepareDatabase } from '../../api/db/prepare.ts';

type App = ReturnType<typeof createApp>;
let app: Promise<App> | undefined;

function getApp(): Promise<App> {
  app ??= prepareDatabase(
    process.env.DATABASE_PATH || './data/nestling.db',
    path.resolve(process.env.CONTENT_DIR || 'content'),
  ).then(({ db }) => createApp({ db }));
  return app;
}

/** GET an API path in-process; fails the build on an error answer (except 404 → null). */
export async function apiGet<T>(pathname: string): Promise<T> {
  const response = await (await getApp()).request(pathname);
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()} (GET ${pathname})`);
  return (await response.json()) as T;
}

export type { Item } from '../../api/db/queries/items.ts';
export type { BlogCategory, BlogPost, CommunityEntry } from '../../api/db/queries/posts.ts';
export { sanitizeHtml } from '../../api/lib/html.ts';
