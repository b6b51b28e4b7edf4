import type { Updateable } from 'kysely';
import {
  type PostStatus,
  type RenderedMarkdown,
  SLUG_MAX,
  slugify,
  type StudioPost,
  type StudioPostCreated,
  type StudioPostFields,
  type StudioPostSaved,
  type StudioPostSummary,
  type StudioRevision,
} from '../../contract/studio.ts';
import { RuleError } from '../../lib/errors.ts';
import { countWords, imagesWithoutAlt, readingTimeMinutes, renderMarkdown } from '../../lib/html.ts';
import type { DB } from '../database.ts';
import { forUpdate } from '../dialect.ts';
import type { BlogPostsTable, StoredPostStatus } from '../schema.ts';
import { recordAudit } from './audit.ts';
import { addRevision, findRevision, latestRevision, revisionFields } from './post-revisions.ts';
import { addRedirect, redirectOwner, removeRedirect } from './redirects.ts';

// The studio's posts (docs/product.md, "The studio"). A save only adds a revision: what readers
// get (blog_posts' title, slug, content, …, which every release snapshots) changes only when an
// editor publishes, from the latest revision. A post never published keeps blog_posts equal to
// its latest revision, so its slug stays reserved and the audit log can name it.

/** Who does something in the studio: a signed-in author, editor or admin. */
export interface StudioActor {
  uid: string;
  name: string;
}

/** What the routes need to decide who may do what to a post. */
export interface PostHead {
  postId: number;
  authorUid: string | null;
  title: string;
  slug: string;
  status: StoredPostStatus;
}

/** A new post: as a save, but the slug may be left to the title. */
export type NewStudioPost = Omit<StudioPostFields, 'slug'> & { slug: string | null };

/** What a publish did: the post's state and when it goes (or went) live. */
export interface Published {
  status: 'published' | 'scheduled';
  publishAt: string;
  revision: number;
  slug: string;
}

/** The studio's name for a stored state: a published post whose time is still to come is scheduled. */
export function studioStatus(status: StoredPostStatus, publishedAt: string | null, now: Date): PostStatus {
  if (status === 'published' && publishedAt !== null && Date.parse(publishedAt) > now.getTime()) {
    return 'scheduled';
  }
  return status;
}

/** Markdown as readers will get it: the build's sanitizing pipeline, its words and reading time. */
export function renderForStudio(markdown: string): RenderedMarkdown {
  const html = renderMarkdown(markdown);
  return { html, wordCount: countWords(html), readingTimeMinutes: readingTimeMinutes(html) };
}

export async function findPostHead(db: DB, postId: number): Promise<PostHead | null> {
  const row = await db
    .selectFrom('blog_posts')
    .select(['post_id', 'author_uid', 'title', 'slug', 'status'])
    .where('post_id', '=', postId)
    .executeTakeFirst();
  return row
    ? { postId: row.post_id, authorUid: row.author_uid, title: row.title, slug: row.slug, status: row.status }
    : null;
}

