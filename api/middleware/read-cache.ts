import zlib from 'node:zlib';
import { createMiddleware } from 'hono/factory';
import { parseAccept } from 'hono/utils/accept';
import type { ServedRelease } from '../db/queries/releases.ts';
import type { AppEnv, Changed, ReadCache } from '../types.ts';
import { requestIsHttps } from './security-headers.ts';

/**
 * How long the server reuses an anonymous answer. With several instances on one PostgreSQL
 * database it is also how stale an answer can be after another instance's write, since a write
 * drops only its own instance's answers (docs/architecture.md, "Several instances").
 */
export const READ_CACHE_MS = 1_000;

export interface ReadCacheOptions {
  /** How long an answer may be reused. Also bounds how late another process's write (another
   * instance's like or comment) shows up here; a new release is never served from older answers. */
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}

type Encoding = 'br' | 'gzip' | 'identity';

/** Smaller answers go as they are: compressing them saves less than it costs. */
const MIN_COMPRESSED_BYTES = 1024;

const compressors: Record<Exclude<Encoding, 'identity'>, (body: string) => Uint8Array<ArrayBuffer>> = {
  // Quality 5 is most of brotli's gain at a small part of its default (11) cost.
  br: (body) => zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (body) => zlib.gzipSync(body),
};

interface Variant {
  body: string | Uint8Array<ArrayBuffer>;
  /** A plain object: @hono/node-server writes it as it is, where a list or Headers is converted. */
  headers: Record<string, string>;
}

interface Entry {
  at: number;
  path: string;
  status: number;
  headers: [string, string][];
  body: string;
  /** The answer in each encoding a client has asked for, made on the first such request. */
  variants: Partial<Record<Encoding, Variant>>;
}

/** Accept-Encoding values seen, and the encoding each asks for: browsers send a handful. */
const chosen = new Map<string, Encoding>();

/** The encoding the client wants most; among equals, Brotli (the smaller) before gzip. */
function preferredEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  let best = chosen.get(header);
  if (best) return best;
  const accepted = parseAccept(header);
  best = 'identity';
  let bestQ = 0;
  for (const encoding of ['br', 'gzip'] as const) {
    const q = accepted.find((a) => a.type.toLowerCase() === encoding)?.q ?? 0;
    if (q > bestQ) [best, bestQ] = [encoding, q];
  }
  if (chosen.size >= 100) chosen.clear();
  chosen.set(header, best);
  return best;
}

function variant(entry: Entry, encoding: Encoding): Variant {
  let made = entry.variants[encoding];
  if (!made) {
    const headers = { ...Object.fromEntries(entry.headers), vary: 'Accept-Encoding' };
    made =
      encoding === 'identity' || entry.body.length < MIN_COMPRESSED_BYTES
        ? { body: entry.body, headers }
        : { body: compressors[encoding](entry.body), headers: { ...headers, 'content-encoding': encoding } };
    entry.variants[encoding] = made;
  }
  return made;
}

function matches(path: string, changed: Changed): boolean {
  return changed.some((c) =>
    c.endsWith('/*') ? path === c.slice(0, -2) || path.startsWith(c.slice(0, -1)) : path === c,
  );
}

/**
 * Answers of one release are never reused for another: a switch shows at once. Answers over HTTPS
 * carry HSTS (api/middleware/security-headers.ts), so the scheme is part of the key too.
 */
const keyOf = (request: Request, release: ServedRelease | null) =>
  `${release?.id ?? 0} ${requestIsHttps(request) ? 's' : ''} ${request.url}`;

/**
 * A micro-cache for the public read endpoints: the same anonymous GET within ttlMs gets the stored
 * answer instead of new queries. A successful write drops the answers it changed (routes say which
 * with `c.set('changed', ...)`), so a reader never sees their own like or comment go missing while
 * other posts keep their cache. Requests with a token are never cached. Answers are kept in each
 * encoding asked for (Brotli, gzip), so a hot answer is compressed once, not on every request.
 * When an answer expires, the requests for it that arrive while it is being made again wait for
 * that one instead of each running the same queries.
 */
export function readCache(options: ReadCacheOptions): ReadCache {
  const now = options.now ?? (() => Date.now());
  const maxEntries = options.maxEntries ?? 1_000;
  const entries = new Map<string, Entry>();
  /** Answers being made, by key; a write that changes one drops it, so later readers do not wait for it. */
  const making = new Map<string, { path: string; entry: Promise<Entry | null> }>();

  function drop(changed: Changed | undefined) {
    for (const map of [entries, making]) {
      if (changed === undefined) map.clear();
      else if (changed.length > 0) {
        for (const [key, { path }] of map) if (matches(path, changed)) map.delete(key);
      }
    }
  }

  function respond(entry: Entry, acceptEncoding: string | null | undefined): Response {
    const { body, headers } = variant(entry, preferredEncoding(acceptEncoding ?? undefined));
    return new Response(body, { status: entry.status, headers });
  }

  /** The kept answer for a key, if it is still fresh. */
  function fresh(key: string): Entry | undefined {
    const entry = entries.get(key);
    return entry && now() - entry.at < options.ttlMs ? entry : undefined;
  }

  function answer(request: Request, release: ServedRelease | null | undefined): Response | undefined {
    if (release === undefined || request.method !== 'GET' || request.headers.get('Authorization')) {
      return undefined;
    }
    const entry = fresh(keyOf(request, release));
    return entry && respond(entry, request.headers.get('Accept-Encoding'));
  }

  const middleware = createMiddleware<AppEnv>(async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') {
      await next();
      if (c.res.status < 400) drop(c.get('changed'));
      return;
    }
    if (c.req.header('Authorization')) return next();
    const key = keyOf(c.req.raw, c.get('release'));
    let entry: Entry | null | undefined = fresh(key);
    if (!entry) {
      const other = making.get(key);
      entry = other ? await other.entry : await make();
      // Not cacheable (an error, not JSON): this request gets its own answer.
      if (!entry) return c.finalized ? undefined : next();
    }
    const answer = respond(entry, c.req.header('Accept-Encoding'));
    if (!c.finalized) return answer;
    // Replaces the answer just made rather than merging into it (Hono's setter merges headers).
    c.res = undefined;
    c.res = answer;

    async function make(): Promise<Entry | null> {
      const at = now();
      const path = c.req.path;
      let done!: (made: Entry | null) => void;
      const mine = { path, entry: new Promise<Entry | null>((resolve) => (done = resolve)) };
      making.set(key, mine);
      let made: Entry | null = null;
      c.set('kept', true);
      try {
        await next();
        const { status } = c.res;
        const type = c.res.headers.get('Content-Type') ?? '';
        if ((status === 200 || status === 404) && type.startsWith('application/json')) {
          made = { at, path, status, headers: [...c.res.headers], body: await c.res.text(), variants: {} };
        }
      } finally {
        // A write that changed this answer meanwhile dropped it from `making`: then it is not kept.
        if (making.get(key) === mine) {
          making.delete(key);
          if (made) {
            if (entries.size >= maxEntries) entries.clear();
            entries.set(key, made);
          }
        }
        done(made);
      }
      return made;
    }
  });

  return { middleware, answer };
}
