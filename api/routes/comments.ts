import { Hono } from 'hono';
import { canModerate, type CommentPosted, type LikeStatus, type ThreadFirstPage } from '../contract.ts';
import {
  addComment,
  ANONYMOUS,
  editComment,
  listCommentsById,
  listFirstPages,
  listThread,
  type Viewer,
} from '../db/queries/comments.ts';
import { toggleCommentLike } from '../db/queries/likes.ts';
import { latestThreadEventId } from '../db/queries/thread-events.ts';
import { DEFAULT_COMMENT_SORT, THREAD_EVENT_HEADER } from '../contract/live-threads.ts';
import { deleteComment } from '../db/queries/moderation.ts';
import { findLivePost, findPostRef, livePostIds } from '../db/queries/posts.ts';
import { findRole } from '../db/queries/profiles.ts';
import type { DB } from '../db/database.ts';
import { optionalUser, refuseSuspended, requireUser } from '../middleware/auth.ts';
import { limitPerUser, rateLimit, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv, UserEnv } from '../types.ts';
import { postChanged } from './posts.ts';
import {
  commentIdParam,
  commentIdsQuery,
  deleteCommentBody,
  editCommentBody,
  newCommentBody,
  postIdParam,
  threadQuery,
  threadsQuery,
} from './schemas.ts';

const NOT_FOUND = { error: 'Post not found' } as const;

/** The answers that show a post's thread: its pages, its comments by id, and many threads' first pages. */
const threadAnswers = (postId: number) => [
  `/api/blog/posts/${postId}/comments`,
  `/api/blog/posts/${postId}/comments/by-id`,
  '/api/blog/threads',
];

/** What a change to a post's thread shows up in. */
export const threadChanged = (post: { postId: number; slug: string }) => [
  ...threadAnswers(post.postId),
  ...postChanged(post.slug),
];

/** The same, from a post id alone. */
export const threadChangedById = async (db: DB, postId: number) =>
  threadChanged(await findPostRef(db, postId));

/** Who reads a thread: a signed-in parent or moderator, or anyone. */
async function viewerOf(db: DB, user: { uid: string } | null): Promise<Viewer> {
  return user ? { uid: user.uid, moderator: canModerate(await findRole(db, user.uid)) } : ANONYMOUS;
}

