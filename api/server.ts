import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type HttpBindings, serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { type Context, Hono } from 'hono';
import { compress } from 'hono/compress';
import { createMiddleware } from 'hono/factory';
import { type AppDeps, createApp } from './app.ts';
import type { DB } from './db/database.ts';
import type { ServedRelease } from './db/queries/releases.ts';
import { liveReleaseSource } from './lib/live-release.ts';
import { createViewBuffer } from './lib/view-buffer.ts';
import { BLOG_PAGE_COUNTS_PATH, type BlogPageCounts, blogQueryPath } from '../src/lib/blog-paths.ts';
import { type CspOptions, securityHeaders } from './middleware/security-headers.ts';

export interface ServerOptions {
  db: DB;
  /** SITE_DIR: a build folder per release; the live release's folder is served. */
  siteDir: string;
  host: string;
  port: number;
  /** Anything else the API needs (token verifier, clock, limiters, the release source). */
  deps?: Omit<Partial<AppDeps>, 'db'>;
  csp?: CspOptions;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  close: () => Promise<void>;
}

/** Hashed build assets never change; everything else is revalidated on every visit. */
function cacheControlFor(file: string): string {
  if (file.includes(`${path.sep}_astro${path.sep}`)) return 'public, max-age=31536000, immutable';
  return 'public, no-cache';
}

/** How long a connection that is being closed keeps reading what its client still sends. */
const LINGER_MS = 2_000;

/**
 * Closes the socket in stages once its last answer is written (RFC 9112, section 9.6): our side
 * first, then, after the client has closed too or LINGER_MS, the rest. Dropping it at once with
 * request bytes still arriving makes the kernel answer them with a reset, which can overtake the
 * answer itself, so the client would see a broken connection instead of a 413.
 */
function lingerOnClose(incoming: IncomingMessage): void {
  const socket = incoming.socket;
  let lingering = false;
  // Node's server calls destroySoon() after an answer that said Connection: close.
  socket.destroySoon = () => {
    if (lingering) return;
    lingering = true;
    socket.end();
    // Nobody wants the rest of the body now; a body reader the app started would keep it paused.
    incoming.removeAllListeners('data');
    incoming.resume();
    // Not unref'd: a graceful shutdown waits for this socket, at most LINGER_MS.
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
  };
}

/**
 * An answer given before the request body has all arrived (a 413, or a 401 or 415 refused before
 * reading) says Connection: close. Keeping the connection alive would promise the client its next
 * request, but the rest of the body still has to come off the socket first, and
 * @hono/node-server gives that only 500 ms before it drops the socket under whatever the client
 * sent next. A body that has all arrived is discarded from memory, so those connections stay open.
 */
const closeIfBodyPending = createMiddleware<{ Bindings: Partial<HttpBindings> | undefined }>((c, next) => {
  // In-process callers (app.request) have no socket; GET and HEAD bring no body to leave unread.
  const incoming = c.env?.incoming;
  if (!incoming || c.req.method === 'GET' || c.req.method === 'HEAD') return next();
  return answerThenCheck(incoming);

  async function answerThenCheck(request: IncomingMessage) {
    await next();
    if (request.complete) return;
    // A body that came with the headers is marked complete only on a later turn of the loop.
    await new Promise((resolve) => setImmediate(resolve));
    if (request.complete) return;
    c.res.headers.set('Connection', 'close');
    lingerOnClose(request);
  }
});

/**
 * @hono/node-server gives every request but GET and HEAD a body stream, even when the HTTP message
 * has none (a view beacon sends Content-Length: 0), and the API's first look at it (is there a
 * body, is it too large) turns the light request into a full one with a stream: most of the cost
 * of a view. A request that has no body is handed on as one.
 */
function withoutEmptyBody(request: Request, incoming: IncomingMessage | undefined): Request {
  if (!incoming || request.method === 'GET' || request.method === 'HEAD') return request;
  const length = incoming.headers['content-length'];
  if (incoming.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')) {
    return request;
  }
  return new Request(request.url, { method: request.method, headers: request.headers });
}

const pageCountsCache = new Map<string, BlogPageCounts | null>();

/** The blog list's page counts that a build wrote beside its pages (read once per build folder). */
function blogPageCounts(siteDir: string): BlogPageCounts | null {
  let real: string;
  try {
    real = fs.realpathSync(siteDir);
  } catch {
    return null;
  }
  if (!pageCountsCache.has(real)) {
    let counts: BlogPageCounts | null = null;
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(path.join(real, BLOG_PAGE_COUNTS_PATH), 'utf8'));
      if (typeof parsed === 'object' && parsed !== null && 'all' in parsed && 'categories' in parsed) {
        counts = { all: Number(parsed.all), categories: Object(parsed.categories) };
      }
    } catch {
      // A site built before the list had static pages: the browser-side forward still works.
    }
    pageCountsCache.set(real, counts);
  }
  return pageCountsCache.get(real) ?? null;
}

