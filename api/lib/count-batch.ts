/**
 * Counts per key, kept in memory and written in one go at most flushAfterMs after the first one
 * waits: what the view buffer (views per post) and the view beacons' limiter (beacons per address)
 * both do, so a beacon never waits on a write. A write that fails keeps its counts for the next.
 */
export interface CountBatch<K> {
  /** Counts one more for the key. */
  add: (key: K) => void;
  /** Takes one back from what waits for the key; false when nothing waits (it was written). */
  takeBack: (key: K) => boolean;
  /** Counted for the key and not yet written (waiting, or being written now). */
  pending: (key: K) => number;
  /** Whether the key's counts are being written right now. */
  isWriting: (key: K) => boolean;
  /** Writes everything waiting now. */
  flush: () => Promise<void>;
}

/** Kysely's error for a query on a database whose connections have been destroyed. */
function isClosedDatabase(error: unknown): boolean {
  return error instanceof Error && error.message === 'driver has already been destroyed';
}

export function createCountBatch<K>(options: {
  flushAfterMs: number;
  /** What is counted, for the log when a write fails. */
  what: string;
  /** Writes one batch; throwing keeps it for the next write. */
  write: (counts: ReadonlyMap<K, number>) => Promise<void>;
}): CountBatch<K> {
  let waiting = new Map<K, number>();
  let writing = new Map<K, number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let flushing: Promise<void> = Promise.resolve();

  async function write(): Promise<void> {
    timer = null;
    if (waiting.size === 0) return;
    writing = waiting;
    waiting = new Map();
    try {
      await options.write(writing);
    } catch (error) {
      // A database that has been closed never takes them: a process that closes it without a stop
      // (the server writes what waits first, api/server.ts) would otherwise retry every second for
      // as long as it lives.
      if (isClosedDatabase(error)) {
        console.error(`${options.what} were not written: the database was closed`);
        return;
      }
      console.error(`Writing ${options.what} failed; they will be retried`, error);
      for (const [key, count] of writing) waiting.set(key, (waiting.get(key) ?? 0) + count);
      schedule();
    } finally {
      writing = new Map();
    }
  }

  function schedule() {
    if (timer) return;
    // A timer only while counts are waiting, so an idle process (or a finished test) holds none.
    timer = setTimeout(() => void flush(), options.flushAfterMs);
    timer.unref?.();
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    flushing = flushing.then(write);
    return flushing;
  }

  return {
    add(key) {
      waiting.set(key, (waiting.get(key) ?? 0) + 1);
      schedule();
    },
    takeBack(key) {
      const count = waiting.get(key) ?? 0;
      if (count > 1) waiting.set(key, count - 1);
      else if (count === 1) waiting.delete(key);
      return count > 0;
    },
    pending: (key) => (waiting.get(key) ?? 0) + (writing.get(key) ?? 0),
    isWriting: (key) => writing.has(key),
    flush,
  };
}
