import type { PostStats } from '../contract.ts';
import type { DB } from '../db/database.ts';
import { addViews, getPostStats } from '../db/queries/posts.ts';
import type { ServedRelease } from '../db/queries/releases.ts';

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
  let waiting = new Map<number, number>();
  let writing = new Map<number, number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let flushing: Promise<void> | null = null;
  /** Writes done so far: a stored count read before the latest write is read again. */
  let written = 0;
  const stored = new Map<string, { at: number; written: number; stats: Promise<PostStats | null> }>();

  async function write(): Promise<void> {
    timer = null;
    if (waiting.size === 0) return;
    writing = waiting;
    waiting = new Map();
    try {
      await addViews(db, writing, now());
      written++;
    } catch (error) {
      // Kept for the next flush rather than dropped.
      console.error('Writing views failed; they will be retried', error);
      for (const [postId, count] of writing) waiting.set(postId, (waiting.get(postId) ?? 0) + count);
      schedule();
    } finally {
      writing = new Map();
    }
  }

  function schedule() {
    if (timer) return;
    // A timer only while views are waiting, so an idle process (or a finished test) holds none.
    timer = setTimeout(() => void flush(), flushAfterMs);
    timer.unref?.();
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    flushing = (flushing ?? Promise.resolve()).then(write);
    return flushing;
  }

  return {
    record(postId) {
      const count = (waiting.get(postId) ?? 0) + 1;
      waiting.set(postId, count);
      schedule();
      return count + (writing.get(postId) ?? 0);
    },
    pending: (postId) => (waiting.get(postId) ?? 0) + (writing.get(postId) ?? 0),
    flush,
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