/** What the site's middleware shares: the release for this request and its folder (null: none yet). */
type SiteEnv = {
  Bindings: Partial<HttpBindings> | undefined;
  Variables: { release: ServedRelease | null; site: string | null };
};

export function createSiteApp({
  db,
  siteDir,
  deps,
  csp,
}: Pick<ServerOptions, 'db' | 'siteDir' | 'deps' | 'csp'>) {
  // One source for files and answers: within an instance both come from the same release.
  const release = deps?.release ?? liveReleaseSource(db);
  const api = createApp({ ...deps, db, release });
  const site = new Hono<SiteEnv>();

  site.use(async (c, next) => {
    const live = await release.current();
    c.set('release', live);
    c.set('site', live ? path.join(siteDir, live.folder) : null);
    // Which release answered, pages and API alike (set on the Node response, which costs nothing).
    if (live) c.env?.outgoing?.setHeader('X-Nestling-Release', String(live.id));
    await next();
  });
  site.use(closeIfBodyPending);
  site.use(securityHeaders(csp ?? {}));
  // The node-server environment goes along, so the API sees the client's socket address, and so
  // does the release this request was resolved to, so the API answers from the one its files show.
  const toApi = (c: Context<SiteEnv>) =>
    api.fetch(withoutEmptyBody(c.req.raw, c.env?.incoming), { ...c.env, release: c.var.release });
  site.all('/api/*', toApi);
  site.all('/api', toApi);
  site.use(async (c, next) => {
    if (!c.var.site) return c.text('Nestling has not been published yet: run npm run publish.', 503);
    await next();
  });
  // Pages the build did not precompress. Not the API: its read cache keeps hot answers compressed,
  // and compressing (or even inspecting, as compress() does) every small JSON answer costs more
  // than it saves.
  site.use(compress());

  site.get('/privacy', (c) => c.redirect('/privacy-policy', 301));
  // Old `/blog?category=&page=` addresses go to their static page, for readers without JavaScript
  // too (the built /blog forwards the same way in the browser), using the page counts of the live build.
  site.get('/blog', (c, next) => {
    const counts = blogPageCounts(c.var.site!);
    const target = counts && blogQueryPath(new URL(c.req.url).search, counts);
    return target ? c.redirect(target, 301) : next();
  });
  // Page 1 of a list is the list itself.
  site.get('/blog/page/1', (c) => c.redirect('/blog', 301));
  site.get('/blog/category/:slug/page/1', (c) =>
    c.redirect(`/blog/category/${encodeURIComponent(c.req.param('slug'))}`, 301),
  );

  // Conditional GET for static files: the browser revalidates HTML with If-Modified-Since.
  site.use(async (c, next) => {
    await next();
    const lastModified = c.res.headers.get('Last-Modified');
    const since = c.req.header('If-Modified-Since');
    if (c.res.status === 200 && lastModified && since && Date.parse(since) >= Date.parse(lastModified)) {
      c.res = new Response(null, { status: 304, headers: c.res.headers });
    }
  });
  site.use('*', (c, next) =>
    serveStatic({
      root: c.var.site!,
      precompressed: true,
      onFound: (file, ctx) => {
        ctx.header('Cache-Control', cacheControlFor(file));
      },
    })(c, next),
  );

  // Unknown posts get the blog's 'Post Not Found' page, anything else the site's 404 screen;
  // both with a real 404 status.
  site.notFound((c) => {
    const root = c.var.site!;
    const candidates = c.req.path.startsWith('/blog/')
      ? [path.join(root, 'blog', '404.html'), path.join(root, 'blog', '404', 'index.html')]
      : [];
    candidates.push(path.join(root, '404.html'));
    const page = candidates.find((file) => fs.existsSync(file));
    c.header('Cache-Control', 'public, no-cache');
    if (page) return c.html(fs.readFileSync(page, 'utf8'), 404);
    return c.text('404 Page Not Found', 404);
  });
  return site;
}

export function startServer(options: ServerOptions): Promise<RunningServer> {
  const views = options.deps?.views ?? createViewBuffer(options.db);
  const site = createSiteApp({ ...options, deps: { ...options.deps, views } });
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: site.fetch, hostname: options.host, port: options.port },
      (info: AddressInfo) => {
        const host = info.address.includes(':') ? `[${info.address}]` : info.address;
        let closing: Promise<void> | undefined;
        resolve({
          url: `http://${host}:${info.port}`,
          port: info.port,
          close: () =>
            (closing ??= new Promise<void>((done) => {
              server.close(() => {
                // Views still waiting are written before the database closes.
                void views
                  .flush()
                  .then(() => options.db.destroy())
                  .then(done, done);
              });
              // Idle keep-alive sockets would hold close() open; in-flight requests still finish.
              if ('closeIdleConnections' in server) server.closeIdleConnections();
            })),
        });
      },
    );
    server.once('error', reject);
  });
}
