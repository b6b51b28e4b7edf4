import { Hono } from 'hono';
import type { ProfileAnswer } from '../contract.ts';
import { activeSuspension } from '../db/queries/suspensions.ts';
import { requireUser } from '../middleware/auth.ts';
import type { AppEnv } from '../types.ts';

/**
 * GET /api/profile: the signed-in parent's users_profile row, created on the first call, with the
 * suspension in force now, so the comment box can say so before they type.
 */
export const profileRoutes = new Hono<AppEnv>().get('/', requireUser, async (c) => {
  const { db, now } = c.get('deps');
  const profile = c.get('profile');
  const suspension = await activeSuspension(db, profile.firebase_uid, now());
  return c.json<ProfileAnswer>({
    ...profile,
    suspension: suspension && { until: suspension.until, reason: suspension.reason },
  });
});
