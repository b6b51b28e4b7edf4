import { type AuditEntry, ERASED_ACCOUNT_NAME } from '../../contract.ts';
import type { DB } from '../database.ts';

export interface NewAuditEntry {
  actor: { uid: string | null; name: string };
  /** One of AUDIT_ACTIONS in api/contract.ts, or a new one listed there. */
  action: string;
  target: { type: string; id: string | number };
  reason: string | null;
  details?: AuditEntry['details'];
}

/**
 * The one way to write the audit log. Call it with the transaction of the action it records, so an
 * action and its entry are stored together or not at all. Nothing updates or deletes entries.
 * Returns the entry's id.
 */
export async function recordAudit(db: DB, entry: NewAuditEntry, now: Date): Promise<number> {
  const { audit_id } = await db
    .insertInto('audit_log')
    .values({
      at: now.toISOString(),
      actor_uid: entry.actor.uid,
      actor_name: entry.actor.name,
      action: entry.action,
      target_type: entry.target.type,
      target_id: String(entry.target.id),
      reason: entry.reason,
      details: JSON.stringify(entry.details ?? {}),
    })
    .returning('audit_id')
    .executeTakeFirstOrThrow();
  return audit_id;
}

/**
 * The one change ever made to written entries, for account erasure (docs/product.md, "Deleting
 * your account"): where the erased parent is the actor or the target, their uid and name give way
 * to a random label and ERASED_ACCOUNT_NAME. What was done, when and why stays.
 */
export async function anonymizeAudit(db: DB, uid: string, label: string): Promise<number> {
  const actor = await db
    .updateTable('audit_log')
    .set({ actor_uid: label, actor_name: ERASED_ACCOUNT_NAME })
    .where('actor_uid', '=', uid)
    .executeTakeFirst();
  const target = await db
    .updateTable('audit_log')
    .set({ target_id: label })
    .where('target_type', '=', 'user')
    .where('target_id', '=', uid)
    .executeTakeFirst();
  return Number(actor.numUpdatedRows) + Number(target.numUpdatedRows);
}

const isScalar = (value: unknown): value is string | number | boolean | null =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

export function parseDetails(text: string): AuditEntry['details'] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const details: AuditEntry['details'] = {};
    for (const [key, value] of Object.entries(parsed)) if (isScalar(value)) details[key] = value;
    return details;
  } catch {
    return {};
  }
}

type Target = AuditEntry['target'];

/** A comment's (or match's, or post's) id as written in target_id; anything else matches none (ids are 32-bit). */
const commentIdOf = (targetId: string): number | null =>
  /^[1-9]\d{0,9}$/.test(targetId) && Number(targetId) <= 2_147_483_647 ? Number(targetId) : null;

/**
 * The targets of a page of entries in words, with a link where one helps: one query each for the
 * parents, the comments, the possible recalls, the posts and the listings, whatever the page's length. A parent is named as their profile
 * says now; without a profile (an erased account, whose uid gave way to a label) they are "an
 * erased parent", so no uid ever shows.
 */
