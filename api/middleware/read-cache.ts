import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../types.ts';

export interface ReadCacheOptions {
  /** How long an answer may be reused. Also bounds how late a scheduled post or another
   * process's write (npm run publish, another instance) shows up here. */
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  at: number;
  path: string;
  status: number;
  headers: [string, string][];
  body: string;
}

/**
 * What a successful write changed, as API paths: an exact path (`/api/blog/posts`), or a path and
 * everything under it (`/api/blog/posts/some-slug/*`). Cached answers for those paths are dropped.
 * A write that names nothing drops every cached answer.
 */
export type Changed = string[];

function matches(path: string, changed: Changed): boolean {
  return changed.some((c) =>
    c.endsWith('/*') ? path === c.slice(0, -2) || path.startsWith(c.slice(0, -1)) : path === c,
  );
}

/**
 * A micro-cache for the public read endpoints: the same anonymous GET within ttlMs gets the stored
 * answer instead of new queries. A successful write drops the answers it changed (routes say which
 * with `c.set('changed', ...)`), so a reader never sees their own like or comment go missing while
 * other posts keep their cache. Requests with a token are never cached.
 */
export function readCache(options: ReadCacheOptions) {
  const now = options.now ?? (() => Date.now());
  const maxEntries = options.maxEntries ?? 1_000;
  const entries = new Map<string, Entry>();
  return createMiddleware<AppEnv & { Variables: { changed?: Changed } }>(async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') {
      await next();
      if (c.res.status >= 400) return;
      const changed = c.get('changed');
      if (changed === undefined) entries.clear();
      else if (changed.length > 0) {
        for (const [key, entry] of entries) if (matches(entry.path, changed)) entries.delete(key);
      }
      return;
    }
    if (c.req.header('Authorization')) return next();
    const key = c.req.url;
    const hit = entries.get(key);
    if (hit && now() - hit.at < options.ttlMs) {
      return new Response(hit.body, { status: hit.status, headers: hit.headers });
    }
    await next();
    const { status } = c.res;
    const type = c.res.headers.get('Content-Type') ?? '';
    if ((status === 200 || status === 404) && type.startsWith('application/json')) {
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, {
        at: now(),
        path: c.req.path,
        status,
        headers: [...c.res.headers],
        body: await c.res.clone().text(),
      });
    }
  });
}
