import { Hono } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { z } from 'zod';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';

const deletionRequest = z.object({
  email: z.email('must be a valid email address').max(254),
  reason: z.string().trim().max(200).nullable().default(null),
  additionalInfo: z.string().trim().max(2000, 'must be at most 2000 characters').nullable().default(null),
  confirmed: z.literal(true, 'must be true: confirm that you understand deletion is permanent'),
});

function clientKey(c: Parameters<typeof getConnInfo>[0]): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'in-process';
  }
}

/** The first-party account deletion form (design decision 8). */
export const accountRoutes = new Hono<AppEnv>().post(
  '/deletion-requests',
  validate('json', deletionRequest),
  async (c) => {
    const { db, now, writeLimiter } = c.var.deps;
    const limit = writeLimiter.hit(`deletion:${clientKey(c)}`);
    if (!limit.allowed) {
      c.header('Retry-After', String(limit.retryAfterSeconds));
      return c.json({ error: `Too many requests. Try again in ${limit.retryAfterSeconds} s.` }, 429);
    }
    const body = c.req.valid('json');
    await db
      .insertInto('deletion_requests')
      .values({
        email: body.email,
        reason: body.reason || null,
        additional_info: body.additionalInfo || null,
        created_at: now().toISOString(),
      })
      .execute();
    return c.json({ received: true }, 201);
  },
);
