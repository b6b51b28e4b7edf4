import { Hono } from 'hono';
import { z } from 'zod';
import {
  CommentRuleError,
  addComment,
  findLivePostId,
  getPostLikeStatus,
  listComments,
  toggleCommentLike,
  togglePostLike,
} from '../db/queries/community.ts';
import { optionalUser, requireUser } from '../middleware/auth.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import { idParam, slugParam } from './schemas.ts';

export const COMMENT_MAX_LENGTH = 2000;

const commentBody = z.object({
  content: z
    .string({ error: 'must be a string' })
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, 'must not be blank')
        .max(COMMENT_MAX_LENGTH, `must be at most ${COMMENT_MAX_LENGTH} characters`),
    ),
  parentCommentId: z.number().int().positive().nullable().default(null),
});

/** Likes, comments and replies on blog posts (mounted under /api/blog). */
export const postCommunityRoutes = new Hono<AppEnv>()
  .get('/posts/:slug/like-status', validate('param', slugParam), optionalUser, async (c) => {
    const { db, now } = c.var.deps;
    const postId = await findLivePostId(db, { slug: c.req.valid('param').slug }, now());
    if (postId === null) return c.json({ error: 'Post not found' }, 404);
    return c.json(await getPostLikeStatus(db, postId, c.var.user?.uid ?? null));
  })
  .post('/posts/:slug/like', validate('param', slugParam), requireUser, async (c) => {
    const { db, now, writeLimiter } = c.var.deps;
    const user = c.var.user!;
    const limit = writeLimiter.hit(`like:${user.uid}`);
    if (!limit.allowed) {
      c.header('Retry-After', String(limit.retryAfterSeconds));
      return c.json(
        { error: `Too many likes in a short time. Try again in ${limit.retryAfterSeconds} s.` },
        429,
      );
    }
    const postId = await findLivePostId(db, { slug: c.req.valid('param').slug }, now());
    if (postId === null) return c.json({ error: 'Post not found' }, 404);
    return c.json(await togglePostLike(db, postId, user.uid, now()));
  })
  .get('/posts/:postId/comments', validate('param', idParam('postId')), async (c) => {
    const { db, now } = c.var.deps;
    const postId = await findLivePostId(db, { postId: c.req.valid('param').postId }, now());
    if (postId === null) return c.json({ error: 'Post not found' }, 404);
    return c.json(await listComments(db, postId));
  })
  .post(
    '/posts/:postId/comments',
    validate('param', idParam('postId')),
    requireUser,
    validate('json', commentBody),
    async (c) => {
      const { db, now, commentLimiter } = c.var.deps;
      const profile = c.var.profile!;
      const postId = await findLivePostId(db, { postId: c.req.valid('param').postId }, now());
      if (postId === null) return c.json({ error: 'Post not found' }, 404);
      const limit = commentLimiter.hit(profile.firebase_uid);
      if (!limit.allowed) {
        c.header('Retry-After', String(limit.retryAfterSeconds));
        return c.json(
          {
            error: `You are commenting too quickly. Please wait ${limit.retryAfterSeconds} seconds and try again.`,
          },
          429,
        );
      }
      const { content, parentCommentId } = c.req.valid('json');
      try {
        const comment = await addComment(
          db,
          {
            postId,
            parentCommentId,
            content,
            author: { uid: profile.firebase_uid, name: profile.display_name, avatarUrl: profile.photo_url },
          },
          now(),
        );
        return c.json(comment, 201);
      } catch (error) {
        if (error instanceof CommentRuleError) {
          // A refused reply stored nothing, so it does not use up the author's allowance.
          commentLimiter.refund(profile.firebase_uid);
          return c.json({ error: error.message }, 400);
        }
        throw error;
      }
    },
  )
  .post('/comments/:commentId/like', validate('param', idParam('commentId')), requireUser, async (c) => {
    const { db, now, writeLimiter } = c.var.deps;
    const user = c.var.user!;
    const limit = writeLimiter.hit(`comment-like:${user.uid}`);
    if (!limit.allowed) {
      c.header('Retry-After', String(limit.retryAfterSeconds));
      return c.json(
        { error: `Too many likes in a short time. Try again in ${limit.retryAfterSeconds} s.` },
        429,
      );
    }
    const status = await toggleCommentLike(db, c.req.valid('param').commentId, user.uid, now());
    if (!status) return c.json({ error: 'Comment not found' }, 404);
    return c.json(status);
  });
