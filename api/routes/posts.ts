import { Hono } from 'hono';
import type { LikeStatus, PostStats, ViewRecorded } from '../contract.ts';
import { getPostLikeStatus, togglePostLike } from '../db/queries/likes.ts';
import {
  findLivePost,
  findPublishedPost,
  getPostStats,
  listBlogCategories,
  listPublishedPosts,
} from '../db/queries/posts.ts';
import { optionalUser, refuseSuspended, requireUser } from '../middleware/auth.ts';
import { limitPerUser, limitViews, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import { slugParam } from './schemas.ts';

const NOT_FOUND = { error: 'Post not found' } as const;

/** What a change to a post's likes shows up in: its own answers and the lists with counts. */
export const postChanged = (slug: string) => [
  `/api/blog/posts/${slug}/*`,
  '/api/blog/posts',
  '/api/community/feed',
];

/** Blog posts, categories, counts, views and post likes (mounted under /api/blog). */
export const postRoutes = new Hono<AppEnv>()
  .get('/posts', async (c) => c.json(await listPublishedPosts(c.get('deps').db, c.get('release'))))
  .get('/categories', async (c) => c.json(await listBlogCategories(c.get('deps').db, c.get('release'))))
  .get('/posts/:slug', validate('param', slugParam), async (c) => {
    const { db, views } = c.get('deps');
    const post = await findPublishedPost(db, c.req.valid('param').slug, c.get('release'));
    if (!post) return c.json(NOT_FOUND, 404);
    return c.json({ ...post, viewCount: post.viewCount + views.pending(post.postId) });
  })
  .get('/posts/:slug/stats', validate('param', slugParam), async (c) => {
    const { db, views } = c.get('deps');
    const stats = await getPostStats(db, c.req.valid('param').slug, c.get('release'));
    if (!stats) return c.json(NOT_FOUND, 404);
    return c.json<PostStats>({ ...stats, viewCount: stats.viewCount + views.pending(stats.postId) });
  })
  .post('/posts/:slug/view', validate('param', slugParam), limitViews, async (c) => {
    const { views } = c.get('deps');
    const stats = await views.stored(c.req.valid('param').slug, c.get('release'));
    if (!stats) return c.json(NOT_FOUND, 404);
    // Cached answers may show a view count up to the cache's lifetime behind; nothing to drop.
    c.set('changed', []);
    return c.json<ViewRecorded>({ viewCount: stats.viewCount + views.record(stats.postId) });
  })
  .get('/posts/:slug/like-status', validate('param', slugParam), optionalUser, async (c) => {
    const { db } = c.get('deps');
    const post = await findLivePost(db, { slug: c.req.valid('param').slug }, c.get('release'));
    if (!post) return c.json(NOT_FOUND, 404);
    return c.json<LikeStatus>(await getPostLikeStatus(db, post.postId, c.get('user')?.uid ?? null));
  })
  .post(
    '/posts/:slug/like',
    validate('param', slugParam),
    requireUser,
    refuseSuspended,
    limitPerUser('like', tooQuickly('likes')),
    async (c) => {
      const { db, now } = c.get('deps');
      const post = await findLivePost(db, { slug: c.req.valid('param').slug }, c.get('release'));
      if (!post) return c.json(NOT_FOUND, 404);
      const status = await togglePostLike(db, post.postId, c.get('user').uid, now());
      c.set('changed', postChanged(post.slug));
      return c.json<LikeStatus>(status);
    },
  );
