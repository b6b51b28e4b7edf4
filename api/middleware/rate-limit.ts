import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
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

/** A fixed-window counter per key, in this process's memory. */
export function createMemoryRateLimiter(options: {
  limit: number;
  windowMs: number;
  now?: () => number;
}): RateLimiter {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; count: number }>();
  return {
    async hit(key) {
      const t = now();
      let window = windows.get(key);
      if (!window || t - window.start >= options.windowMs) {
        // Drop stale windows now and then so the map cannot grow without bound.
        if (windows.size > 10_000) {
          for (const [k, w] of windows) if (t - w.start >= options.windowMs) windows.delete(k);
        }
        window = { start: t, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count <= options.limit) return { allowed: true, retryAfterSeconds: 0 };
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((window.start + options.windowMs - t) / 1000)),
      };
    },
    async refund(key) {
      const window = windows.get(key);
      if (window && window.count > 0) window.count -= 1;
    },
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
