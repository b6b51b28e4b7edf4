import { createMiddleware } from 'hono/factory';
import { isSignInRevoked } from '../auth/revocations.ts';
import type { Identity } from '../auth/verifier.ts';
import { canModerate } from '../contract.ts';
import { getOrCreateProfile } from '../db/queries/profiles.ts';
import { activeSuspension } from '../db/queries/suspensions.ts';
import type { AppDeps, MaybeUserEnv, UserEnv } from '../types.ts';

// The scheme is case-insensitive (RFC 9110 §11.1): `bearer` and `BEARER` are the same.
const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{1,4096})$/i;

type Verified = { identity: Identity } | { error: string };

const EXPIRED = 'Invalid or expired token: sign in again';

/** Verifies an Authorization header; null when none was sent. */
async function verify(header: string | undefined, deps: AppDeps): Promise<Verified | null> {
  if (header === undefined) return null;
  const match = BEARER.exec(header);
  if (!match?.[1]) return { error: 'Authentication required: malformed Authorization header' };
  let identity: Identity;
  try {
    identity = await deps.verifyToken(match[1]);
  } catch {
    return { error: EXPIRED };
  }
  // An erasure on another instance: this one's verifier may still hold the token as verified.
  if (await isSignInRevoked(deps.db, identity.uid)) return { error: EXPIRED };
  return { identity };
}

/**
 * Requires a valid ID token (`Authorization: Bearer <token>`) and loads the caller's profile
 * (created on the first call). Anything else is a 401 that says what was wrong.
 */
export const requireUser = createMiddleware<UserEnv>(async (c, next) => {
  const verified = await verify(c.req.header('Authorization'), c.get('deps'));
  if (verified === null) {
    return c.json({ error: 'Authentication required: send an Authorization: Bearer token' }, 401);
  }
  if ('error' in verified) return c.json({ error: verified.error }, 401);
  const { db, now } = c.get('deps');
  const profile = await getOrCreateProfile(db, verified.identity, now());
  if (!profile) return c.json({ error: EXPIRED }, 401);
  c.set('user', verified.identity);
  c.set('profile', profile);
  await next();
});

/**
 * For reads that anyone may make: no token means anonymous, but a token that is sent must be
 * valid (401 otherwise), so a client never mistakes an expired session for a signed-out one.
 */
export const optionalUser = createMiddleware<MaybeUserEnv>(async (c, next) => {
  const verified = await verify(c.req.header('Authorization'), c.get('deps'));
  if (verified !== null && 'error' in verified) return c.json({ error: verified.error }, 401);
  c.set('user', verified?.identity ?? null);
  await next();
});

/** After requireUser: moderators and admins only; anyone else gets a 403 that says so. */
export const requireModerator = createMiddleware<UserEnv>(async (c, next) => {
  if (!canModerate(c.get('profile').role)) {
    return c.json(
      {
        error:
          'Only moderators and admins may use the moderation console. Ask an admin if you should be one.',
      },
      403,
    );
  }
  await next();
});

/** "2026-12-01 12:00 UTC": one form that reads the same in every time zone. */
const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * After requireUser, on every write a parent makes (comments, replies, edits, deletions, likes,
 * reports, moderation): a suspended parent gets a 403 that says why and until when.
 */
export const refuseSuspended = createMiddleware<UserEnv>(async (c, next) => {
  const { db, now } = c.get('deps');
  const suspension = await activeSuspension(db, c.get('user').uid, now());
  if (suspension) {
    const until = suspension.until ? `until ${utc(suspension.until)}` : 'until a moderator lifts it';
    return c.json(
      {
        error: `Your account is suspended ${until} (${suspension.reason}). You can still read, but you cannot comment, reply, like or report while it lasts.`,
      },
      403,
    );
  }
  await next();
});
