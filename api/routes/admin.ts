import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { isAdmin, type PublishRun, type PublishStatus, type RolledBack } from '../contract.ts';
import { publishStatus } from '../db/queries/releases.ts';
import { requireUser } from '../middleware/auth.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv, UserEnv } from '../types.ts';
import { rollbackBody } from './schemas.ts';

const requireAdmin = createMiddleware<UserEnv>(async (c, next) => {
  if (!isAdmin(c.var.profile.role)) {
    return c.json({ error: 'Only admins may publish. Ask an admin to run npm run user:role for you.' }, 403);
  }
  await next();
});

const UNAVAILABLE = { error: 'Publishing is not available in this process' } as const;

/**
 * Publishing for editors (docs/product.md, "Publishing"): POST queues a run (or joins the queued
 * one), GET reports the runs and releases of every instance (they are rows), rollback goes back to
 * the previous release.
 */
export const adminRoutes = new Hono<AppEnv>()
  .get('/publish', requireUser, requireAdmin, async (c) =>
    c.json<PublishStatus>(await publishStatus(c.var.deps.db)),
  )
  .post('/publish', requireUser, requireAdmin, async (c) => {
    const { publisher } = c.var.deps;
    if (!publisher) return c.json(UNAVAILABLE, 503);
    const run = await publisher.request(`admin (${c.var.profile.email || c.var.profile.firebase_uid})`);
    // Nothing readers see changes until the run's release goes live.
    c.set('changed', []);
    return c.json<PublishRun>(run, 202);
  })
  .post('/publish/rollback', requireUser, requireAdmin, validate('json', rollbackBody), async (c) => {
    const { publisher } = c.var.deps;
    if (!publisher) return c.json(UNAVAILABLE, 503);
    const { profile } = c.var;
    const done = await publisher.rollback(
      { uid: profile.firebase_uid, name: profile.display_name },
      c.req.valid('json').reason,
    );
    return c.json<RolledBack>(done);
  });
