import type { Kysely } from 'kysely';
import { generatedId } from '../dialect.ts';

// Sign-ins revoked by an erasure, so that every server instance refuses the erased parent's
// unexpired ID tokens, not only the one that erased them (api/auth/revocations.ts). The uid is kept
// only as a SHA-256 hash, and only for as long as a token can live.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('revoked_sign_ins')
    // Increasing, so an instance reads only the rows after the last one it has seen.
    .addColumn('revocation_id', 'integer', generatedId(db))
    .addColumn('uid_hash', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('revoked_sign_ins').ifExists().execute();
}
