import type { Kysely } from 'kysely';

// A running publish says what it is doing and how far it is (docs/product.md, "Publishing"): the
// instance running it writes its progress on the release's row, so /admin and the studio on any
// instance can show it. JSON of PublishProgress (api/contract.ts); null when the run is not running.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('releases').addColumn('progress', 'text').execute();
}
