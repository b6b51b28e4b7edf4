import type { DB } from '../db/database.ts';
import { findServedRelease, liveRelease, type ServedRelease } from '../db/queries/releases.ts';
import { storageFailure } from './storage-failure.ts';

/** Which release the API answers from (and the server serves the folder of). */
export interface ReleaseSource {
  /** The release for an answer now; null before anything has been published. */
  current: () => Promise<ServedRelease | null>;
  /**
   * What current() would give right now without reading, once a read has finished and while it
   * is fresh; undefined when current() would read (or is reading). Lets a kept answer be given
   * without waiting (api/middleware/read-cache.ts).
   */
  known: () => ServedRelease | null | undefined;
}

/** The live release as one instance sees it (liveReleaseSource). */
export interface LiveReleaseSource extends ReleaseSource {
  /**
   * Forgets what was read, so that the next request reads the live release again: the instance's
   * own publisher calls it when it has switched, so that instance serves the switch at once.
   */
  refresh: () => void;
}

/**
 * The live release as one instance sees it: read from the database at most once per ttlMs, and
 * shared by every request meanwhile, so the instance's site files and API answers always come from
 * the same release and every instance follows a switch within ttlMs.
 */
export function liveReleaseSource(
  db: DB,
  options: { ttlMs?: number; now?: () => number } = {},
): LiveReleaseSource {
  const ttlMs = options.ttlMs ?? 1_000;
  const now = options.now ?? (() => Date.now());
  let value: Promise<ServedRelease | null> | null = null;
  let readAt = 0;
  /** The value of the latest read, once it has finished. */
  let settled: { reading: Promise<ServedRelease | null>; release: ServedRelease | null } | null = null;
  /** The release of the latest read that succeeded: undefined before one has. */
  let lastKnown: ServedRelease | null | undefined;
  return {
    current() {
      const at = now();
      if (value === null || at - readAt >= ttlMs) {
        readAt = at;
        // While the database cannot answer (a restart, an outage), the release last read keeps
        // serving: its files are on disk, so readers of the site see nothing of the outage. It is
        // read again a ttlMs later. Before any read has succeeded there is nothing to serve; any
        // other failure (a bug, a closed pool) is not an outage and fails the request.
        const reading = liveRelease(db).then(
          (release) => (lastKnown = release),
          (error: unknown) => {
            if (lastKnown === undefined || !storageFailure(error)) throw error;
            return lastKnown;
          },
        );
        value = reading;
        reading.then(
          (release) => {
            if (value === reading) settled = { reading, release };
          },
          // A failed read is not kept: the next request reads again.
          () => {
            if (value === reading) value = null;
          },
        );
      }
      return value;
    },
    known() {
      if (settled?.reading !== value || now() - readAt >= ttlMs) return undefined;
      return settled.release;
    },
    refresh() {
      // A read still under way settles nothing now (it checks that it is still the value).
      value = null;
      settled = null;
    },
  };
}

/** One release, whatever is live: a build renders its candidate release this way. */
export function fixedReleaseSource(db: DB, id: number): ReleaseSource {
  let value: Promise<ServedRelease> | undefined;
  let found: ServedRelease | undefined;
  return {
    current: () =>
      (value ??= findServedRelease(db, id).then((release) => {
        if (!release) throw new Error(`Release ${id} has no snapshot to build from`);
        found = release;
        return release;
      })),
    known: () => found,
  };
}
