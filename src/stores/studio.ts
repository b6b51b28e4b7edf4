// The studio's data (docs/product.md, "The studio"): the posts list, one post as the editor opens
// it, its revisions, the blog's categories, a publish run's progress, and the actions that change
// them. Every call carries the signed-in writer's token; the API checks the role. An action's
// answer changes the list and the post in place, so every screen shows the post's new state.
import type { BlogCategory, PublishRun } from '../../api/contract.ts';
import type {
  PostStatus,
  RenderedMarkdown,
  StudioPost,
  StudioPostFields,
  StudioPostSummary,
  StudioRevision,
  UploadedImage,
} from '../../api/contract/studio.ts';
import { api, ApiError, read, withToken } from '../lib/api.ts';
import { getIdToken } from './auth.ts';
import { keyedQuery } from './query.ts';

const auth = async () => withToken(await getIdToken());

/** The posts a writer may open, keyed by their uid (an author sees their own). */
export const studioPosts = keyedQuery<StudioPostSummary[]>('studio-posts', async () =>
  read(api.studio.posts.$get({ query: {} }, await auth())),
);

/** One post as the editor opens it, keyed by its id. */
export const studioPost = keyedQuery<StudioPost>('studio-post', async (postId) =>
  read(api.studio.posts[':postId'].$get({ param: { postId } }, await auth())),
);

/** A post's saved versions, newest first, keyed by its id. */
export const postRevisions = keyedQuery<StudioRevision[]>('studio-revisions', async (postId) =>
  read(api.studio.posts[':postId'].revisions.$get({ param: { postId } }, await auth())),
);

/** The blog's categories, a post's checkboxes (one key: 'all'). */
export const blogCategories = keyedQuery<BlogCategory[]>('blog-categories', async () =>
  read(api.blog.categories.$get()),
);

/** A publish run, keyed by its id: the editor follows one until it has finished. */
export const publishRun = keyedQuery<PublishRun>('studio-release', async (releaseId) =>
  read(api.studio.releases[':releaseId'].$get({ param: { releaseId } }, await auth())),
);

/** Changes one post's row of the list, and the open post, in place. */
function changePost(uid: string, postId: number, change: Partial<StudioPostSummary>): void {
  const id = String(postId);
  if (studioPosts.get(uid))
    studioPosts.set(
      uid,
      studioPosts.get(uid)!.map((row) => (row.postId === postId ? { ...row, ...change } : row)),
    );
  const open = studioPost.get(id);
  if (open) studioPost.set(id, { ...open, ...change });
}

/** Creates a post (the first save of a new one); the list loads afresh. */
export async function createPost(uid: string, fields: StudioPostFields) {
  const created = await read(api.studio.posts.$post({ json: fields }, await auth()));
  studioPosts.refresh(uid);
  return created;
}

export type SaveAnswer =
  | { kind: 'saved'; revision: number; slug: string; updatedAt: string }
  | { kind: 'conflict'; latest: StudioRevision };

function isRevision(value: unknown): value is StudioRevision {
  return (
    typeof value === 'object' &&
    value !== null &&
    'revision' in value &&
    typeof value.revision === 'number' &&
    'markdown' in value &&
    typeof value.markdown === 'string'
  );
}

/**
 * Saves the whole post on top of `baseRevision`. A 409 (someone saved since) is an answer, not an
 * error: it carries the latest revision so the editor can show what changed.
 */
export async function savePost(
  uid: string,
  postId: number,
  fields: StudioPostFields,
  baseRevision: number,
): Promise<SaveAnswer> {
  const res = await api.studio.posts[':postId'].$put(
    { param: { postId: String(postId) }, json: { ...fields, baseRevision } },
    await auth(),
  );
  if (res.status === 409) {
    const body: unknown = await res.json();
    const latest = typeof body === 'object' && body !== null && 'latest' in body ? body.latest : null;
    if (isRevision(latest)) return { kind: 'conflict', latest };
    throw new ApiError(409, '409: conflict without the latest revision', 'Someone else saved this post.');
  }
  const saved = await read(res);
  changePost(uid, postId, { title: fields.title, slug: saved.slug, updatedAt: saved.updatedAt });
  postRevisions.refresh(String(postId));
  return { kind: 'saved', ...saved };
}

/** An author hands their post to the editors. */
export async function submitPost(uid: string, postId: number) {
  const answer = await read(
    api.studio.posts[':postId'].submit.$post({ param: { postId: String(postId) } }, await auth()),
  );
  changePost(uid, postId, { status: answer.status });
  return answer;
}

/** Publishes now (no `at`) or at a time (an ISO time in UTC). */
export async function publishPost(uid: string, postId: number, at: string | null) {
  const answer = await read(
    api.studio.posts[':postId'].publish.$post(
      { param: { postId: String(postId) }, json: at ? { at } : {} },
      await auth(),
    ),
  );
  changePost(uid, postId, {
    status: answer.status,
    publishAt: answer.publishAt,
    hasUnpublishedChanges: false,
  });
  return answer;
}

/** Takes a published or scheduled post down. */
export async function withdrawPost(uid: string, postId: number) {
  const answer = await read(
    api.studio.posts[':postId'].withdraw.$post({ param: { postId: String(postId) } }, await auth()),
  );
  changePost(uid, postId, { status: answer.status });
  return answer;
}

/** Makes an earlier revision the current draft (a new revision; nothing is published). */
export async function restoreRevision(uid: string, postId: number, revision: number): Promise<StudioPost> {
  const id = String(postId);
  await read(
    api.studio.posts[':postId'].revisions[':revision'].restore.$post(
      { param: { postId: id, revision: String(revision) } },
      await auth(),
    ),
  );
  const post = await read(api.studio.posts[':postId'].$get({ param: { postId: id } }, await auth()));
  studioPost.set(id, post);
  changePost(uid, postId, { title: post.title, slug: post.slug, updatedAt: post.updatedAt });
  postRevisions.refresh(id);
  return post;
}

/** Renders Markdown as the build does (the live preview). */
export async function renderMarkdown(markdown: string): Promise<RenderedMarkdown> {
  return read(api.studio.render.$post({ json: { markdown } }, await auth()));
}

/** Uploads an image with its alt text. */
export async function uploadImage(file: File, alt: string): Promise<UploadedImage> {
  return read(api.studio.images.$post({ form: { file, alt } }, await auth()));
}

/** Loads a publish run afresh (its progress). */
export function followRun(releaseId: number): void {
  publishRun.refresh(String(releaseId));
}

/** Whether a post's state is one readers can see now or soon. */
export const isLive = (status: PostStatus) => status === 'published' || status === 'scheduled';
