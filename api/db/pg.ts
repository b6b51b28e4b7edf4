// pg, the PostgreSQL driver, is required when a process first opens a PostgreSQL connection (a
// pool, the thread events' listener, a backup or restore): one on SQLite, the default, never loads it.
import { lazyModule } from '../lib/lazy-module.ts';

/** The pg module, required on the first call. */
export const pgDriver = lazyModule<typeof import('pg')>('pg');
