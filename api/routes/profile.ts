import { Hono } from 'hono';
import { requireUser } from '../middleware/auth.ts';
import type { AppEnv } from '../types.ts';

/** GET /api/profile: the signed-in parent's users_profile row, created on the first call. */
export const profileRoutes = new Hono<AppEnv>().get('/', requireUser, (c) => c.json(c.get('profile')));
