import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { AccountsUnavailableError, NO_ACCOUNTS } from './auth/accounts.ts';
import { InvalidTokenError } from './auth/verifier.ts';
import { COMMENTS_PER_MINUTE, MAX_BODY_BYTES, REPORTS_PER_MINUTE, WRITES_PER_MINUTE } from './contract.ts';
import { RuleError } from './lib/errors.ts';
import { liveReleaseSource } from './lib/live-release.ts';
import { createViewBuffer } from './lib/view-buffer.ts';
import { createRateLimiters } from './middleware/rate-limit.ts';
import { readCache } from './middleware/read-cache.ts';
import { accountRoutes } from './routes/account.ts';
import { adminRoutes } from './routes/admin.ts';
import { commentRoutes } from './routes/comments.ts';
import { communityRoutes } from './routes/community.ts';
import { itemsRoutes } from './routes/items.ts';
import { moderationRoutes } from './routes/moderation.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { postRoutes } from './routes/posts.ts';
import { profileRoutes } from './routes/profile.ts';
import { reportRoutes } from './routes/reports.ts';
import type { AppDeps, AppEnv } from './types.ts';

export type { AppDeps } from './types.ts';

/** The one write that takes a form body rather than JSON (api/routes/notifications.ts). */
const ONE_CLICK_PATH = '/api/notifications/one-click';

const notConfigured = async (): Promise<never> => {
  throw new InvalidTokenError('sign-in is not configured for this app');
};

/** The whole API as a Hono app. api/server.ts serves it; the Astro build calls it in-process. */
export function createApp(input: Partial<AppDeps> & Pick<AppDeps, 'db'>) {
  const deps: AppDeps = {
    now: () => new Date(),
    verifyToken: notConfigured,
    ...createRateLimiters(input.db, {
      comments: COMMENTS_PER_MINUTE,
      writes: WRITES_PER_MINUTE,
      reports: REPORTS_PER_MINUTE,
    }),
    // The product's defaults; the server takes them from the environment (api/env.ts).
    safety: { holdFirstComment: true, escalationUrl: null, siteUrl: 'http://127.0.0.1:4321' },
    mail: {
      siteName: 'Nestling',
      siteUrl: 'http://127.0.0.1:4321',
      privacyEmail: 'privacy@nestling.example',
      transport: 'outbox',
    },
    // The build never erases anyone; the server passes Firebase's accounts (api/auth/accounts.ts).
    accounts: NO_ACCOUNTS,
    views: input.views ?? createViewBuffer(input.db),
    release: input.release ?? liveReleaseSource(input.db),
    ...input,
  };

  const app = new Hono<AppEnv>()
    .basePath('/api')
    .use(async (c, next) => {
      c.set('deps', deps);
      // One release per request: the one the server resolved for it, else the source's current one.
      const resolved = c.env?.release;
      c.set('release', resolved !== undefined ? resolved : await deps.release.current());
      await next();
    })
    .use(deps.readCacheMs ? readCache({ ttlMs: deps.readCacheMs }) : (_c, next) => next())
    .use(
      bodyLimit({
        maxSize: MAX_BODY_BYTES,
        onError: (c) => c.json({ error: `Request body too large: at most ${MAX_BODY_BYTES} bytes` }, 413),
      }),
    )
    // Bodies are JSON only: a form post from another site cannot reach a write.
    .use(async (c, next) => {
      const declared = c.req.header('Content-Length');
      const hasBody = declared !== undefined ? declared !== '0' : c.req.raw.body !== null;
      const type = c.req.header('Content-Type') ?? '';
      // Mail clients' one-click unsubscribe posts a form (RFC 8058); its token is its authority.
      const form =
        c.req.path === ONE_CLICK_PATH &&
        /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type);
      if (hasBody && !form && !/^application\/json\s*(;|$)/i.test(type)) {
        return c.json({ error: 'Content-Type must be application/json' }, 415);
      }
      await next();
    })
    .route('/items', itemsRoutes)
    .route('/community', communityRoutes)
    .route('/blog', postRoutes)
    .route('/blog', commentRoutes)
    .route('/blog', reportRoutes)
    .route('/profile', profileRoutes)
    .route('/account', accountRoutes)
    .route('/notifications', notificationRoutes)
    .route('/admin', adminRoutes)
    .route('/moderation', moderationRoutes);

  app.notFound((c) => c.json({ error: `No such endpoint: ${c.req.method} ${c.req.path}` }, 404));
  app.onError((error, c) => {
    if (error instanceof HTTPException) {
      return c.json({ error: error.message || 'Request failed' }, error.status);
    }
    if (error instanceof RuleError) return c.json({ error: error.message }, error.status);
    if (error instanceof AccountsUnavailableError) return c.json({ error: error.message }, 503);
    // Never a stack trace in a response; the log keeps it.
    console.error(error);
    return c.json({ error: 'Internal server error' }, 500);
  });
  return app;
}

export type AppType = ReturnType<typeof createApp>;
