import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { isAdmin, type PublishRun, type PublishStatus } from '../contract.ts';
import { requireUser } from '../middleware/auth.ts';
import type { AppEnv, UserEnv } from '../types.ts';

const requireAdmin = createMiddleware<UserEnv>(async (c, next) => {
  if (!isAdmin(c.var.profile.role)) {
    return c.json({ error: 'Only admins may publish. Ask an admin to run npm run user:role for you.' }, 403);
  }
  await next();
});

const UNAVAILABLE = { error: 'Publishing is not available in this process' } as const;

/** Publishing for editors: POST starts a run (or joins the queued one), GET reports runs. */
export const adminRoutes = new Hono<AppEnv>()
  .get('/publish', requireUser, requireAdmin, (c) => {
    const { publisher } = c.var.deps;
    if (!publisher) return c.json(UNAVAILABLE, 503);
    return c.json<PublishStatus>(publisher.status());
  })
  .post('/publish', requireUser, requireAdmin, (c) => {
    const { publisher } = c.var.deps;
    if (!publisher) return c.json(UNAVAILABLE, 503);
    const run = publisher.request(`admin (${c.var.profile.email || c.var.profile.firebase_uid})`);
    return c.json<PublishRun>(run, 202);
  });
