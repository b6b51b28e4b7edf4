import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import { isPostgresUrl } from './dialect.ts';
import { pgDriver } from './pg.ts';
import type { Database } from './schema.ts';

export type DB = Kysely<Database>;

/**
 * Opens the database at `location`: a PostgreSQL server for a `postgres://` URL (DATABASE_URL),
 * else the SQLite file at that path (DATABASE_PATH, the embedded default).
 */
export function openDatabase(location: string): DB {
  return isPostgresUrl(location) ? openPostgres(location) : openSqlite(location);
}

/** Where the environment puts the database: DATABASE_URL when set, else DATABASE_PATH. */
export function databaseLocation(env: { DATABASE_URL?: string | undefined; DATABASE_PATH: string }): string {
  return env.DATABASE_URL ?? env.DATABASE_PATH;
}

/** The location for messages: a URL without its password. */
export function describeDatabase(location: string): string {
  if (!isPostgresUrl(location)) return location;
  const url = new URL(location);
  if (url.password) url.password = '***';
  return `PostgreSQL at ${url.href}`;
}

/** How long a query waits for a new PostgreSQL connection before it fails (and its request answers 503). */
export const POSTGRES_CONNECT_TIMEOUT_MS = 3_000;

/**
 * A pool of connections to PostgreSQL. Counts (`count(*)`, bigint columns) arrive as int8, which
 * pg hands over as strings to be safe beyond 2^53; ours never come near it, and the wire contract
 * has numbers, so they are parsed as numbers.
 */
function openPostgres(url: string): DB {
  const pg = pgDriver();
  const types = new pg.TypeOverrides();
  types.setTypeParser(pg.types.builtins.INT8, Number);
  const pool = new pg.Pool({
    connectionString: url,
    types,
    // While the server is down or restarting, a request waits at most this long for a connection
    // and then answers 503 (api/lib/storage-failure.ts) rather than hang.
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
    // A connection whose server vanished without a word (a killed host) is found out.
    keepAlive: true,
  });
  // A connection that the server drops (a restart) must not crash the process. The pool listens
  // on idle connections only and replaces them on the next query; a connection lent out to a query
  // or a transaction emits its error with no listener, which Node turns into a crash, so every
  // connection gets one of its own (the query itself fails, and the pool discards the connection).
  pool.on('error', (error) => console.error('PostgreSQL connection lost:', error.message));
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Opens the SQLite file with the pragmas the product relies on: WAL so readers never block the
 * writer, foreign keys enforced, a generous busy timeout for concurrent writers,
 * synchronous=FULL so an acknowledged like or comment survives a crash, and temporary storage in
 * memory: the savepoints of grouped writes (api/db/group-commit.ts) keep the pages they change in
 * a sub-journal, which SQLite otherwise writes to a temporary file (about 4% of the serving
 * process's CPU under comment writes, in pwrite calls, by `perf`). Only a rollback to a savepoint
 * reads it; the write-ahead log alone makes a commit durable.
 */
function openSqlite(file: string): DB {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('temp_store = MEMORY');
  return new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
  });
}

/**
 * SQLite with every transaction begun IMMEDIATE, taking the file's write lock first. A transaction
 * begun plainly reads first; if another process (a command beside the server) then holds the write
 * lock, SQLite refuses the upgrade at once with "database is locked" rather than wait, since
 * waiting could deadlock. Begun IMMEDIATE, it waits its turn under the busy timeout.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query's SQL anew; the app sends the same few dozen statements over and
 * over, so prepared statements are kept by their SQL (bounded; the oldest goes first). Safe because
 * better-sqlite3 runs each statement to completion before the next one starts.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
