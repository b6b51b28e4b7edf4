import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { type Http2Bindings, type HttpBindings, serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import type { AppDeps } from './app.ts';
import type { DB } from './db/database.ts';
import { redirectTarget } from './db/queries/redirects.ts';
import type { ServedRelease } from './db/queries/releases.ts';
import { liveReleaseSource } from './lib/live-release.ts';
import { storageFailure } from './lib/storage-failure.ts';
import { createThreadHub } from './lib/thread-events.ts';
import { RELEASE_BOOKKEEPING } from './lib/release-files.ts';
import { createViewBuffer } from './lib/view-buffer.ts';
import { createRateLimiters } from './middleware/rate-limit.ts';
import { createHealth } from './node/health.ts';
import { createServedApi } from './node/served-api.ts';
import { BLOG_PAGE_COUNTS_PATH, type BlogPageCounts, blogQueryPath } from './contract/blog-paths.ts';
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
  /**
   * Answers /api/health/ready 503 at once; if a load balancer has been checking it, serves on until
   * it has been told twice (at most 3 s). Then stops accepting connections, lets in-flight requests
   * finish, ends open streams, and closes the database once `after` (the instance's workers
   * stopping) has settled too.
   */
  close: (options?: { after?: Promise<unknown> }) => Promise<void>;
}

