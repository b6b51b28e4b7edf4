import { Hono } from 'hono';
import { COMMUNITY_FEED_DEFAULT, type CommunityCount } from '../contract.ts';
import { countPublishedPosts, listCommunityFeed } from '../db/queries/posts.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import { limitQuery } from './schemas.ts';

export const communityRoutes = new Hono<AppEnv>()
  .get('/feed', validate('query', limitQuery(COMMUNITY_FEED_DEFAULT)), async (c) => {
    return c.json(await listCommunityFeed(c.get('deps').db, c.get('release'), c.req.valid('query').limit));
  })
  .get('/count', async (c) =>
    c.json<CommunityCount>({ total: await countPublishedPosts(c.get('deps').db, c.get('release')) }),
  );
