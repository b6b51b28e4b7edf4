import { Hono } from 'hono';
import { limitPerAddress, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import { deletionRequestBody } from './schemas.ts';

/** The first-party account deletion form (docs/product.md, "Account deletion"). */
export const accountRoutes = new Hono<AppEnv>().post(
  '/deletion-requests',
  limitPerAddress('deletion', tooQuickly('requests')),
  validate('json', deletionRequestBody),
  async (c) => {
    const { db, now } = c.var.deps;
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
    c.set('changed', []);
    return c.json({ received: true }, 201);
  },
);
