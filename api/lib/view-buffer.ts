import type { DB } from '../db/database.ts';
import { addViews } from '../db/queries/posts.ts';

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

  async function write(): Promise<void> {
    timer = null;
    if (waiting.size === 0) return;
    writing = waiting;
    waiting = new Map();
    try {
      await addViews(db, writing, now());
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
  };
}
