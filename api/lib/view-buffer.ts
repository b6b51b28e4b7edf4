import type { PostStats } from '../contract.ts';
import type { DB } from '../db/database.ts';
import { addViews, getPostStats } from '../db/queries/posts.ts';
import type { ServedRelease } from '../db/queries/releases.ts';
import { createCountBatch } from './count-batch.ts';

/**
 * Post views, counted in memory and written in one transaction at most once per flush interval,
 * so the beacon every post visit sends never waits on a disk sync and never holds up reads. A hard
 * crash loses at most one interval of views (docs/product.md, "Views"); likes and comments are
 * written before they are acknowledged.
 */
export interface ViewBuffer {
  /** Counts one view of a post; returns the views of it still waiting to be written. */
  record: (postId: number) => number;
  /** Views of a post counted here but not yet written. */
  pending: (postId: number) => number;
  /** Writes everything pending now. */
  flush: () => Promise<void>;
  /**
   * A live post's stored counts, for a view's answer (which adds the pending views). Read at most
   * once per flush interval for all the views of that post, and again after each write of views,
   * so the stored count and the pending views never count a view twice or miss one.
   */
  stored: (slug: string, release: ServedRelease | null) => Promise<PostStats | null>;
}

export function createViewBuffer(
  db: DB,
  options: { flushAfterMs?: number; now?: () => Date } = {},
): ViewBuffer {
  const flushAfterMs = options.flushAfterMs ?? 1_000;
  const now = options.now ?? (() => new Date());
  /** Writes done so far: a stored count read before the latest write is read again. */
  let written = 0;
  const stored = new Map<string, { at: number; written: number; stats: Promise<PostStats | null> }>();
  const views = createCountBatch<number>({
    flushAfterMs,
    what: 'views',
    write: async (counts) => {
      await addViews(db, counts, now());
      written++;
    },
  });

  return {
    record(postId) {
      views.add(postId);
      return views.pending(postId);
    },
    pending: views.pending,
    flush: views.flush,
    stored(slug, release) {
      const key = `${release?.id ?? 0} ${slug}`;
      const at = now().getTime();
      let entry = stored.get(key);
      if (!entry || entry.written !== written || at - entry.at >= flushAfterMs) {
        const stats = getPostStats(db, slug, release);
        entry = { at, written, stats };
        if (stored.size >= 1_000) stored.clear();
        stored.set(key, entry);
        // A failed read is not kept.
        stats.catch(() => stored.get(key)?.stats === stats && stored.delete(key));
      }
      return entry.stats;
    },
  };
}
