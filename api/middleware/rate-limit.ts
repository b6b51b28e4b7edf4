/** A fixed-window counter per key, in memory (one server process holds the whole site). */
export interface RateLimiter {
  /** Counts one hit; says whether it is allowed and, if not, how many seconds to wait. */
  hit: (key: string) => { allowed: boolean; retryAfterSeconds: number };
  /** Gives back one hit, for a request that was refused for another reason and stored nothing. */
  refund: (key: string) => void;
}

export function createRateLimiter(options: {
  limit: number;
  windowMs: number;
  now?: () => number;
}): RateLimiter {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key) {
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
    refund(key) {
      const window = windows.get(key);
      if (window && window.count > 0) window.count -= 1;
    },
  };
}
