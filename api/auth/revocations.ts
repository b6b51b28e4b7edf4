import type { DB } from '../db/database.ts';
import { REVOCATION_KEPT_MS, revocationsAfter, revokedUidHash } from '../db/queries/revocations.ts';

/** How far behind the database an instance's list of revoked sign-ins may be. */
export const REVOCATIONS_REFRESH_MS = 1000;

/**
 * The sign-ins that erasures revoked, as this process knows them: read again from the database
 * (only the rows it has not seen) at most once a second, when a signed-in request asks. Each
 * instance verifies tokens and keeps them verified on its own (api/auth/verifier.ts), so without
 * this an erased parent's unexpired token would keep working on every instance but the one that
 * erased them.
 */
class RevokedSignIns {
  /** Hash of a revoked uid → when this process first saw it (Date.now). */
  private readonly seen = new Map<string, number>();
  private lastId = 0;
  private checkedAt = -Infinity;
  private refreshing: Promise<void> | null = null;

  constructor(private readonly db: DB) {}

  async has(uid: string): Promise<boolean> {
    if (Date.now() - this.checkedAt >= REVOCATIONS_REFRESH_MS) await this.refresh();
    // Usually nobody was erased in the last two hours: no hash on every signed-in request then.
    return this.seen.size > 0 && this.seen.has(revokedUidHash(uid));
  }

  private refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const rows = await revocationsAfter(this.db, this.lastId);
        const now = Date.now();
        for (const row of rows) {
          this.seen.set(row.uid_hash, now);
          this.lastId = row.revocation_id;
        }
        // Past this age every token of the uid has expired anyway.
        for (const [hash, at] of this.seen) if (now - at > REVOCATION_KEPT_MS) this.seen.delete(hash);
        this.checkedAt = now;
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }
}

const byDatabase = new WeakMap<DB, RevokedSignIns>();

/** Whether an erasure, on any instance, revoked this uid's sign-ins (at most a second behind). */
export function isSignInRevoked(db: DB, uid: string): Promise<boolean> {
  let revoked = byDatabase.get(db);
  if (!revoked) byDatabase.set(db, (revoked = new RevokedSignIns(db)));
  return revoked.has(uid);
}
