import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { COMMENTS_PER_MINUTE, REPORTS_PER_MINUTE, WRITES_PER_MINUTE } from '../contract.ts';
import type { DB } from '../db/database.ts';
import {
  addAttempts,
  countAttempt,
  findWindow,
  forgetEndedWindows,
  refundAttempt,
  type Window,
} from '../db/queries/rate-limits.ts';
import { withoutDiskSync } from '../db/dialect.ts';
import { createCountBatch } from '../lib/count-batch.ts';
import type { AppDeps, AppEnv, BufferedRateLimiter, RateDecision, RateLimiter, UserEnv } from '../types.ts';
import { clientAddress } from './client-address.ts';

/** The decision for a key with `hits` attempts (this one included) in the window begun at `start`. */
function decide(hits: number, start: number, t: number, limit: number, windowMs: number): RateDecision {
  if (hits <= limit) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - t) / 1000)) };
}

/** Clears a scope's ended windows at most once a window, so the table cannot grow without bound. */
function forgetNowAndThen(db: DB, scope: string, windowMs: number): (t: number) => Promise<void> {
  let forgotAt = -Infinity;
  return async (t) => {
    if (t - forgotAt < windowMs) return;
    forgotAt = t;
    await forgetEndedWindows(db, scope, t - windowMs);
  };
}

/**
 * A fixed-window counter per key, kept in the database (api/db/queries/rate-limits.ts), so every
 * server instance on one database counts the same attempts and a restart forgets nothing.
 * `scope` keeps the app's limiters apart.
 */
export function createRateLimiter(
  db: DB,
  options: { scope: string; limit: number; windowMs: number; now?: () => number },
): RateLimiter {
  const now = options.now ?? Date.now;
  const { scope, limit, windowMs } = options;
  const forget = forgetNowAndThen(db, scope, windowMs);
  return {
    async hit(key) {
      const t = now();
      await forget(t);
      const window = await countAttempt(db, { scope, key, now: t, windowMs });
      return decide(window.hits, window.start, t, limit, windowMs);
    },
    refund: (key) => refundAttempt(db, scope, key),
  };
}

/**
 * The same fixed windows and rows as createRateLimiter, for attempts that come too often to write
 * one by one (the view beacon every post visit sends): attempts are counted in memory and added to
 * the key's row at most flushAfterMs later, in one transaction for all keys. A key's stored window
 * is read once per flushAfterMs and the attempts counted here since are added to it, so this
 * instance never lets a key past its limit; other instances' attempts show within flushAfterMs,
 * so several instances together can let a key past its limit for that long (docs/product.md,
 * "Abuse limits"). A hard crash forgets at most flushAfterMs of attempts, as it does views.
 */
export function createBufferedRateLimiter(
  db: DB,
  options: { scope: string; limit: number; windowMs: number; flushAfterMs?: number; now?: () => number },
): BufferedRateLimiter {
  const now = options.now ?? Date.now;
  const { scope, limit, windowMs } = options;
  const flushAfterMs = options.flushAfterMs ?? 1_000;
  /** Each key's window as last stored (read, or answered by the last write), and when. */
  const stored = new Map<string, Window & { at: number }>();
  const forget = forgetNowAndThen(db, scope, windowMs);
  const attempts = createCountBatch<string>({
    flushAfterMs,
    what: 'rate-limit counts',
    write: async (counts) => {
      const t = now();
      await forget(t);
      const written = await withoutDiskSync(db, (d) =>
        d.transaction().execute(async (trx) => {
          const windows: [string, Window][] = [];
          for (const [key, count] of counts) {
            windows.push([key, await addAttempts(trx, { scope, key, now: t, windowMs, count })]);
          }
          return windows;
        }),
      );
      for (const [key, window] of written) stored.set(key, { ...window, at: t });
      // Keys not seen for a whole window have nothing left to limit.
      for (const [key, known] of stored) if (known.at <= t - windowMs) stored.delete(key);
    },
  });

  async function storedWindow(key: string, t: number): Promise<Window> {
    let known = stored.get(key);
    // Read again once it may be stale, unless this key's attempts are being written right now
    // (the row may or may not hold them yet).
    if (!known || (t - known.at >= flushAfterMs && !attempts.isWriting(key))) {
      const row = await findWindow(db, { scope, key, now: t, windowMs });
      known = { ...(row ?? { hits: 0, start: t }), at: t };
      stored.set(key, known);
    }
    // A window that ended since it was read starts anew (the write does the same).
    return known.start <= t - windowMs ? { hits: 0, start: t } : known;
  }

  return {
    async hit(key) {
      const t = now();
      const window = await storedWindow(key, t);
      attempts.add(key);
      return decide(window.hits + attempts.pending(key), window.start, t, limit, windowMs);
    },
    async refund(key) {
      if (!attempts.takeBack(key)) await refundAttempt(db, scope, key);
    },
    flush: attempts.flush,
  };
}

