import { Hono } from 'hono';
import type { CommentPosted, LikeStatus } from '../contract.ts';
import { addComment, CommentRuleError, listThread } from '../db/queries/comments.ts';
import { toggleCommentLike } from '../db/queries/likes.ts';
import { findLivePost } from '../db/queries/posts.ts';
import { requireUser } from '../middleware/auth.ts';
import { limitPerUser, rateLimit, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv, UserEnv } from '../types.ts';
import { postChanged } from './posts.ts';
import { commentIdParam, newCommentBody, postIdParam, threadQuery } from './schemas.ts';

const NOT_FOUND = { error: 'Post not found' } as const;

/** What a change to a post's thread shows up in. */
const threadChanged = (post: { postId: number; slug: string }) => [
  `/api/blog/posts/${post.postId}/comments`,
  ...postChanged(post.slug),
];

/** Comment threads, comments, replies and comment likes (mounted under /api/blog). */
export const commentRoutes = new Hono<AppEnv>()
  .get(
    '/posts/:postId/comments',
    validate('param', postIdParam),
    validate('query', threadQuery),
    async (c) => {
      const { db, now } = c.var.deps;
      const post = await findLivePost(db, { postId: c.req.valid('param').postId }, now());
      if (!post) return c.json(NOT_FOUND, 404);
      const { limit, before } = c.req.valid('query');
      try {
        const page = await listThread(db, post.postId, { limit, before: before ?? null });
        if (page.next !== null) {
          c.header(
            'Link',
            `</api/blog/posts/${post.postId}/comments?limit=${limit}&before=${page.next}>; rel="next"`,
          );
        }
        return c.json(page.comments);
      } catch (error) {
        if (error instanceof CommentRuleError) return c.json({ error: error.message }, 400);
        throw error;
      }
    },
  )
  .post(
    '/posts/:postId/comments',
    validate('param', postIdParam),
    requireUser,
    rateLimit<UserEnv>({
      limiter: (deps) => deps.commentLimiter,
      key: (c) => c.var.user.uid,
      message: (seconds) => `You are commenting too quickly. Please wait ${seconds} seconds and try again.`,
    }),
    validate('json', newCommentBody),
    async (c) => {
      const { db, now } = c.var.deps;
      const { profile } = c.var;
      const post = await findLivePost(db, { postId: c.req.valid('param').postId }, now());
      if (!post) return c.json(NOT_FOUND, 404);
      const { content, parentCommentId } = c.req.valid('json');
      try {
        const posted = await addComment(
          db,
          {
            postId: post.postId,
            parentCommentId,
            content,
            author: { uid: profile.firebase_uid, name: profile.display_name, avatarUrl: profile.photo_url },
          },
          now(),
        );
        c.set('changed', threadChanged(post));
        return c.json<CommentPosted>(posted, 201);
      } catch (error) {
        if (error instanceof CommentRuleError) return c.json({ error: error.message }, 400);
        throw error;
      }
    },
  )
  .post(
    '/comments/:commentId/like',
    validate('param', commentIdParam),
    requireUser,
    limitPerUser('comment-like', tooQuickly('likes')),
    async (c) => {
      const { db, now } = c.var.deps;
      const status = await toggleCommentLike(db, c.req.valid('param').commentId, c.var.user.uid, now());
      if (!status) return c.json({ error: 'Comment not found' }, 404);
      c.set('changed', [`/api/blog/posts/${status.postId}/comments`]);
      return c.json<LikeStatus>({ liked: status.liked, likeCount: status.likeCount });
    },
  );
