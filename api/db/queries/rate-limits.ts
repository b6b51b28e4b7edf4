import { sql } from 'kysely';
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

/**
 * Counts one attempt in the key's window, or starts a new window when the last one is over.
 */
export function countAttempt(
  db: DB,
  attempt: { scope: string; key: string; now: number; windowMs: number },
): Promise<Window> {
  return withoutDiskSync(db, (d) => addAttempts(d, { ...attempt, count: 1 }));
}

/**
 * Adds `count` attempts to the key's window (starting a new one when the last is over) and answers
 * the window as stored. One statement that both databases read alike; written out rather than
 * built, because it runs on every limited request and building it cost as much again as running
 * it (about 25 µs on SQLite). The caller decides about the disk sync (countAttempt does not wait).
 */
export async function addAttempts(
  db: DB,
  attempts: { scope: string; key: string; now: number; windowMs: number; count: number },
): Promise<Window> {
  const { scope, key, now, count } = attempts;
  const ended = sql`rate_limits.window_start <= ${now - attempts.windowMs}`;
  const { rows } = await sql<{ hits: number; window_start: number }>`
    insert into rate_limits (scope, key, window_start, hits) values (${scope}, ${key}, ${now}, ${count})
    on conflict (scope, key) do update set
      hits = case when ${ended} then ${count} else rate_limits.hits + ${count} end,
      window_start = case when ${ended} then ${now} else rate_limits.window_start end
    returning hits, window_start`.execute(db);
  const row = rows[0]!;
  return { hits: Number(row.hits), start: Number(row.window_start) };
}

/** The key's window as stored, or null when it has none or it is over. */
export async function findWindow(
  db: DB,
  window: { scope: string; key: string; now: number; windowMs: number },
): Promise<Window | null> {
  const { rows } = await sql<{ hits: number; window_start: number }>`
    select hits, window_start from rate_limits where scope = ${window.scope} and key = ${window.key}`.execute(
    db,
  );
  const row = rows[0];
  if (!row || Number(row.window_start) <= window.now - window.windowMs) return null;
  return { hits: Number(row.hits), start: Number(row.window_start) };
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

/**
 * Forgets every window counted for a parent (their keys are the uid, or `<name>:<uid>`), as part
 * of erasing their account: nothing keyed by them may be left.
 */
export async function forgetAttemptsOf(db: DB, uid: string): Promise<void> {
  const suffix = `:${uid}`;
  await db
    .deleteFrom('rate_limits')
    .where((eb) =>
      eb.or([
        eb('key', '=', uid),
        // Ends with ":<uid>", without LIKE (whose wildcards a uid could contain).
        eb(sql`substr(key, length(key) - ${suffix.length - 1})`, '=', suffix),
      ]),
    )
    .execute();
}