/** The posts' rows with their latest revision's title, slug and time, when they have one. */
function summaries(db: DB) {
  return db
    .selectFrom('blog_posts')
    .leftJoin('post_revisions', (join) =>
      join
        .onRef('post_revisions.post_id', '=', 'blog_posts.post_id')
        .onRef('post_revisions.revision', '=', 'blog_posts.revision'),
    )
    .select((eb) => [
      'blog_posts.post_id',
      'blog_posts.slug',
      'blog_posts.title',
      'blog_posts.status',
      'blog_posts.author_name',
      'blog_posts.author_uid',
      'blog_posts.published_at',
      'blog_posts.source',
      'blog_posts.revision',
      'blog_posts.published_revision',
      'post_revisions.slug as draft_slug',
      'post_revisions.title as draft_title',
      eb.fn.coalesce('post_revisions.saved_at', 'blog_posts.updated_at').as('changed_at'),
    ]);
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaries>['executeTakeFirstOrThrow']>>;

function toSummary(row: SummaryRow, now: Date): StudioPostSummary {
  return {
    postId: row.post_id,
    slug: row.draft_slug ?? row.slug,
    title: row.draft_title ?? row.title,
    status: studioStatus(row.status, row.published_at, now),
    authorName: row.author_name,
    updatedAt: row.changed_at,
    publishAt: row.published_at,
    source: row.source,
    hasUnpublishedChanges:
      row.status === 'published' &&
      row.published_revision !== null &&
      row.revision !== row.published_revision,
  };
}

/**
 * The studio's list, the latest change first: an author's own posts (authorUid), or every post,
 * those imported from content/ included.
 */
export async function listStudioPosts(
  db: DB,
  filter: { authorUid: string | null; status: PostStatus | null },
  now: Date,
): Promise<StudioPostSummary[]> {
  const stamp = now.toISOString();
  const { authorUid, status } = filter;
  // Scheduled and published are both stored as published; the time tells them apart.
  const stored: StoredPostStatus | null =
    status === 'draft' || status === 'review' || status === 'withdrawn' ? status : null;
  const rows = await summaries(db)
    .$if(authorUid !== null, (q) => q.where('blog_posts.author_uid', '=', authorUid))
    .$if(status === 'scheduled', (q) =>
      q.where('blog_posts.status', '=', 'published').where('blog_posts.published_at', '>', stamp),
    )
    .$if(status === 'published', (q) =>
      q
        .where('blog_posts.status', '=', 'published')
        .where((eb) =>
          eb.or([eb('blog_posts.published_at', 'is', null), eb('blog_posts.published_at', '<=', stamp)]),
        ),
    )
    .$if(stored !== null, (q) => q.where('blog_posts.status', '=', stored!))
    .orderBy('changed_at', 'desc')
    .orderBy('blog_posts.post_id', 'desc')
    .execute();
  return rows.map((row) => toSummary(row, now));
}

/**
 * A post as the editor opens it: its latest revision, rendered as readers would get it. A post
 * imported from content/ that has no revision yet cannot be opened (409).
 */
export async function findStudioPost(db: DB, postId: number, now: Date): Promise<StudioPost | null> {
  const row = await summaries(db).where('blog_posts.post_id', '=', postId).executeTakeFirst();
  if (!row) return null;
  const latest = await latestRevision(db, postId);
  if (!latest) throw noText(row.title);
  return {
    ...toSummary(row, now),
    ...revisionFields(latest),
    ...renderForStudio(latest.markdown),
    revision: latest.revision,
    publishedRevision: row.published_revision,
    authorUid: row.author_uid,
  };
}

const noText = (title: string) =>
  new RuleError(
    `“${title}” has no text in the studio yet: it is a file in content/posts that the next publish imports.`,
    409,
  );

/** The post that uses `slug` (as its address, its latest revision's or an old address), other than `except`. */
export async function slugOwner(db: DB, slug: string, except: number | null): Promise<number | null> {
  const post = await db
    .selectFrom('blog_posts')
    .select('post_id')
    .where('slug', '=', slug)
    .$if(except !== null, (q) => q.where('post_id', '!=', except!))
    .executeTakeFirst();
  if (post) return post.post_id;
  const draft = await db
    .selectFrom('post_revisions')
    .innerJoin('blog_posts', (join) =>
      join
        .onRef('blog_posts.post_id', '=', 'post_revisions.post_id')
        .onRef('blog_posts.revision', '=', 'post_revisions.revision'),
    )
    .select('post_revisions.post_id')
    .where('post_revisions.slug', '=', slug)
    .$if(except !== null, (q) => q.where('post_revisions.post_id', '!=', except!))
    .executeTakeFirst();
  if (draft) return draft.post_id;
  const forwarded = await redirectOwner(db, slug);
  return forwarded !== null && forwarded !== except ? forwarded : null;
}

const slugTaken = (slug: string) =>
  new RuleError(`slug: “${slug}” is already the address of another post; choose another.`, 409);

async function refuseTakenSlug(db: DB, slug: string, postId: number | null): Promise<void> {
  if ((await slugOwner(db, slug, postId)) !== null) throw slugTaken(slug);
}

/** The title's slug, or the first of slug-2, slug-3, … that no post uses. */
async function freeSlug(db: DB, title: string): Promise<string> {
  const base = slugify(title) || 'post';
  for (let n = 1; ; n += 1) {
    const suffix = n === 1 ? '' : `-${n}`;
    const slug = `${base.slice(0, SLUG_MAX - suffix.length).replace(/-+$/, '')}${suffix}`;
    if ((await slugOwner(db, slug, null)) === null) return slug;
  }
}

/** The ids of the categories, refusing (with `status`) any slug that is not a blog category. */
async function categoryIds(db: DB, slugs: string[], status: 400 | 409): Promise<number[]> {
  if (slugs.length === 0) return [];
  const rows = await db
    .selectFrom('blog_categories')
    .select(['slug', 'category_id'])
    .where('slug', 'in', slugs)
    .execute();
  const ids = new Map(rows.map((r) => [r.slug, r.category_id]));
  const unknown = slugs.filter((slug) => !ids.has(slug));
  if (unknown.length > 0) {
    throw new RuleError(
      `categories: ${unknown.map((s) => `“${s}”`).join(', ')} ${unknown.length === 1 ? 'is not a blog category' : 'are not blog categories'}`,
      status,
    );
  }
  return slugs.map((slug) => ids.get(slug)!);
}

/** The fields readers get, from a revision's. */
function readerValues(fields: StudioPostFields) {
  const content = renderMarkdown(fields.markdown);
  return {
    title: fields.title,
    slug: fields.slug,
    excerpt: fields.excerpt,
    content,
    reading_time_minutes: readingTimeMinutes(content),
    kind: fields.kind,
    is_featured: fields.featured ? 1 : 0,
    featured_image_url: fields.featuredImageUrl,
    featured_image_alt: fields.featuredImageAlt,
  } satisfies Updateable<BlogPostsTable>;
}

async function setCategories(trx: DB, postId: number, ids: number[]): Promise<void> {
  await trx.deleteFrom('post_categories').where('post_id', '=', postId).execute();
  if (ids.length > 0) {
    await trx
      .insertInto('post_categories')
      .values(ids.map((category_id) => ({ post_id: postId, category_id })))
      .execute();
  }
}

/** A studio action on a post, in the audit log (who, what, which revision). */
function auditPost(
  trx: DB,
  actor: StudioActor,
  action: 'post.submit' | 'post.publish' | 'post.schedule' | 'post.withdraw' | 'post.restore',
  postId: number,
  details: Record<string, string | number | null>,
  now: Date,
): Promise<number> {
  return recordAudit(
    trx,
    { actor, action, target: { type: 'post', id: postId }, reason: null, details },
    now,
  );
}

/** Every image readers get says what it shows: a body image without alt text is not published. */
function refuseImagesWithoutAlt(markdown: string): void {
  const missing = imagesWithoutAlt(renderMarkdown(markdown));
  if (missing.length > 0) {
    throw new RuleError(
      `markdown: ${missing.length === 1 ? 'an image has' : `${missing.length} images have`} no alt text (${missing.join(', ')}): write what each shows, as ![what it shows](address).`,
      409,
    );
  }
}

/** The post's row, locked until the transaction ends (a second save or publish waits for this one). */
async function lockPost(trx: DB, postId: number) {
  const row = await trx
    .selectFrom('blog_posts')
    .select(['post_id', 'title', 'slug', 'status', 'revision', 'published_revision', 'published_at'])
    .where('post_id', '=', postId)
    .$call(forUpdate(trx))
    .executeTakeFirst();
  if (!row) throw new RuleError(`There is no post ${postId}.`, 404);
  return row;
}

/** Whether readers have had the post: it went live at some time (and may since be withdrawn). */
const wentLive = (row: { status: StoredPostStatus; published_revision: number | null }) =>
  row.published_revision !== null || row.status === 'published' || row.status === 'withdrawn';

/**
 * A post that readers have never had mirrors its latest revision in blog_posts, so its slug is
 * reserved and lists name it; nothing of it is in a release while it is not published.
 */
async function mirrorUnpublished(trx: DB, postId: number, fields: StudioPostFields): Promise<void> {
  // A restored revision may name a category removed since: it is left out here, and a publish names it.
  const known =
    fields.categories.length === 0
      ? []
      : await trx
          .selectFrom('blog_categories')
          .select('category_id')
          .where('slug', 'in', fields.categories)
          .execute();
  await trx.updateTable('blog_posts').set(readerValues(fields)).where('post_id', '=', postId).execute();
  await setCategories(
    trx,
    postId,
    known.map((k) => k.category_id),
  );
}

/**
 * A save or a restore: the fields become the post's next revision, and the post the studio's. A
 * post readers never had mirrors them (mirrorUnpublished); one they had changes only at publish.
 */
async function keepRevision(
  trx: DB,
  row: { status: StoredPostStatus; published_revision: number | null },
  postId: number,
  fields: StudioPostFields,
  by: StudioActor,
  now: Date,
  restoredFrom: number | null,
): Promise<number> {
  const revision = await addRevision(trx, postId, fields, by, now, restoredFrom);
  await trx
    .updateTable('blog_posts')
    .set({ updated_at: now.toISOString(), source: 'studio' })
    .where('post_id', '=', postId)
    .execute();
  if (!wentLive(row)) await mirrorUnpublished(trx, postId, fields);
  return revision;
}

/** A new draft and its first revision. An explicit slug another post uses is a 409. */
export async function createStudioPost(
  db: DB,
  input: NewStudioPost,
  by: StudioActor,
  now: Date,
): Promise<StudioPostCreated> {
  const stamp = now.toISOString();
  let slug = input.slug;
  try {
    return await db.transaction().execute(async (trx) => {
      const ids = await categoryIds(trx, input.categories, 400);
      if (slug !== null) await refuseTakenSlug(trx, slug, null);
      else slug = await freeSlug(trx, input.title);
      const fields: StudioPostFields = { ...input, slug };
      const { post_id: postId } = await trx
        .insertInto('blog_posts')
        .values({
          ...readerValues(fields),
          author_name: by.name,
          author_uid: by.uid,
          is_published: 0,
          published_at: null,
          status: 'draft',
          source: 'studio',
          source_hash: null,
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('post_id')
        .executeTakeFirstOrThrow();
      await setCategories(trx, postId, ids);
      const revision = await addRevision(trx, postId, fields, by, now);
      return { postId, slug, status: 'draft' as const, revision };
    });
  } catch (error) {
    // Another post took the slug between the check and the insert (blog_posts.slug is unique).
    if (!(error instanceof RuleError) && slug !== null && (await slugOwner(db, slug, null)) !== null) {
      throw slugTaken(slug);
    }
    throw error;
  }
}

export type SaveResult = { saved: StudioPostSaved } | { conflict: StudioRevision };

/**
 * Keeps the whole post as its next revision, unless someone saved since `baseRevision` (then the
 * latest revision, for a 409). Readers' fields of a post they have had do not change here: only a
 * publish changes them. A post from content/ becomes the studio's (the sync leaves it alone).
 */
export async function saveStudioPost(
  db: DB,
  postId: number,
  fields: StudioPostFields,
  baseRevision: number,
  by: StudioActor,
  now: Date,
): Promise<SaveResult> {
  return db.transaction().execute(async (trx): Promise<SaveResult> => {
    const row = await lockPost(trx, postId);
    if (row.revision !== baseRevision) {
      const latest = await latestRevision(trx, postId);
      if (!latest) throw new RuleError(`baseRevision: “${row.title}” has no revision ${baseRevision}`, 409);
      return { conflict: latest };
    }
    await categoryIds(trx, fields.categories, 400);
    await refuseTakenSlug(trx, fields.slug, postId);
    const revision = await keepRevision(trx, row, postId, fields, by, now, null);
    return { saved: { revision, slug: fields.slug, updatedAt: now.toISOString() } };
  });
}

/** An author hands a draft (or a withdrawn post) to the editors: it is then in review. */
export async function submitStudioPost(
  db: DB,
  postId: number,
  actor: StudioActor,
  now: Date,
): Promise<PostStatus> {
  return db.transaction().execute(async (trx): Promise<PostStatus> => {
    const row = await lockPost(trx, postId);
    if (row.status === 'review') return 'review';
    if (row.status === 'published') {
      throw new RuleError(
        `“${row.title}” is published: it stays as readers have it while you edit; ask an editor to publish your changes.`,
        409,
      );
    }
    await trx
      .updateTable('blog_posts')
      .set({ status: 'review', updated_at: now.toISOString() })
      .where('post_id', '=', postId)
      .execute();
    await auditPost(trx, actor, 'post.submit', postId, { revision: row.revision }, now);
    return 'review';
  });
}

/**
 * Makes the latest revision what readers get, now or at `at` (a scheduled post is a published one
 * whose time is to come; the release snapshot and the scheduler make it live then). A post that
 * readers have had keeps its first date unless `at` is given. When its slug changed, the old
 * address forwards to the new one.
 */
export async function publishStudioPost(
  db: DB,
  postId: number,
  at: Date | null,
  actor: StudioActor,
  now: Date,
): Promise<Published> {
  return db.transaction().execute(async (trx): Promise<Published> => {
    const row = await lockPost(trx, postId);
    const latest = await latestRevision(trx, postId);
    if (!latest) throw noText(row.title);
    const ids = await categoryIds(trx, latest.categories, 409);
    await refuseTakenSlug(trx, latest.slug, postId);
    refuseImagesWithoutAlt(latest.markdown);
    const scheduled = at !== null && at.getTime() > now.getTime();
    const keepsDate =
      (row.status === 'published' || row.status === 'withdrawn') &&
      row.published_at !== null &&
      Date.parse(row.published_at) <= now.getTime();
    const publishAt = scheduled ? at.toISOString() : keepsDate ? row.published_at! : now.toISOString();
    const fields = revisionFields(latest);
    await trx
      .updateTable('blog_posts')
      .set({
        ...readerValues(fields),
        status: 'published',
        is_published: 1,
        published_at: publishAt,
        published_revision: latest.revision,
        source: 'studio',
        updated_at: now.toISOString(),
      })
      .where('post_id', '=', postId)
      .execute();
    await setCategories(trx, postId, ids);
    if (wentLive(row) && row.slug !== latest.slug) await addRedirect(trx, row.slug, postId, now);
    await removeRedirect(trx, latest.slug);
    await auditPost(
      trx,
      actor,
      scheduled ? 'post.schedule' : 'post.publish',
      postId,
      { at: publishAt, revision: latest.revision },
      now,
    );
    return {
      status: scheduled ? 'scheduled' : 'published',
      publishAt,
      revision: latest.revision,
      slug: latest.slug,
    };
  });
}

/** Takes a published (or scheduled) post down; it keeps its revisions, comments and counts. */
export async function withdrawStudioPost(
  db: DB,
  postId: number,
  actor: StudioActor,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await lockPost(trx, postId);
    if (row.status !== 'published') {
      throw new RuleError(`“${row.title}” is not published, so there is nothing to withdraw.`, 409);
    }
    await trx
      .updateTable('blog_posts')
      .set({ status: 'withdrawn', is_published: 0, source: 'studio', updated_at: now.toISOString() })
      .where('post_id', '=', postId)
      .execute();
    await auditPost(trx, actor, 'post.withdraw', postId, { revision: row.published_revision }, now);
  });
}

/** Makes an earlier revision the latest again, as a new revision; it never publishes. */
export async function restoreStudioRevision(
  db: DB,
  postId: number,
  revision: number,
  by: StudioActor,
  now: Date,
): Promise<StudioPostSaved> {
  return db.transaction().execute(async (trx): Promise<StudioPostSaved> => {
    const row = await lockPost(trx, postId);
    const earlier = await findRevision(trx, postId, revision);
    if (!earlier) throw new RuleError(`“${row.title}” has no revision ${revision}.`, 404);
    await refuseTakenSlug(trx, earlier.slug, postId);
    const fields = revisionFields(earlier);
    const added = await keepRevision(trx, row, postId, fields, by, now, revision);
    await auditPost(trx, by, 'post.restore', postId, { revision: added, restoredFrom: revision }, now);
    return { revision: added, slug: fields.slug, updatedAt: now.toISOString() };
  });
}