/** Hashed build assets never change; everything else is revalidated on every visit. */
function cacheControlFor(file: string): string {
  if (file.includes(`${path.sep}_astro${path.sep}`)) return 'public, max-age=31536000, immutable';
  return 'public, no-cache';
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

/** The site's files and the API on one port. */
export function createSite({
  db,
  siteDir,
  deps,
  csp,
}: Pick<ServerOptions, 'db' | 'siteDir' | 'deps' | 'csp'>) {
  // One source for files and answers: within an instance both come from the same release.
  const release = deps?.release ?? liveReleaseSource(db);
  const api = createServedApi({ ...deps, db, release, siteDir });
  const health = createHealth({ db, release });
  const site = new Hono<SiteEnv>();

  site.use(async (c, next) => {
    const live = await release.current();
    c.set('release', live);
    c.set('site', live ? path.join(siteDir, live.folder) : null);
    // Which release's files these are (set on the Node response, which costs nothing).
    if (live) c.env?.outgoing?.setHeader('X-Nestling-Release', String(live.id));
    await next();
  });
  site.use(securityHeaders(csp ?? {}));
  // The database down before this instance has read any release (once it has, the release it
  // knows keeps serving: api/lib/live-release.ts): a plain 503, never a 500.
  site.onError((error, c) => {
    const failure = storageFailure(error);
    if (!failure) {
      console.error(error);
      return c.text('Internal Server Error', 500);
    }
    c.header('Retry-After', String(failure.retryAfter));
    return c.text(failure.message, failure.status);
  });
  site.use(async (c, next) => {
    if (!c.get('site')) return c.text('Nestling has not been published yet: run npm run publish.', 503);
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
    const counts = blogPageCounts(c.get('site')!);
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
  // The release's bookkeeping is for this server and the publisher (api/lib/release-files.ts).
  for (const file of RELEASE_BOOKKEEPING) site.get(`/${file}*`, (c) => c.notFound());
  site.use('*', (c, next) =>
    serveStatic({
      root: c.get('site')!,
      precompressed: true,
      onFound: (file, ctx) => {
        ctx.header('Cache-Control', cacheControlFor(file));
      },
    })(c, next),
  );

  // A published post's old address forwards to its new one, from the release in which the page
  // under the new slug is live (docs/product.md, "The studio"). Other unknown posts get the
  // blog's 'Post Not Found' page, anything else the site's 404 screen; both with a real 404 status.
  site.notFound(async (c) => {
    const oldSlug = OLD_POST_ADDRESS.exec(c.req.path)?.[1];
    const live = c.get('release');
    const target = oldSlug && live ? await redirectTarget(db, live, oldSlug) : null;
    if (target) {
      // Revalidated like a page: the address may take another post, or forward elsewhere, later.
      c.header('Cache-Control', 'public, no-cache');
      return c.redirect(`/blog/${target}${new URL(c.req.url).search}`, 301);
    }
    const root = c.get('site')!;
    const candidates = c.req.path.startsWith('/blog/')
      ? [path.join(root, 'blog', '404.html'), path.join(root, 'blog', '404', 'index.html')]
      : [];
    candidates.push(path.join(root, '404.html'));
    const page = candidates.find((file) => fs.existsSync(file));
    c.header('Cache-Control', 'public, no-cache');
    if (page) return c.html(fs.readFileSync(page, 'utf8'), 404);
    return c.text('404 Page Not Found', 404);
  });
  /**
   * API requests go straight to the API app (the site's middleware is for files), with the
   * node-server environment, so the API sees the client's socket address.
   */
  const fetch = (request: Request, env: HttpBindings | Http2Bindings) =>
    health.handles(env.incoming.url)
      ? health.fetch(request)
      : isApiPath(env.incoming.url)
        ? api.fetch(request, env)
        : site.fetch(request, env);
  return { fetch, health };
}

/** A post page's address (with or without its trailing slash): /blog/<slug>. */
const OLD_POST_ADDRESS = /^\/blog\/([a-z0-9]+(?:-[a-z0-9]+)*)\/?$/;

/** `/api` and everything under it, as the request line names it. */
function isApiPath(url: string | undefined): boolean {
  if (url === undefined || !url.startsWith('/api')) return false;
  const next = url.charAt(4);
  return next === '' || next === '/' || next === '?';
}

export function startServer(options: ServerOptions): Promise<RunningServer> {
  // What the API writes in batches, so a stop can write what still waits.
  const views = options.deps?.views ?? createViewBuffer(options.db);
  const viewLimiter = options.deps?.viewLimiter ?? createRateLimiters(options.db).viewLimiter;
  // Open thread streams; without a listening one passed in (scripts/start.ts on PostgreSQL), this
  // instance's own writes reach them at once and other processes' within the hub's poll.
  const threads = options.deps?.threads ?? createThreadHub({ db: options.db });
  void threads.start().catch((error: Error) => console.error('Live threads did not start:', error.message));
  const site = createSite({ ...options, deps: { ...options.deps, views, viewLimiter, threads } });
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: site.fetch, hostname: options.host, port: options.port },
      (info: AddressInfo) => {
        const host = info.address.includes(':') ? `[${info.address}]` : info.address;
        let closing: Promise<void> | undefined;
        resolve({
          url: `http://${host}:${info.port}`,
          port: info.port,
          close: (how = {}) =>
            (closing ??= new Promise<void>((done) => {
              // Load balancers' readiness checks see the stop at once.
              site.health.stop();
              // One that was checking gets the time to take this instance out before the listener
              // closes: a connection it opened or reused in that moment would be reset, and a
              // write on it fail (tests/api/load-balancer.test.ts).
              void site.health.drained().then(() => {
                // Idle keep-alive sockets would hold close() open until they time out (65 s); in-flight
                // requests still finish. A response can finish just after the client has read it all
                // (a file is streamed, and its end comes a tick later), leaving its connection idle
                // but open: so idle connections are closed again until the last one has gone.
                // A connection that has not sent a request yet (a browser's preconnect, a client's
                // spare) is not idle to Node: it would hold close() open until the headers timeout.
                const closeIdle = () => {
                  if ('closeIdleConnections' in server) server.closeIdleConnections();
                  for (const socket of unused) socket.destroy();
                };
                const sweep = setInterval(closeIdle, 20);
                // Open streams never finish by themselves: they end first (pages reconnect elsewhere).
                const streamsClosed = threads.close();
                server.close(() => {
                  clearInterval(sweep);
                  // Views (and their counts) still waiting are written before the database closes.
                  void Promise.all([
                    views.flush(),
                    viewLimiter.flush(),
                    streamsClosed,
                    how.after?.catch(() => undefined),
                  ])
                    .then(() => options.db.destroy())
                    .then(done, done);
                });
                closeIdle();
              });
            })),
        });
      },
    );
    const unused = new Set<Socket>();
    server.on('connection', (socket: Socket) => {
      unused.add(socket);
      socket.once('close', () => unused.delete(socket));
    });
    server.on('request', (req: IncomingMessage) => unused.delete(req.socket));
    // Idle connections outlive those of clients (Node's fetch keeps one 4 s) and load balancers
    // (often 60 s), so the client always gives up first and never sends a request on a socket the
    // server is closing at that moment (Node's default of 5 s races fetch under load).
    if ('keepAliveTimeout' in server) {
      server.keepAliveTimeout = 65_000;
      server.headersTimeout = 66_000;
    }
    server.once('error', reject);
  });
}