/** Comment threads, comments, replies, edits, deletions and comment likes (mounted under /api/blog). */
export const commentRoutes = new Hono<AppEnv>()
  .get(
    '/posts/:postId/comments',
    validate('param', postIdParam),
    validate('query', threadQuery),
    optionalUser,
    async (c) => {
      const { db, now } = c.get('deps');
      const post = await findLivePost(db, { postId: c.req.valid('param').postId }, c.get('release'));
      if (!post) return c.json(NOT_FOUND, 404);
      const { limit, before, sort } = c.req.valid('query');
      const viewer = await viewerOf(db, c.get('user'));
      // Read before the thread: a page's stream resumes after it, so no change falls between.
      const event = await latestThreadEventId(db);
      const page = await listThread(db, post.postId, { limit, before: before ?? null, sort }, viewer, now());
      c.header(THREAD_EVENT_HEADER, String(event));
      if (page.next !== null) {
        const order = sort === DEFAULT_COMMENT_SORT ? '' : `&sort=${sort}`;
        c.header(
          'Link',
          `</api/blog/posts/${post.postId}/comments?limit=${limit}&before=${page.next}${order}>; rel="next"`,
        );
      }
      return c.json(page.comments);
    },
  )
  // New top-level comments by id, when a reader shows the ones their page's stream announced.
  .get(
    '/posts/:postId/comments/by-id',
    validate('param', postIdParam),
    validate('query', commentIdsQuery),
    optionalUser,
    async (c) => {
      const { db, now } = c.get('deps');
      const post = await findLivePost(db, { postId: c.req.valid('param').postId }, c.get('release'));
      if (!post) return c.json(NOT_FOUND, 404);
      const viewer = await viewerOf(db, c.get('user'));
      return c.json(await listCommentsById(db, post.postId, c.req.valid('query').ids, viewer, now()));
    },
  )
  // The first page of several posts' threads at once, in request order; ids that are not live
  // posts are left out. A build reads every post's thread this way rather than one by one.
  .get('/threads', validate('query', threadsQuery), optionalUser, async (c) => {
    const { db, now } = c.get('deps');
    const { posts, limit } = c.req.valid('query');
    const live = await livePostIds(db, posts, c.get('release'));
    const viewer = await viewerOf(db, c.get('user'));
    const pages = await listFirstPages(db, live, limit, viewer, now());
    return c.json(live.map((postId): ThreadFirstPage => ({ postId, ...pages.get(postId)! })));
  })
  .post(
    '/posts/:postId/comments',
    validate('param', postIdParam),
    requireUser,
    refuseSuspended,
    rateLimit<UserEnv>({
      limiter: (deps) => deps.commentLimiter,
      key: (c) => c.get('user').uid,
      message: (seconds) => `You are commenting too quickly. Please wait ${seconds} seconds and try again.`,
    }),
    validate('json', newCommentBody),
    async (c) => {
      const { db, now, safety, mail, deliveries } = c.get('deps');
      const profile = c.get('profile');
      const post = await findLivePost(db, { postId: c.req.valid('param').postId }, c.get('release'));
      if (!post) return c.json(NOT_FOUND, 404);
      const { content, parentCommentId } = c.req.valid('json');
      const { emailsQueued, ...posted } = await addComment(
        db,
        {
          postId: post.postId,
          parentCommentId,
          content,
          author: {
            uid: profile.firebase_uid,
            name: profile.display_name,
            avatarUrl: profile.photo_url,
            moderator: canModerate(profile.role),
          },
        },
        { holdFirst: safety.holdFirstComment, mail },
        now(),
      );
      if (emailsQueued > 0) deliveries?.poke();
      c.set('changed', threadChanged(post));
      return c.json<CommentPosted>(posted, 201);
    },
  )
  .patch(
    '/comments/:commentId',
    validate('param', commentIdParam),
    requireUser,
    refuseSuspended,
    limitPerUser('comment-edit', tooQuickly('edits')),
    validate('json', editCommentBody),
    async (c) => {
      const { db, now } = c.get('deps');
      const profile = c.get('profile');
      const edited = await editComment(
        db,
        {
          commentId: c.req.valid('param').commentId,
          author: { uid: profile.firebase_uid, moderator: canModerate(profile.role) },
          content: c.req.valid('json').content,
        },
        now(),
      );
      c.set('changed', await threadChangedById(db, edited.postId));
      return c.json<CommentPosted>({ comment: edited.comment, commentCount: edited.commentCount });
    },
  )
  .delete(
    '/comments/:commentId',
    validate('param', commentIdParam),
    requireUser,
    refuseSuspended,
    limitPerUser('comment-delete', tooQuickly('deletions')),
    validate('json', deleteCommentBody),
    async (c) => {
      const { db, now } = c.get('deps');
      const profile = c.get('profile');
      const { postId } = await deleteComment(
        db,
        {
          commentId: c.req.valid('param').commentId,
          actor: {
            uid: profile.firebase_uid,
            name: profile.display_name,
            moderator: canModerate(profile.role),
          },
          reason: c.req.valid('json').reason,
        },
        now(),
      );
      c.set('changed', await threadChangedById(db, postId));
      return c.body(null, 204);
    },
  )
  .post(
    '/comments/:commentId/like',
    validate('param', commentIdParam),
    requireUser,
    refuseSuspended,
    limitPerUser('comment-like', tooQuickly('likes')),
    async (c) => {
      const { db, now } = c.get('deps');
      const status = await toggleCommentLike(db, c.req.valid('param').commentId, c.get('user').uid, now());
      if (!status) return c.json({ error: 'Comment not found' }, 404);
      c.set('changed', threadAnswers(status.postId));
      return c.json<LikeStatus>({ liked: status.liked, likeCount: status.likeCount });
    },
  );
