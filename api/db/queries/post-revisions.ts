import type { StudioPostFields, StudioRevision } from '../../contract/studio.ts';
import type { DB } from '../database.ts';
import type { PostRevisionsRow } from '../schema.ts';

// Every save of a post keeps a revision (docs/product.md, "The studio"): the whole post as it was
// saved, who saved it and when. blog_posts.revision names the latest; nothing edits or deletes one.

export interface RevisionAuthor {
  /** null for a revision imported from a file in content/posts. */
  uid: string | null;
  name: string;
}

export function toRevision(row: PostRevisionsRow): StudioRevision {
  let categories: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.categories);
    if (Array.isArray(parsed)) categories = parsed.filter((c): c is string => typeof c === 'string');
  } catch {
    // Written only by addRevision, as JSON; a hand-edited row shows no categories rather than failing.
  }
  return {
    revision: row.revision,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    markdown: row.markdown,
    categories,
    kind: row.kind,
    featured: row.is_featured === 1,
    featuredImageUrl: row.featured_image_url,
    featuredImageAlt: row.featured_image_alt,
    savedAt: row.saved_at,
    savedBy: row.saved_by_name,
    restoredFrom: row.restored_from,
  };
}

/**
 * Keeps the post's fields as its next revision and makes it the latest; returns its number. Call
 * it in the transaction that decided the save may happen (it reads blog_posts.revision there).
 */
export async function addRevision(
  trx: DB,
  postId: number,
  fields: StudioPostFields,
  by: RevisionAuthor,
  now: Date,
  restoredFrom: number | null = null,
): Promise<number> {
  const { revision: latest } = await trx
    .selectFrom('blog_posts')
    .select('revision')
    .where('post_id', '=', postId)
    .executeTakeFirstOrThrow();
  const revision = latest + 1;
  await trx
    .insertInto('post_revisions')
    .values({
      post_id: postId,
      revision,
      title: fields.title,
      slug: fields.slug,
      excerpt: fields.excerpt,
      markdown: fields.markdown,
      categories: JSON.stringify(fields.categories),
      kind: fields.kind,
      is_featured: fields.featured ? 1 : 0,
      featured_image_url: fields.featuredImageUrl,
      featured_image_alt: fields.featuredImageAlt,
      saved_at: now.toISOString(),
      saved_by_uid: by.uid,
      saved_by_name: by.name,
      restored_from: restoredFrom,
    })
    .execute();
  await trx.updateTable('blog_posts').set({ revision }).where('post_id', '=', postId).execute();
  return revision;
}

export async function findRevision(db: DB, postId: number, revision: number): Promise<StudioRevision | null> {
  const row = await db
    .selectFrom('post_revisions')
    .selectAll()
    .where('post_id', '=', postId)
    .where('revision', '=', revision)
    .executeTakeFirst();
  return row ? toRevision(row) : null;
}

/** A post's revisions, newest first. */
export async function listRevisions(db: DB, postId: number): Promise<StudioRevision[]> {
  const rows = await db
    .selectFrom('post_revisions')
    .selectAll()
    .where('post_id', '=', postId)
    .orderBy('revision', 'desc')
    .execute();
  return rows.map(toRevision);
}

/** The post's latest revision (blog_posts.revision), or null before its first. */
export async function latestRevision(db: DB, postId: number): Promise<StudioRevision | null> {
  const row = await db
    .selectFrom('post_revisions')
    .innerJoin('blog_posts', (join) =>
      join
        .onRef('blog_posts.post_id', '=', 'post_revisions.post_id')
        .onRef('blog_posts.revision', '=', 'post_revisions.revision'),
    )
    .selectAll('post_revisions')
    .where('post_revisions.post_id', '=', postId)
    .executeTakeFirst();
  return row ? toRevision(row) : null;
}

/** A revision's post fields alone (what a save sends, what a restore copies). */
export function revisionFields(revision: StudioRevision): StudioPostFields {
  return {
    title: revision.title,
    slug: revision.slug,
    excerpt: revision.excerpt,
    markdown: revision.markdown,
    categories: revision.categories,
    kind: revision.kind,
    featured: revision.featured,
    featuredImageUrl: revision.featuredImageUrl,
    featuredImageAlt: revision.featuredImageAlt,
  };
}
