import type { Kysely } from 'kysely';

// Rate limits live in the database, so every server instance on it counts the same attempts
// (api/middleware/rate-limit.ts): one row per limiter and key, a fixed window and its count.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    // Which limiter ('comments', 'writes', 'reports') and whose attempts ('like:<uid>', an address).
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    // Milliseconds since 1970: bigint, as they outgrow a 32-bit integer.
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pk', ['scope', 'key'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limits').ifExists().execute();
}
