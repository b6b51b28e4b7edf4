import type { DB } from '../database.ts';

/** How long changes are kept for pages to resume from (docs/decisions/026-live-threads.md). */
export const THREAD_EVENTS_KEPT_MS = 24 * 3_600_000;

export interface ThreadEvent {
  event_id: number;
  post_id: number;
  comment_id: number;
}

/**
 * Notes that a comment changed in a way its thread's readers see, in the transaction of the
 * change, so the change and its event are committed (or not) together.
 */
export async function recordThreadEvent(
  trx: DB,
  change: { postId: number; commentId: number },
  now: Date,
): Promise<void> {
  await trx
    .insertInto('thread_events')
    .values({ post_id: change.postId, comment_id: change.commentId, created_at: now.toISOString() })
    .execute();
}

/** The newest event's id, or 0 when there is none. */
export async function latestThreadEventId(db: DB): Promise<number> {
  const row = await db
    .selectFrom('thread_events')
    .select((eb) => eb.fn.max('event_id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** The oldest event still kept, or null when there is none. */
export async function oldestThreadEventId(db: DB): Promise<number | null> {
  const row = await db
    .selectFrom('thread_events')
    .select((eb) => eb.fn.min('event_id').as('id'))
    .executeTakeFirst();
  return row?.id == null ? null : Number(row.id);
}

/** Every thread's events after an id, in order, up to `limit`. */
export async function readEventsAfter(db: DB, after: number, limit: number): Promise<ThreadEvent[]> {
  return db
    .selectFrom('thread_events')
    .select(['event_id', 'post_id', 'comment_id'])
    .where('event_id', '>', after)
    .orderBy('event_id')
    .limit(limit)
    .execute();
}

/** One post's events after `after` and at most `upTo`, in order, up to `limit`. */
export async function readPostEvents(
  db: DB,
  postId: number,
  range: { after: number; upTo: number; limit: number },
): Promise<ThreadEvent[]> {
  return db
    .selectFrom('thread_events')
    .select(['event_id', 'post_id', 'comment_id'])
    .where('post_id', '=', postId)
    .where('event_id', '>', range.after)
    .where('event_id', '<=', range.upTo)
    .orderBy('event_id')
    .limit(range.limit)
    .execute();
}

/** Deletes the events older than the time they are kept for; returns how many went. */
export async function pruneThreadEvents(db: DB, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('thread_events')
    .where('created_at', '<', new Date(now.getTime() - THREAD_EVENTS_KEPT_MS).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
