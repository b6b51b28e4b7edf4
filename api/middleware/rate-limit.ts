import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { DB } from '../db/database.ts';
import { countAttempt, forgetEndedWindows, refundAttempt } from '../db/queries/rate-limits.ts';
import type { AppDeps, AppEnv, UserEnv } from '../types.ts';
import { clientAddress } from './client-address.ts';

export interface RateDecision {
  allowed: boolean;
  /** How long to wait before the next attempt is allowed (0 when allowed). */
  retryAfterSeconds: number;
}

/** Counts attempts per key in fixed windows. */
export interface RateLimiter {
  /** Counts one attempt and says whether it is allowed. */
  hit: (key: string) => Promise<RateDecision>;
  /** Gives back one attempt, for a request that was refused for another reason and stored nothing. */
  refund: (key: string) => Promise<void>;
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
  let forgotAt = -Infinity;
  return {
    async hit(key) {
      const t = now();
      // Ended windows are cleared now and then, so the table cannot grow without bound.
      if (t - forgotAt >= windowMs) {
        forgotAt = t;
        await forgetEndedWindows(db, scope, t - windowMs);
      }
      const window = await countAttempt(db, { scope, key, now: t, windowMs });
      if (window.hits <= limit) return { allowed: true, retryAfterSeconds: 0 };
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((window.start + windowMs - t) / 1000)),
      };
    },
    refund: (key) => refundAttempt(db, scope, key),
  };
}

/** The app's three limiters (AppDeps), each counting per minute. */
export function createRateLimiters(
  db: DB,
  perMinute: { comments: number; writes: number; reports: number },
): Pick<AppDeps, 'commentLimiter' | 'writeLimiter' | 'reportLimiter'> {
  const limiter = (scope: string, limit: number) => createRateLimiter(db, { scope, limit, windowMs: 60_000 });
  return {
    commentLimiter: limiter('comments', perMinute.comments),
    writeLimiter: limiter('writes', perMinute.writes),
    reportLimiter: limiter('reports', perMinute.reports),
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
    const limiter = options.limiter(c.var.deps);
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
    key: (c) => `${kind}:${c.var.user.uid}`,
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
