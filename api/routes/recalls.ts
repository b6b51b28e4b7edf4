import { Hono } from 'hono';
import type { Recall, RecallStatus } from '../contract.ts';
import { listRecalls, recallStatus } from '../db/queries/recalls.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import { recallsQuery } from './schemas.ts';

/**
 * The public recall data (mounted under /api/recalls; docs/product.md, "Recall screening"): the
 * newest recalls of children's products, and where and when the data was last imported. Anonymous
 * reads, so the read cache keeps them like every other public read.
 */
export const recallRoutes = new Hono<AppEnv>()
  .get('/', validate('query', recallsQuery), async (c) =>
    c.json<Recall[]>(await listRecalls(c.get('deps').db, c.req.valid('query').limit)),
  )
  .get('/status', async (c) => c.json<RecallStatus>(await recallStatus(c.get('deps').db)));
