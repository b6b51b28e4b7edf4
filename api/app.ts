import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { AccountsUnavailableError, NO_ACCOUNTS } from './auth/accounts.ts';
import { InvalidTokenError } from './auth/verifier.ts';
import { DEFAULT_PRIVACY_EMAIL, DEFAULT_SITE_NAME, DEFAULT_SITE_URL, MAX_BODY_BYTES } from './contract.ts';
import { LISTINGS_BODY_MAX_BYTES } from './contract/screening.ts';
import { IMAGE_MAX_BYTES, STUDIO_MAX_BODY_BYTES } from './contract/studio.ts';
import { RuleError } from './lib/errors.ts';
import { createFailureLog, storageFailure } from './lib/storage-failure.ts';
import { liveReleaseSource } from './lib/live-release.ts';
import { createViewBuffer } from './lib/view-buffer.ts';
import { createRateLimiters } from './middleware/rate-limit.ts';
import { closeIfBodyPending } from './middleware/connection.ts';
import { declaredBody } from './middleware/node-body.ts';
import { apiSecurityHeaders, isHttps } from './middleware/security-headers.ts';
import { accountRoutes } from './routes/account.ts';
import { adminRoutes } from './routes/admin.ts';
import { commentRoutes } from './routes/comments.ts';
import { communityRoutes } from './routes/community.ts';
import { itemsRoutes } from './routes/items.ts';
import { listingModerationRoutes } from './routes/listing-moderation.ts';
import { listingRoutes } from './routes/listings.ts';
import { moderationRoutes } from './routes/moderation.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { postRoutes } from './routes/posts.ts';
import { profileRoutes } from './routes/profile.ts';
import { recallRoutes } from './routes/recalls.ts';
import { favouriteRoutes } from './routes/favourites.ts';
import { savedSearchRoutes } from './routes/saved-searches.ts';
import { statsRoutes } from './routes/stats.ts';
import { reportRoutes } from './routes/reports.ts';
import { imageRoutes, imageUploadRoutes } from './routes/images.ts';
import { studioRoutes } from './routes/studio.ts';
import { studioPreviewRoutes } from './routes/studio-preview.ts';
import { isThreadStreamPath, threadStreamRoutes } from './routes/thread-stream.ts';
import type { AppDeps, AppEnv } from './types.ts';

export type { AppDeps } from './types.ts';

/** Every write that changes a thread's comments drops this answer (api/routes/comments.ts). */
const THREADS_ANSWER = '/api/blog/threads';

/** The writes that take a form body rather than JSON: mail clients' one-click unsubscribe (RFC 8058). */
const ONE_CLICK_PATHS = new Set([
  '/api/notifications/one-click',
  '/api/saved-searches/one-click',
  '/api/favourites/alerts/one-click',
]);
/** The image upload takes a multipart body: the file and its alt text (api/routes/images.ts). */
const IMAGE_UPLOAD_PATH = '/api/studio/images';
/** The marketplace's listing intake (api/routes/listings.ts). */
const LISTINGS_PATH = '/api/listings';

function limitTo(maxSize: number, what?: string) {
  const refuse = (c: Context) =>
    c.json({ error: `Request body too large: at most ${maxSize} bytes${what ? ` for ${what}` : ''}` }, 413);
  return { maxSize, refuse, middleware: bodyLimit({ maxSize, onError: refuse }) };
}
const limitBody = limitTo(MAX_BODY_BYTES);
// A studio save carries a whole post; an upload, an image of up to IMAGE_MAX_BYTES and its form fields.
const limitStudioBody = limitTo(STUDIO_MAX_BODY_BYTES, 'a post');
const limitUpload = limitTo(IMAGE_MAX_BYTES + 64 * 1024, 'an image upload');
// The marketplace sends up to LISTINGS_PER_REQUEST_MAX listings at once.
const limitListings = limitTo(LISTINGS_BODY_MAX_BYTES, 'listings');

function bodyLimitFor(path: string) {
  if (path === IMAGE_UPLOAD_PATH) return limitUpload;
  if (path === LISTINGS_PATH) return limitListings;
  return path.startsWith('/api/studio/') ? limitStudioBody : limitBody;
}

/**
 * Whether a request comes without a body: GET and HEAD, and an HTTP message that declares none
 * (`Content-Length: 0` as a view beacon sends, or neither a length nor chunks). The headers answer
 * because asking the request itself (`c.req.raw.body`, as bodyLimit does) makes @hono/node-server
 * build a full Request with a body stream, which was most of the cost of a view. A request made
 * in-process (app.request) declares no length, so it is asked.
 */
function hasNoBody(c: Context<AppEnv>): boolean {
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD') return true;
  const length = c.req.header('Content-Length');
  if (length === undefined && !c.get('deps').http) return c.req.raw.body === null;
  return (length === undefined || length === '0') && c.req.header('Transfer-Encoding') === undefined;
}

/**
 * Headers on every API answer: security headers, and which release answered (the server's pages
 * say the same). The server serving the app may put them on its own response (HttpServing); an
 * answer the read cache keeps is always made with them, so it is given again exactly as it was.
 */
function answerHeaders(c: Context<AppEnv>): void {
  const { http } = c.get('deps');
  const onServer = http !== undefined && !c.get('kept');
  const set = (name: string, value: string) =>
    onServer ? http.setHeader(c, name, value) : c.header(name, value);
  for (const [name, value] of apiSecurityHeaders(isHttps(c))) set(name, value);
  const release = c.get('release');
  if (release) set('X-Nestling-Release', String(release.id));
}

