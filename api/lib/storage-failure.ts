/**
 * What to tell a parent when the database cannot answer (docs/decisions/027): a PostgreSQL that is
 * down, restarting or out of connections, and a SQLite file whose disk is full or failing. These
 * are the server's conditions, not the request's, so the answer is 503 (try again shortly, with
 * Retry-After) or 507 (the disk is full), with a plain message; never a 500 or a stack trace.
 */
export interface StorageFailure {
  status: 503 | 507;
  /** Seconds a client should wait before trying again (the Retry-After header). */
  retryAfter: number;
  message: string;
  /** The driver's own words, for the log. */
  detail: string;
}

export const DATABASE_UNREACHABLE =
  'Nestling cannot reach its database just now, so this was not saved. Please try again in a few seconds.';
export const STORAGE_FULL =
  'Nestling has run out of storage space, so this was not saved. Please try again later.';

/** Node's socket errors when the server is not there (or went away). */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs for a server that is going away or not ready: admin_shutdown,
 * crash_shutdown, cannot_connect_now, too_many_connections; and class 08, connection exceptions.
 */
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/** pg's own messages for a connection that ended, or never came within connectionTimeoutMillis. */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/** SQLite (better-sqlite3's codes) and the file system when the disk is full. */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The error and what it wraps (`cause`, an AggregateError's errors), outermost first. */
function* chain(error: unknown, depth = 0): Generator<unknown> {
  if (error === null || error === undefined || depth > 5) return;
  yield error;
  if (error instanceof AggregateError) for (const inner of error.errors) yield* chain(inner, depth + 1);
  if (error instanceof Error && error.cause !== undefined) yield* chain(error.cause, depth + 1);
}

/** The failure `error` stands for when it is the database's (see above); null for any other error. */
export function storageFailure(error: unknown): StorageFailure | null {
  for (const each of chain(error)) {
    const code = codeOf(each);
    const message = each instanceof Error ? each.message : String(each);
    const detail = code ? `${code}: ${message}` : message;
    if ((code && FULL_CODES.has(code)) || /\bENOSPC\b|database or disk is full/i.test(message)) {
      return { status: 507, retryAfter: 60, message: STORAGE_FULL, detail };
    }
    if (
      (code && (CONNECTION_CODES.has(code) || POSTGRES_CODES.has(code) || code.startsWith('08'))) ||
      (code && (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_BUSY' || code === 'SQLITE_CANTOPEN')) ||
      CONNECTION_MESSAGES.some((text) => message.includes(text))
    ) {
      return { status: 503, retryAfter: 5, message: DATABASE_UNREACHABLE, detail };
    }
  }
  return null;
}

/**
 * Logs a storage failure without flooding the log: under load every request fails the same way,
 * so one line a second says what happened and how many more there were.
 */
export function createFailureLog(now: () => number = () => Date.now()) {
  let lastAt = -Infinity;
  let quiet = 0;
  return (failure: StorageFailure, where: string) => {
    const at = now();
    if (at - lastAt < 1_000) {
      quiet += 1;
      return;
    }
    const more = quiet > 0 ? ` (and ${quiet} more since the last line)` : '';
    console.error(`${where}: the database failed (${failure.detail}); answered ${failure.status}${more}`);
    lastAt = at;
    quiet = 0;
  };
}
