import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { requireUser } from '../middleware/auth.ts';
import type { AppEnv } from '../types.ts';

const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.profile?.role !== 'admin') {
    return c.json({ error: 'Only admins may publish. Ask an admin to run npm run user:role for you.' }, 403);
  }
  await next();
});

/** Publishing for editors: POST starts a run (or joins the queued one), GET reports runs. */
export const adminRoutes = new Hono<AppEnv>()
  .use('/publish', requireUser, requireAdmin)
  .get('/publish', (c) => {
    const { publisher } = c.var.deps;
    if (!publisher) return c.json({ error: 'Publishing is not available in this process' }, 503);
    return c.json(publisher.status());
  })
  .post('/publish', (c) => {
    const { publisher } = c.var.deps;
    if (!publisher) return c.json({ error: 'Publishing is not available in this process' }, 503);
    const run = publisher.request(`admin (${c.var.profile!.email || c.var.profile!.firebase_uid})`);
    return c.json(run, 202);
  });
