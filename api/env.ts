import { isIP } from 'node:net';
import { z } from 'zod';
import {
  COMMENTS_PER_MINUTE,
  DEFAULT_MARKETPLACE_URL,
  DEFAULT_PRIVACY_EMAIL,
  DEFAULT_SITE_NAME,
  DEFAULT_SITE_URL,
  REPORTS_PER_MINUTE,
  WRITES_PER_MINUTE,
} from './contract.ts';
import { isPostgresUrl } from './db/dialect.ts';

// Every variable the product reads, validated once at start-up. A bad value stops start-up
// with a message that names the variable (see .env.example for working local values).
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  DATABASE_PATH: z.string().min(1).default('./data/nestling.db'),
  /** A PostgreSQL server (postgres://user:password@host:port/database); when set, DATABASE_PATH is not used. */
  DATABASE_URL: z
    .string()
    .refine(isPostgresUrl, { error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  /** The editors' content folder (posts, items, categories). */
  CONTENT_DIR: z.string().min(1).default('./content'),
  /** Where the built site lives; tests point it at a temporary folder. */
  SITE_DIR: z.string().min(1).default('./dist'),
  PUBLIC_SITE_NAME: z.string().min(1).default(DEFAULT_SITE_NAME),
  PUBLIC_SITE_URL: z.url().default(DEFAULT_SITE_URL),
  PUBLIC_MARKETPLACE_URL: z.url().default(DEFAULT_MARKETPLACE_URL),
  PUBLIC_FIREBASE_API_KEY: z.string().min(1).default('demo-nestling-key'),
  PUBLIC_FIREBASE_AUTH_DOMAIN: z.string().min(1).default('demo-nestling.firebaseapp.com'),
  PUBLIC_FIREBASE_PROJECT_ID: z.string().min(1).default('demo-nestling'),
  PUBLIC_FIREBASE_APP_ID: z.string().min(1).default('demo-nestling-app'),
  FIREBASE_PROJECT_ID: z.string().min(1).default('demo-nestling'),
  FIREBASE_AUTH_EMULATOR_HOST: z.string().optional(),
  PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: z.string().optional(),
  PUBLIC_DELETION_FORM_ACCOUNT_ID: z.string().optional(),
  PUBLIC_DELETION_FORM_ID: z.string().optional(),
  /** Abuse limits: comments, other writes and reports a minute per parent (docs/product.md). */
  RATE_LIMIT_COMMENTS_PER_MINUTE: z.coerce.number().int().min(1).default(COMMENTS_PER_MINUTE),
  RATE_LIMIT_WRITES_PER_MINUTE: z.coerce.number().int().min(1).default(WRITES_PER_MINUTE),
  RATE_LIMIT_REPORTS_PER_MINUTE: z.coerce.number().int().min(1).default(REPORTS_PER_MINUTE),
  /** Where child-safety reports are escalated at once (a chat channel's or on-call service's webhook). */
  SAFETY_ESCALATION_URL: z.url().optional(),
  /** 1: a parent's first comment waits for a moderator; 0: it does not. */
  MODERATION_HOLD_FIRST: z
    .enum(['0', '1'], { error: 'must be 0 or 1' })
    .default('1')
    .transform((v) => v === '1'),
  /** A CDN host's build hook, POSTed after each successful publish sync. */
  PUBLISH_HOOK_URL: z.url().optional(),
  /** How often each instance looks for a scheduled post whose time has come, in seconds. */
  PUBLISH_TICK_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  PUBLIC_PRIVACY_EMAIL: z.email().default(DEFAULT_PRIVACY_EMAIL),
  /** Where mail goes (smtp://user:pass@host:port or smtps://…); unset: kept in the outbox at /admin/outbox. */
  SMTP_URL: z
    .url()
    .refine((url) => /^smtps?:\/\//i.test(url), 'must start with smtp:// or smtps://')
    .optional(),
  /** The public recall database's feed (CPSC Recalls JSON); when set, the server refreshes it once a day. */
  RECALLS_URL: z
    .url()
    .refine((url) => /^https?:\/\//i.test(url), 'must start with http:// or https://')
    .optional(),
  /** The marketplace's shared secret for POST /api/listings; unset, the route does not exist (404). */
  LISTINGS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** The hosts listing photos are fetched from, comma-separated (e.g. "photos.example.com, *.cdn.example.com"). */
  LISTING_PHOTO_HOSTS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  /**
   * Load balancers whose X-Forwarded-For is believed, comma-separated IP addresses (e.g. HAProxy's
   * "127.0.0.1"): per-address limits then count the parent's address, not the balancer's.
   */
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every((a) => isIP(a) !== 0), 'must be IP addresses, comma-separated'),
  /** Photo analysis worker threads (each about one core and 500 MB while it works). */
  PHOTO_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  /** The From of every message, e.g. "Nestling <hello@example.com>". */
  MAIL_FROM: z.string().min(3).default('Nestling <no-reply@nestling.example>'),
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {}

/** Parses an environment (usually process.env); empty strings count as unset. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join('\n')}`);
  }
  return result.data;
}
