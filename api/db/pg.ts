// pg, the PostgreSQL driver, is required when a process first opens a PostgreSQL connection (a
// pool, the thread events' listener, a backup or restore): one on SQLite, the default, never loads it.
import { createRequire } from 'node:module';

let loaded: typeof import('pg') | undefined;

/** The pg module, required on the first call. */
export function pgDriver(): typeof import('pg') {
  loaded ??= createRequire(import.meta.url)('pg') as typeof import('pg');
  return loaded;
}
