import { createMiddleware } from 'hono/factory';
import { getOrCreateProfile } from '../db/queries/profiles.ts';
import type { AppEnv } from '../types.ts';

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{1,4096})$/;

/**
 * Requires a valid ID token (`Authorization: Bearer <token>`) and loads the caller's profile
 * (created on the first call). Anything else is a 401 that says what was wrong.
 */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header('Authorization');
  if (!header) return c.json({ error: 'Authentication required: send an Authorization: Bearer token' }, 401);
  const match = BEARER.exec(header);
  if (!match) return c.json({ error: 'Authentication required: malformed Authorization header' }, 401);
  const { verifyToken, db, now } = c.var.deps;
  let identity;
  try {
    identity = await verifyToken(match[1]!);
  } catch {
    return c.json({ error: 'Invalid or expired token: sign in again' }, 401);
  }
  c.set('user', identity);
  c.set('profile', await getOrCreateProfile(db, identity, now()));
  await next();
});

/** Reads the caller's identity when a valid token is sent; anonymous otherwise (never a 401). */
export const optionalUser = createMiddleware<AppEnv>(async (c, next) => {
  const match = BEARER.exec(c.req.header('Authorization') ?? '');
  if (match) {
    try {
      c.set('user', await c.var.deps.verifyToken(match[1]!));
    } catch {
      // An expired token on a read is treated as anonymous: the page still shows the counts.
    }
  }
  await next();
});