async function describeTargets(
  db: DB,
  rows: { target_type: string; target_id: string }[],
): Promise<Target[]> {
  const uids = [...new Set(rows.filter((r) => r.target_type === 'user').map((r) => r.target_id))];
  const commentIds = [
    ...new Set(
      rows
        .filter((r) => r.target_type === 'comment')
        .map((r) => commentIdOf(r.target_id))
        .filter((id) => id !== null),
    ),
  ];
  const profiles =
    uids.length === 0
      ? []
      : await db
          .selectFrom('users_profile')
          .select(['firebase_uid', 'display_name'])
          .where('firebase_uid', 'in', uids)
          .execute();
  const comments =
    commentIds.length === 0
      ? []
      : await db
          .selectFrom('comments')
          .innerJoin('blog_posts', 'blog_posts.post_id', 'comments.post_id')
          .select(['comments.comment_id', 'blog_posts.slug', 'blog_posts.title'])
          .where('comments.comment_id', 'in', commentIds)
          .execute();
  const matchIds = [
    ...new Set(
      rows
        .filter((r) => r.target_type === 'recall_match')
        .map((r) => commentIdOf(r.target_id))
        .filter((id) => id !== null),
    ),
  ];
  const matches =
    matchIds.length === 0
      ? []
      : await db
          .selectFrom('recall_matches')
          .leftJoin('items', 'items.item_id', 'recall_matches.item_id')
          .select(['recall_matches.match_id', 'items.item_name'])
          .where('recall_matches.match_id', 'in', matchIds)
          .execute();
  const postIds = [
    ...new Set(
      rows
        .filter((r) => r.target_type === 'post')
        .map((r) => commentIdOf(r.target_id))
        .filter((id) => id !== null),
    ),
  ];
  const postTitles = new Map(
    (postIds.length === 0
      ? []
      : await db
          .selectFrom('blog_posts')
          .select(['post_id', 'title'])
          .where('post_id', 'in', postIds)
          .execute()
    ).map((p) => [p.post_id, p.title]),
  );
  const listingIds = [...new Set(rows.filter((r) => r.target_type === 'listing').map((r) => r.target_id))];
  const listingNames = new Map(
    (listingIds.length === 0
      ? []
      : await db
          .selectFrom('items')
          .select(['item_id', 'item_name'])
          .where('item_id', 'in', listingIds)
          .execute()
    ).map((i) => [i.item_id, i.item_name]),
  );
  const names = new Map(profiles.map((p) => [p.firebase_uid, p.display_name.trim()]));
  const matchItems = new Map(matches.map((m) => [Number(m.match_id), m.item_name]));
  const posts = new Map(comments.map((c) => [c.comment_id, c]));
  return rows.map(({ target_type: type, target_id: id }): Target => {
    switch (type) {
      case 'user': {
        const name = names.get(id);
        return { name: name === undefined ? 'an erased parent' : name || 'a parent', href: null };
      }
      case 'comment': {
        const commentId = commentIdOf(id);
        const post = commentId === null ? undefined : posts.get(commentId);
        return post
          ? { name: `a comment on “${post.title}”`, href: `/blog/${post.slug}#comment-${commentId}` }
          : { name: 'a comment that no longer exists', href: null };
      }
      case 'deletion_request':
        return { name: `deletion request #${id}`, href: null };
      case 'release':
        return { name: `release #${id}`, href: '/admin' };
      case 'recall_match': {
        const matchId = commentIdOf(id);
        const itemName = matchId === null ? undefined : matchItems.get(matchId);
        return {
          name: itemName
            ? `a possible recall of “${itemName}”`
            : 'a possible recall of an item no longer listed',
          href: '/moderation#recalls',
        };
      }
      case 'listing': {
        // A listing by its name, as the console's "Listings to check" showed it; never its id.
        const itemName = listingNames.get(id);
        return {
          name: itemName === undefined ? 'a listing no longer kept' : `the listing “${itemName}”`,
          href: null,
        };
      }
      case 'post': {
        // A post is named by its title in the database now; the studio opens it.
        const postId = commentIdOf(id);
        const title = postId === null ? undefined : postTitles.get(postId);
        return title === undefined
          ? { name: 'a post that no longer exists', href: null }
          : { name: `the post “${title}”`, href: `/studio/edit/?post=${postId}` };
      }
      default:
        return { name: `${type} ${id}`, href: null };
    }
  });
}

/** The log, newest first, a page at a time (`before`: the last id of the previous page). */
export async function listAudit(
  db: DB,
  page: { limit: number; before: number | null },
): Promise<{ entries: AuditEntry[]; next: number | null }> {
  const rows = await db
    .selectFrom('audit_log')
    .selectAll()
    .$if(page.before !== null, (q) => q.where('audit_id', '<', page.before!))
    .orderBy('audit_id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const shown = rows.slice(0, page.limit);
  const targets = await describeTargets(db, shown);
  return {
    entries: shown.map((row, i) => ({
      id: row.audit_id,
      at: row.at,
      actorUid: row.actor_uid,
      actorName: row.actor_name,
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      reason: row.reason,
      details: parseDetails(row.details),
      target: targets[i]!,
    })),
    next: rows.length > page.limit ? shown[shown.length - 1]!.audit_id : null,
  };
}
