import { Hono } from 'hono';
import {
  findPublishedPost,
  listBlogCategories,
  listPublishedPosts,
  recordPostView,
} from '../db/queries/posts.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import { slugParam } from './schemas.ts';

export const blogRoutes = new Hono<AppEnv>()
  .get('/posts', async (c) => {
    const { db, now } = c.var.deps;
    return c.json(await listPublishedPosts(db, now()));
  })
  .get('/categories', async (c) => c.json(await listBlogCategories(c.var.deps.db)))
  .get('/posts/:slug', validate('param', slugParam), async (c) => {
    const { db, now } = c.var.deps;
    const post = await findPublishedPost(db, c.req.valid('param').slug, now());
    if (!post) return c.json({ error: 'Post not found' }, 404);
    return c.json(post);
  })
  .post('/posts/:slug/view', validate('param', slugParam), async (c) => {
    const { db, now } = c.var.deps;
    const viewCount = await recordPostView(db, c.req.valid('param').slug, now());
    if (viewCount === null) return c.json({ error: 'Post not found' }, 404);
    return c.json({ viewCount });
  });
