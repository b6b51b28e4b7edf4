import { createMiddleware } from 'hono/factory';

export interface ReadCacheOptions {
  /** How long an answer may be reused. Also bounds how late a scheduled post or another
   * process's write (npm run publish, db:seed) shows up. */
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  at: number;
  status: number;
  type: string;
  body: string;
}

/**
 * A micro-cache for the public read endpoints: the same anonymous GET within ttlMs gets the stored
 * answer instead of new queries. Any successful write through the API empties it, so a reader
 * never sees their own like or comment go missing. Requests with a token are never cached.
 */
export function readCache(options: ReadCacheOptions) {
  const now = options.now ?? (() => Date.now());
  const maxEntries = options.maxEntries ?? 1_000;
  const entries = new Map<string, Entry>();
  return createMiddleware(async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') {
      await next();
      if (c.res.status < 400) entries.clear();
      return;
    }
    if (c.req.header('Authorization')) return next();
    const key = c.req.url;
    const hit = entries.get(key);
    if (hit && now() - hit.at < options.ttlMs) {
      return c.body(hit.body, hit.status as 200, { 'Content-Type': hit.type });
    }
    await next();
    const { status } = c.res;
    const type = c.res.headers.get('Content-Type') ?? '';
    if ((status === 200 || status === 404) && type.startsWith('application/json')) {
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, { at: now(), status, type, body: await c.res.clone().text() });
    }
  });
}