/** The product's limits per minute (docs/product.md, "Abuse limits"); the server reads its own. */
/**
 * Uploads an editor may make in a minute. Each one takes about a second of both cores, so this is
 * far below the other writes' limit; a post's photos still go up in one go.
 */
export const IMAGE_UPLOADS_PER_MINUTE = 30;

export const DEFAULT_LIMITS = {
  comments: COMMENTS_PER_MINUTE,
  writes: WRITES_PER_MINUTE,
  reports: REPORTS_PER_MINUTE,
};

/** The app's limiters (AppDeps), each counting per minute. */
export function createRateLimiters(
  db: DB,
  perMinute: { comments: number; writes: number; reports: number } = DEFAULT_LIMITS,
): Pick<AppDeps, 'commentLimiter' | 'writeLimiter' | 'reportLimiter' | 'viewLimiter' | 'imageLimiter'> {
  const limiter = (scope: string, limit: number) => createRateLimiter(db, { scope, limit, windowMs: 60_000 });
  return {
    commentLimiter: limiter('comments', perMinute.comments),
    imageLimiter: limiter('images', IMAGE_UPLOADS_PER_MINUTE),
    writeLimiter: limiter('writes', perMinute.writes),
    reportLimiter: limiter('reports', perMinute.reports),
    // Views count as writes, in batches of their own.
    viewLimiter: createBufferedRateLimiter(db, { scope: 'views', limit: perMinute.writes, windowMs: 60_000 }),
  };
}

interface RateLimitOptions<E extends AppEnv> {
  /** Which of the app's limiters counts this route. */
  limiter: (deps: AppDeps) => RateLimiter;
  /** What is counted: e.g. `like:<uid>` or `view:<address>`. */
  key: (c: Context<E>) => string;
  /** The 429 message, given the seconds to wait. */
  message: (seconds: number) => string;
}

/**
 * The one rate-limit check: 429 with Retry-After when the key is over its limit. A request that
 * is then refused for another reason (4xx: invalid, not found) stored nothing, so it gives its
 * attempt back.
 */
export function rateLimit<E extends AppEnv>(options: RateLimitOptions<E>) {
  return createMiddleware<E>(async (c, next) => {
    const limiter = options.limiter(c.get('deps'));
    const key = options.key(c);
    const decision = await limiter.hit(key);
    if (!decision.allowed) {
      c.header('Retry-After', String(decision.retryAfterSeconds));
      return c.json({ error: options.message(decision.retryAfterSeconds) }, 429);
    }
    await next();
    if (c.res.status >= 400 && c.res.status < 500) await limiter.refund(key);
  });
}

/** Counts a signed-in parent's writes of one kind (after requireUser). */
export function limitPerUser(kind: string, message: (seconds: number) => string) {
  return rateLimit<UserEnv>({
    limiter: (deps) => deps.writeLimiter,
    key: (c) => `${kind}:${c.get('user').uid}`,
    message,
  });
}

/** Counts anonymous writes of one kind per client address. */
export function limitPerAddress(kind: string, message: (seconds: number) => string) {
  return rateLimit<AppEnv>({
    limiter: (deps) => deps.writeLimiter,
    key: (c) => `${kind}:${clientAddress(c)}`,
    message,
  });
}

export const tooQuickly = (what: string) => (seconds: number) =>
  `Too many ${what} in a short time. Try again in ${seconds} s.`;

/** Counts view beacons per client address (the buffered limiter: a beacon writes nothing itself). */
export const limitViews = rateLimit<AppEnv>({
  limiter: (deps) => deps.viewLimiter,
  key: (c) => clientAddress(c),
  message: tooQuickly('views'),
});
