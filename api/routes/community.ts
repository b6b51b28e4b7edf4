import { Hono } from 'hono';
import { countPublishedPosts, listCommunityFeed } from '../db/queries/posts.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import { limitQuery } from './schemas.ts';

export const communityRoutes = new Hono<AppEnv>()
  .get('/feed', validate('query', limitQuery(3)), async (c) => {
    const { db, now } = c.var.deps;
    return c.json(await listCommunityFeed(db, now(), c.req.valid('query').limit));
  })
  .get('/count', async (c) => {
    const { db, now } = c.var.deps;
    return c.json({ total: await countPublishedPosts(db, now()) });
  });
