import type { Identity, TokenVerifier } from './auth/verifier.ts';
import type { DB } from './db/database.ts';
import type { UserProfile } from './db/queries/profiles.ts';
import type { RateLimiter } from './middleware/rate-limit.ts';
import type { PublishService } from './publish-types.ts';

/** What the app needs from the outside world; tests and the build pass their own. */
export interface AppDeps {
  db: DB;
  /** The clock: decides which scheduled posts are live. */
  now: () => Date;
  /** Verifies ID tokens (firebase-admin in production, the Auth emulator in tests). */
  verifyToken: TokenVerifier;
  /** Limits writes per user (comments: 5 a minute). */
  commentLimiter: RateLimiter;
  writeLimiter: RateLimiter;
  /** The publishing pipeline, when this process runs one (the server does; the build does not). */
  publisher?: PublishService;
  /** Reuse anonymous read answers for this long (the server turns it on; tests and the build do not). */
  readCacheMs?: number;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    user?: Identity;
    profile?: UserProfile;
  };
}
