import type { Kysely } from 'kysely';

// Running servers whose publisher is warm (docs/decisions/030-the-command-line-hands-over-a-publish.md):
// each says so every few seconds, until when it counts as up. `npm run publish` hands its run to
// one of them rather than starting a cold build of its own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('warm_publishers')
    .addColumn('instance', 'text', (c) => c.primaryKey())
    .addColumn('seen_until', 'text', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('warm_publishers').execute();
}
