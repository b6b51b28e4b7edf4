import type { DB } from '../database.ts';
import type { ServedRelease } from './releases.ts';

// A published post whose slug changes keeps its old address: it answers 301 to the new one
// (docs/product.md, "The studio"). The redirect follows the live release, so the old address
// forwards exactly when the page under the new one is live.

/** Records that `fromSlug` was a published address of the post (a later publish may move it again). */
export async function addRedirect(trx: DB, fromSlug: string, postId: number, now: Date): Promise<void> {
  await trx
    .insertInto('post_redirects')
    .values({ from_slug: fromSlug, post_id: postId, created_at: now.toISOString() })
    .onConflict((oc) =>
      oc.column('from_slug').doUpdateSet({ post_id: postId, created_at: now.toISOString() }),
    )
    .execute();
}

/** A post that takes an address back (its own old slug) no longer forwards from it. */
export async function removeRedirect(trx: DB, fromSlug: string): Promise<void> {
  await trx.deleteFrom('post_redirects').where('from_slug', '=', fromSlug).execute();
}

/** The post that had `slug` before, if another post does not own it now (for a slug check). */
export async function redirectOwner(db: DB, slug: string): Promise<number | null> {
  const row = await db
    .selectFrom('post_redirects')
    .select('post_id')
    .where('from_slug', '=', slug)
    .executeTakeFirst();
  return row?.post_id ?? null;
}

/** Where an old address forwards in this release: the post's slug there, or null. */
export async function redirectTarget(db: DB, release: ServedRelease, slug: string): Promise<string | null> {
  const row = await db
    .selectFrom('post_redirects')
    .innerJoin('release_posts', 'release_posts.post_id', 'post_redirects.post_id')
    .select('release_posts.slug')
    .where('post_redirects.from_slug', '=', slug)
    .where('release_posts.release_id', '=', release.id)
    .where('release_posts.published_at', '<=', release.contentAsOf)
    .where('release_posts.slug', '!=', slug)
    .executeTakeFirst();
  return row?.slug ?? null;
}