/** One line a second while the database cannot answer, however many requests fail. */
const logStorageFailure = createFailureLog();

const notConfigured = async (): Promise<never> => {
  throw new InvalidTokenError('sign-in is not configured for this app');
};

/** The whole API as a Hono app. api/server.ts serves it; the Astro build calls it in-process. */
export function createApp(input: Partial<AppDeps> & Pick<AppDeps, 'db'>) {
  const deps: AppDeps = {
    now: () => new Date(),
    verifyToken: notConfigured,
    ...createRateLimiters(input.db),
    // The product's defaults; the server takes them from the environment (api/env.ts).
    safety: { holdFirstComment: true, escalationUrl: null, siteUrl: DEFAULT_SITE_URL },
    mail: {
      siteName: DEFAULT_SITE_NAME,
      siteUrl: DEFAULT_SITE_URL,
      privacyEmail: DEFAULT_PRIVACY_EMAIL,
      transport: 'outbox',
    },
    // The build never erases anyone; the server passes Firebase's accounts (api/auth/accounts.ts).
    accounts: NO_ACCOUNTS,
    listings: { token: null },
    views: input.views ?? createViewBuffer(input.db),
    release: input.release ?? liveReleaseSource(input.db),
    ...input,
  };

  const cache = deps.readCache;
  const app = new Hono<AppEnv>()
    .basePath('/api')
    .use(closeIfBodyPending)
    .use(async (c, next) => {
      c.set('deps', deps);
      // One release per request; the server's pages come from the same source, so they agree.
      c.set('release', await deps.release.current());
      await next();
    })
    // An answer the cache keeps was made with the headers below, so a cached answer is given as
    // it was kept, with no work per request for its headers. Nothing before this may change an
    // answer the cache keeps: the server gives kept answers before the app runs at all
    // (api/node/served-api.ts), and tests/api/kept-answers.test.ts checks both are the same.
    // A thread's stream is never kept (it does not end): it goes past the cache.
    .use(
      cache
        ? (c, next) => (isThreadStreamPath(c.req.path) ? next() : cache.middleware(c, next))
        : (_c, next) => next(),
    )
    // A write that changed a thread: this instance's open streams get it now, the others' are told.
    .use(async (c, next) => {
      await next();
      const method = c.req.method;
      if (!deps.threads || method === 'GET' || method === 'HEAD' || c.res.status >= 400) return;
      const changed = c.get('changed');
      if (changed === undefined || changed.includes(THREADS_ANSWER)) deps.threads.written();
    })
    .use(async (c, next) => {
      answerHeaders(c);
      await next();
    })
    .use(async (c, next) => {
      if (hasNoBody(c)) return next();
      const limit = bodyLimitFor(c.req.path);
      // A served request that declares its length is judged by it, without asking the web Request
      // for its body (api/middleware/node-body.ts reads it from the Node request).
      const declared = declaredBody(c);
      if (!declared) return limit.middleware(c, next);
      if (declared.length > limit.maxSize) return limit.refuse(c);
      await next();
    })
    // Bodies are JSON only: a form post from another site cannot reach a write.
    .use(async (c, next) => {
      const type = c.req.header('Content-Type') ?? '';
      // Mail clients' one-click unsubscribe posts a form (RFC 8058); its token is its authority.
      const form =
        (ONE_CLICK_PATHS.has(c.req.path) &&
          /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) ||
        (c.req.path === IMAGE_UPLOAD_PATH && /^multipart\/form-data\b/i.test(type));
      if (!hasNoBody(c) && !form && !/^application\/json\s*(;|$)/i.test(type)) {
        return c.json({ error: 'Content-Type must be application/json' }, 415);
      }
      await next();
    })
    .route('/items', itemsRoutes)
    .route('/community', communityRoutes)
    .route('/blog', postRoutes)
    .route('/blog', commentRoutes)
    .route('/blog', threadStreamRoutes)
    .route('/blog', reportRoutes)
    .route('/profile', profileRoutes)
    .route('/account', accountRoutes)
    .route('/notifications', notificationRoutes)
    .route('/admin', adminRoutes)
    .route('/moderation/listings', listingModerationRoutes)
    .route('/moderation', moderationRoutes)
    .route('/listings', listingRoutes)
    .route('/recalls', recallRoutes)
    .route('/studio', studioRoutes)
    .route('/studio/posts', studioPreviewRoutes)
    .route('/studio/images', imageUploadRoutes)
    .route('/images', imageRoutes)
    .route('/favourites', favouriteRoutes)
    .route('/saved-searches', savedSearchRoutes)
    .route('/stats', statsRoutes);

  app.notFound((c) => c.json({ error: `No such endpoint: ${c.req.method} ${c.req.path}` }, 404));
  app.onError((error, c) => {
    // An error before the headers' middleware (reading the live release) still gets them.
    answerHeaders(c);
    if (error instanceof HTTPException) {
      return c.json({ error: error.message || 'Request failed' }, error.status);
    }
    if (error instanceof RuleError) return c.json({ error: error.message }, error.status);
    if (error instanceof AccountsUnavailableError) return c.json({ error: error.message }, 503);
    // The database down, restarting or out of space: the server's condition, said plainly.
    const failure = storageFailure(error);
    if (failure) {
      logStorageFailure(failure, `${c.req.method} ${c.req.path}`);
      c.header('Retry-After', String(failure.retryAfter));
      return c.json({ error: failure.message }, failure.status);
    }
    // Never a stack trace in a response; the log keeps it.
    console.error(error);
    return c.json({ error: 'Internal server error' }, 500);
  });
  return app;
}

export type AppType = ReturnType<typeof createApp>;
