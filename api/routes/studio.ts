import { type Context, Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { PublishRun } from '../contract.ts';
import {
  canPublishPosts,
  canWritePosts,
  type RenderedMarkdown,
  type StudioConflict,
  type StudioPost,
  type StudioPostCreated,
  type StudioPostSaved,
  type StudioPostSummary,
  type StudioPublishAnswer,
  type StudioRevision,
  type StudioStatusAnswer,
  type StudioWithdrawAnswer,
} from '../contract/studio.ts';
import { listRevisions } from '../db/queries/post-revisions.ts';
import { findRun } from '../db/queries/releases.ts';
import {
  createStudioPost,
  findPostHead,
  findStudioPost,
  listStudioPosts,
  type PostHead,
  publishStudioPost,
  renderForStudio,
  restoreStudioRevision,
  saveStudioPost,
  type StudioActor,
  submitStudioPost,
  withdrawStudioPost,
} from '../db/queries/studio-posts.ts';
import { RuleError } from '../lib/errors.ts';
import { requireUser } from '../middleware/auth.ts';
import { limitPerUser, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppDeps, UserEnv } from '../types.ts';
import {
  newStudioPostBody,
  postIdParam,
  publishStudioPostBody,
  releaseIdParam,
  renderBody,
  saveStudioPostBody,
  studioPostsQuery,
  studioRevisionParam,
} from './schemas.ts';

// The studio's posts (docs/product.md, "The studio"). Authors write and submit their own posts;
// editors and admins open any post, publish, schedule and withdraw. Nothing a reader gets changes
// until a publish's release is live, so no write here drops a kept answer.

/** After requireUser: authors, editors and admins. */
const requireWriter = createMiddleware<UserEnv>(async (c, next) => {
  if (!canWritePosts(c.get('profile').role)) {
    return c.json(
      {
        error: 'The studio is for authors, editors and admins. Ask an admin to give you one of those roles.',
      },
      403,
    );
  }
  await next();
});

/** After requireUser: editors and admins, who publish. */
const requireEditor = createMiddleware<UserEnv>(async (c, next) => {
  if (!canPublishPosts(c.get('profile').role)) {
    return c.json(
      {
        error:
          'Only an editor (or an admin) publishes, schedules and withdraws posts. Submit your post for review and an editor will publish it.',
      },
      403,
    );
  }
  await next();
});

const writer = [requireUser, requireWriter] as const;
const writerWrite = [...writer, limitPerUser('studio', tooQuickly('studio changes'))] as const;
const editorWrite = [
  requireUser,
  requireEditor,
  limitPerUser('studio', tooQuickly('studio changes')),
] as const;

type StudioContext = Context<UserEnv>;

function actor(c: StudioContext): StudioActor {
  const profile = c.get('profile');
  return { uid: profile.firebase_uid, name: profile.display_name.trim() || 'An editor' };
}

/** The post, when this writer may work on it: editors any, authors their own (else 404, 403). */
async function openPost(c: StudioContext, postId: number): Promise<PostHead> {
  const post = await findPostHead(c.get('deps').db, postId);
  if (!post) throw new RuleError(`There is no post ${postId}.`, 404);
  const profile = c.get('profile');
  if (!canPublishPosts(profile.role) && post.authorUid !== profile.firebase_uid) {
    throw new RuleError('This is another author’s post: authors open and edit only their own.', 403);
  }
  return post;
}

/** Asks for the release that makes a change live; null when this process has no publisher (the build). */
async function requestRelease(deps: AppDeps, trigger: string): Promise<number | null> {
  if (!deps.publisher) return null;
  return (await deps.publisher.request(trigger)).id;
}

/** The studio's posts (mounted under /api/studio). */
export const studioRoutes = new Hono<UserEnv>()
  .get('/posts', ...writer, validate('query', studioPostsQuery), async (c) => {
    const { db, now } = c.get('deps');
    const profile = c.get('profile');
    const posts = await listStudioPosts(
      db,
      {
        authorUid: canPublishPosts(profile.role) ? null : profile.firebase_uid,
        status: c.req.valid('query').status ?? null,
      },
      now(),
    );
    return c.json<StudioPostSummary[]>(posts);
  })
  .post('/posts', ...writerWrite, validate('json', newStudioPostBody), async (c) => {
    const { db, now } = c.get('deps');
    const created = await createStudioPost(db, c.req.valid('json'), actor(c), now());
    c.set('changed', []);
    return c.json<StudioPostCreated>(created, 201);
  })
  .get('/posts/:postId', ...writer, validate('param', postIdParam), async (c) => {
    const { db, now } = c.get('deps');
    const { postId } = await openPost(c, c.req.valid('param').postId);
    const post = await findStudioPost(db, postId, now());
    if (!post) return c.json({ error: `There is no post ${postId}.` }, 404);
    return c.json<StudioPost>(post);
  })
  .put(
    '/posts/:postId',
    ...writerWrite,
    validate('param', postIdParam),
    validate('json', saveStudioPostBody),
    async (c) => {
      const { db, now } = c.get('deps');
      const { postId } = await openPost(c, c.req.valid('param').postId);
      const { baseRevision, ...fields } = c.req.valid('json');
      const result = await saveStudioPost(db, postId, fields, baseRevision, actor(c), now());
      c.set('changed', []);
      if ('conflict' in result) {
        return c.json<StudioConflict, 409>(
          {
            error: `Someone saved this post since revision ${baseRevision}: revision ${result.conflict.revision} by ${result.conflict.savedBy} is the latest. Compare, then save on top of it.`,
            latest: result.conflict,
          },
          409,
        );
      }
      return c.json<StudioPostSaved, 200>(result.saved, 200);
    },
  )
  .post('/posts/:postId/submit', ...writerWrite, validate('param', postIdParam), async (c) => {
    const { db, now } = c.get('deps');
    const { postId } = await openPost(c, c.req.valid('param').postId);
    const status = await submitStudioPost(db, postId, actor(c), now());
    c.set('changed', []);
    return c.json<StudioStatusAnswer>({ status }, 202);
  })
  .post(
    '/posts/:postId/publish',
    ...editorWrite,
    validate('param', postIdParam),
    validate('json', publishStudioPostBody),
    async (c) => {
      const deps = c.get('deps');
      const { postId } = await openPost(c, c.req.valid('param').postId);
      const { at } = c.req.valid('json');
      const who = actor(c);
      const done = await publishStudioPost(
        deps.db,
        postId,
        at === null ? null : new Date(at),
        who,
        deps.now(),
      );
      const what =
        done.status === 'scheduled' ? `schedule ${done.slug} for ${done.publishAt}` : `publish ${done.slug}`;
      const releaseId = await requestRelease(deps, `studio (${who.name}): ${what}`);
      // Nothing readers see changes until the release is live.
      c.set('changed', []);
      return c.json<StudioPublishAnswer>({ status: done.status, publishAt: done.publishAt, releaseId }, 202);
    },
  )
  .post('/posts/:postId/withdraw', ...editorWrite, validate('param', postIdParam), async (c) => {
    const deps = c.get('deps');
    const post = await openPost(c, c.req.valid('param').postId);
    const who = actor(c);
    await withdrawStudioPost(deps.db, post.postId, who, deps.now());
    const releaseId = await requestRelease(deps, `studio (${who.name}): withdraw ${post.slug}`);
    c.set('changed', []);
    return c.json<StudioWithdrawAnswer>({ status: 'withdrawn', releaseId }, 202);
  })
  .get('/posts/:postId/revisions', ...writer, validate('param', postIdParam), async (c) => {
    const { postId } = await openPost(c, c.req.valid('param').postId);
    return c.json<StudioRevision[]>(await listRevisions(c.get('deps').db, postId));
  })
  .post(
    '/posts/:postId/revisions/:revision/restore',
    ...writerWrite,
    validate('param', studioRevisionParam),
    async (c) => {
      const { db, now } = c.get('deps');
      const { postId, revision } = c.req.valid('param');
      await openPost(c, postId);
      const saved = await restoreStudioRevision(db, postId, revision, actor(c), now());
      c.set('changed', []);
      return c.json<StudioPostSaved>(saved, 201);
    },
  )
  .post(
    '/render',
    ...writer,
    limitPerUser('studio-render', tooQuickly('previews')),
    validate('json', renderBody),
    async (c) => {
      c.set('changed', []);
      return c.json<RenderedMarkdown>(renderForStudio(c.req.valid('json').markdown));
    },
  )
  .get('/releases/:releaseId', requireUser, requireEditor, validate('param', releaseIdParam), async (c) => {
    const { releaseId } = c.req.valid('param');
    const run = await findRun(c.get('deps').db, releaseId);
    if (!run) return c.json({ error: `There is no publish run ${releaseId}.` }, 404);
    return c.json<PublishRun>(run);
  });
