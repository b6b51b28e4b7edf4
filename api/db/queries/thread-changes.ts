// What a thread's events stand for, as its readers see it now (docs/decisions/026-live-threads.md).
import type { Reply } from '../../contract.ts';
import type { ThreadChange } from '../../contract/live-threads.ts';
import type { DB } from '../database.ts';
import { ANONYMOUS, toWire } from './comments.ts';
import type { ThreadEvent } from './thread-events.ts';

/** Statuses an anonymous reader finds in a thread (the placeholders of held and removed ones too). */
const LISTED = new Set(['visible', 'held', 'removed']);

/**
 * The changes that events stand for, as an anonymous reader sees them now: each comment's present
 * state under the id of its last event (earlier events of the same comment add nothing to it), in
 * id order; a top-level comment nothing has happened to yet is only announced (`new`: the contract
 * says why). Three or four queries whatever the number of events.
 */
export async function threadChanges(
  db: DB,
  events: ThreadEvent[],
  now: Date,
): Promise<ThreadChange<Reply>[]> {
  if (events.length === 0) return [];
  const last = new Map<number, ThreadEvent>();
  for (const event of events) last.set(event.comment_id, event);
  const ids = [...last.keys()];
  const rows = new Map(
    (await db.selectFrom('comments').selectAll().where('comment_id', 'in', ids).execute()).map((r) => [
      r.comment_id,
      r,
    ]),
  );
  const parents = [...new Set([...rows.values()].map((r) => r.parent_comment_id).filter((p) => p !== null))];
  const parentReplies = new Map<number, number>();
  if (parents.length > 0) {
    for (const p of await db
      .selectFrom('comments')
      .select(['comment_id', 'reply_count'])
      .where('comment_id', 'in', parents)
      .execute())
      parentReplies.set(p.comment_id, p.reply_count);
  }
  // A deleted top-level comment stays (as "deleted") while it has replies readers find.
  const deletedTops = [...rows.values()]
    .filter((r) => r.status === 'deleted' && r.parent_comment_id === null)
    .map((r) => r.comment_id);
  const keepsPlace = new Set<number>();
  if (deletedTops.length > 0) {
    for (const r of await db
      .selectFrom('comments')
      .select('parent_comment_id')
      .distinct()
      .where('parent_comment_id', 'in', deletedTops)
      .where('status', 'in', [...LISTED] as ('visible' | 'held' | 'removed')[])
      .execute())
      keepsPlace.add(r.parent_comment_id!);
  }
  const postIds = [...new Set(events.map((e) => e.post_id))];
  const counts = new Map(
    (
      await db
        .selectFrom('blog_posts')
        .select(['post_id', 'comment_count'])
        .where('post_id', 'in', postIds)
        .execute()
    ).map((p) => [p.post_id, p.comment_count]),
  );
  return [...last.values()]
    .sort((a, b) => a.event_id - b.event_id)
    .map((event): ThreadChange<Reply> => {
      const row = rows.get(event.comment_id);
      const commentCount = counts.get(event.post_id) ?? 0;
      if (!row || !(LISTED.has(row.status) || keepsPlace.has(row.comment_id))) {
        return {
          id: event.event_id,
          kind: 'gone',
          commentId: event.comment_id,
          parentCommentId: row?.parent_comment_id ?? null,
          commentCount,
        };
      }
      if (
        row.parent_comment_id === null &&
        row.status === 'visible' &&
        row.like_count === 0 &&
        row.reply_count === 0 &&
        row.edited_at === null
      ) {
        return { id: event.event_id, kind: 'new', commentId: row.comment_id, commentCount };
      }
      return {
        id: event.event_id,
        kind: 'comment',
        comment: toWire(row, ANONYMOUS, now),
        parentCommentId: row.parent_comment_id,
        replyCount:
          row.parent_comment_id === null ? row.reply_count : (parentReplies.get(row.parent_comment_id) ?? 0),
        commentCount,
      };
    });
}
