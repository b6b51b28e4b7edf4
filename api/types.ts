import type { Context, MiddlewareHandler } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { AccountDirectory } from './auth/accounts.ts';
import type { Identity, TokenVerifier } from './auth/verifier.ts';
import type { PublishRun, RolledBack, UserProfile } from './contract.ts';
import type { DB } from './db/database.ts';
import type { ServedRelease } from './db/queries/releases.ts';
import type { DeliveryWorker } from './lib/deliveries.ts';
import type { MailSettings } from './lib/emails.ts';
import type { ReleaseSource } from './lib/live-release.ts';
import type { ThreadHub } from './lib/thread-events.ts';
import type { ViewBuffer } from './lib/view-buffer.ts';

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

/** A limiter whose counts are written in batches; the server writes what waits before it stops. */
export interface BufferedRateLimiter extends RateLimiter {
  /** Writes the attempts counted since the last write now. */
  flush: () => Promise<void>;
}

/**
 * What a successful write changed, as API paths: an exact path (`/api/blog/posts`), or a path and
 * everything under it (`/api/blog/posts/some-slug/*`). Cached answers for those paths are dropped.
 * A write that names nothing drops every cached answer.
 */
export type Changed = string[];

/** What the API needs of the publisher; scripts/lib/publisher.ts implements it. */
export interface PublishService {
  /** Queues a run (or joins the queued one) and starts it when no instance is running one. */
  request: (trigger: string) => Promise<PublishRun>;
  /** Goes back to the previous release, pages and API together; audit-logged. */
  rollback: (actor: { uid: string | null; name: string }, reason: string | null) => Promise<RolledBack>;
}

export interface SafetySettings {
  /** Whether a parent's first comment waits for a moderator (MODERATION_HOLD_FIRST). */
  holdFirstComment: boolean;
  /** Where child-safety reports are escalated (SAFETY_ESCALATION_URL); null: they wait in the queue. */
  escalationUrl: string | null;
  /** The public site's address, for the console link in escalations (PUBLIC_SITE_URL). */
  siteUrl: string;
}

/** What the app needs from the outside world; tests and the build pass their own. */
export interface AppDeps {
  db: DB;
  /** The clock. */
  now: () => Date;
  /** The release whose posts the API answers with: the live one, or the candidate a build renders. */
  release: ReleaseSource;
  /** Verifies ID tokens (firebase-admin in production, the Auth emulator in tests). */
  verifyToken: TokenVerifier;
  /** Limits comments per parent (the product rule: 5 a minute). */
  commentLimiter: RateLimiter;
  /** Limits other writes per parent or per address. */
  writeLimiter: RateLimiter;
  /** Limits image uploads per editor (each costs about a second of both cores). */
  imageLimiter: RateLimiter;
  /** Limits reports per parent. */
  reportLimiter: RateLimiter;
  /** Limits view beacons per address, counted in batches (the server writes them before it stops). */
  viewLimiter: BufferedRateLimiter;
  /** Load balancers whose X-Forwarded-For names the client (TRUSTED_PROXIES); none by default. */
  trustedProxies?: ReadonlySet<string>;
  /** Trust and safety settings (docs/product.md, "Trust and safety"). */
  safety: SafetySettings;
  /** The deliveries worker, when this process runs one: poked when an escalation or email is queued. */
  deliveries?: Pick<DeliveryWorker, 'poke'>;
  /** What emails say about the site, and where they go (docs/product.md, "Email"). */
  mail: MailSettings;
  /** The sign-in accounts, for erasure (Firebase's Admin SDK; the demo parent in demo mode). */
  accounts: AccountDirectory;
  /** Post views, written in batches. */
  views: ViewBuffer;
  /** The publishing pipeline, when this process runs one (the server does; the build does not). */
  publisher?: PublishService;
  /** SITE_DIR, when a server serves the built releases: the studio's preview uses the live build's page template. */
  siteDir?: string;
  /** Reuses anonymous read answers (api/middleware/read-cache.ts; the server turns it on). */
  readCache?: ReadCache;
  /** The HTTP server serving the app, when one does (api/node/served-api.ts); in-process use has none. */
  http?: HttpServing;
  /** The marketplace's listing intake (docs/product.md, "Listing screening"). */
  listings: ListingSettings;
  /** The photo analysis queue, when this process runs one: poked when photos are queued. */
  photoQueue?: { poke: () => void };
  /** Open thread streams (api/lib/thread-events.ts), when a server serves them; told of every write to a thread. */
  threads?: ThreadHub;
}

export interface ListingSettings {
  /** LISTINGS_TOKEN: the marketplace's shared secret; null turns POST /api/listings off (404). */
  token: string | null;
}

/**
 * What the server serving the app over HTTP does for it. A request that came over HTTP says in its
 * headers whether it has a body; an in-process one may not.
 */
export interface HttpServing {
  /**
   * Puts an answer's header on the server's own response instead of the answer, where that is
   * cheaper (docs/decisions/013). Never used for an answer the read cache keeps: that carries its own.
   */
  setHeader: (c: Context<AppEnv>, name: string, value: string) => void;
}

export interface ReadCache {
  /** Answers from the cache, makes and keeps what it lacks, and drops what writes change. */
  middleware: MiddlewareHandler<AppEnv>;
  /**
   * A kept, fresh answer to an anonymous GET, given before the app runs, or undefined when the
   * app has to answer. It is not a promise, so @hono/node-server writes it at once; through the
   * app's async middleware a kept answer cost about half as much again. `release` is the release
   * the app would answer from now, or undefined when that is not known without reading.
   */
  answer: (request: Request, release: ServedRelease | null | undefined) => Response | undefined;
}

export interface AppEnv {
  /** Served requests carry the Node request and response; in-process callers have none. */
  Bindings: Partial<HttpBindings> | undefined;
  Variables: {
    deps: AppDeps;
    /** The release this request is answered from (null before the first publish). */
    release: ServedRelease | null;
    /** What a write changed, for the read cache (api/middleware/read-cache.ts). */
    changed?: Changed;
    /** Set while the read cache makes an answer it may keep: its headers must be part of it. */
    kept?: boolean;
  };
}

/** The context after requireUser: a verified identity and its profile. */
export interface UserEnv extends AppEnv {
  Variables: AppEnv['Variables'] & {
    user: Identity;
    profile: UserProfile;
  };
}

/** The context after optionalUser: an identity when a valid token was sent. */
export interface MaybeUserEnv extends AppEnv {
  Variables: AppEnv['Variables'] & {
    user: Identity | null;
  };
}
