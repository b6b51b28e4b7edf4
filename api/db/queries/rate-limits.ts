import type { DB } from '../database.ts';
import { withoutDiskSync } from '../dialect.ts';

// Fixed-window attempt counters (api/middleware/rate-limit.ts). Each change is one statement, so
// attempts from any number of server instances count exactly. A count lost in a power cut only
// lets a few more attempts through, so these writes do not wait for the disk.

export interface Window {
  /** Attempts in the window, this one included. */
  hits: number;
  /** When the window began (ms since 1970). */
  start: number;
}

/** Counts one attempt in the key's window, or starts a new window when the last one is over. */
export async function countAttempt(
  db: DB,
  attempt: { scope: string; key: string; now: number; windowMs: number },
): Promise<Window> {
  const over = attempt.now - attempt.windowMs;
  const row = await withoutDiskSync(db, (d) =>
    d
      .insertInto('rate_limits')
      .values({ scope: attempt.scope, key: attempt.key, window_start: attempt.now, hits: 1 })
      .onConflict((oc) =>
        oc.columns(['scope', 'key']).doUpdateSet((eb) => {
          const ended = eb('rate_limits.window_start', '<=', over);
          return {
            hits: eb
              .case()
              .when(ended)
              .then(1)
              .else(eb('rate_limits.hits', '+', 1))
              .end(),
            window_start: eb
              .case()
              .when(ended)
              .then(attempt.now)
              .else(eb.ref('rate_limits.window_start'))
              .end(),
          };
        }),
      )
      .returning(['hits', 'window_start'])
      .executeTakeFirstOrThrow(),
  );
  return { hits: row.hits, start: row.window_start };
}

/** Gives one attempt back (a request refused for another reason). */
export async function refundAttempt(db: DB, scope: string, key: string): Promise<void> {
  await withoutDiskSync(db, (d) =>
    d
      .updateTable('rate_limits')
      .set((eb) => ({ hits: eb('hits', '-', 1) }))
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('hits', '>', 0)
      .execute(),
  );
}

/** Forgets the windows of a limiter that are over, so the table holds only recent keys. */
export async function forgetEndedWindows(db: DB, scope: string, before: number): Promise<void> {
  await withoutDiskSync(db, (d) =>
    d.deleteFrom('rate_limits').where('scope', '=', scope).where('window_start', '<=', before).execute(),
  );
}
