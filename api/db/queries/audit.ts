import { type AuditEntry, ERASED_ACCOUNT_NAME } from '../../contract.ts';
import type { DB } from '../database.ts';

export interface NewAuditEntry {
  actor: { uid: string | null; name: string };
  /** One of AUDIT_ACTIONS in api/contract.ts, or a new one listed there. */
  action: string;
  target: { type: string; id: string | number };
  reason: string | null;
  details?: AuditEntry['details'];
}

/**
 * The one way to write the audit log. Call it with the transaction of the action it records, so an
 * action and its entry are stored together or not at all. Nothing updates or deletes entries.
 */
export async function recordAudit(db: DB, entry: NewAuditEntry, now: Date): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at: now.toISOString(),
      actor_uid: entry.actor.uid,
      actor_name: entry.actor.name,
      action: entry.action,
      target_type: entry.target.type,
      target_id: String(entry.target.id),
      reason: entry.reason,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}

/**
 * The one change ever made to written entries, for account erasure (docs/product.md, "Deleting
 * your account"): where the erased parent is the actor or the target, their uid and name give way
 * to a random label and ERASED_ACCOUNT_NAME. What was done, when and why stays.
 */
export async function anonymizeAudit(db: DB, uid: string, label: string): Promise<number> {
  const actor = await db
    .updateTable('audit_log')
    .set({ actor_uid: label, actor_name: ERASED_ACCOUNT_NAME })
    .where('actor_uid', '=', uid)
    .executeTakeFirst();
  const target = await db
    .updateTable('audit_log')
    .set({ target_id: label })
    .where('target_type', '=', 'user')
    .where('target_id', '=', uid)
    .executeTakeFirst();
  return Number(actor.numUpdatedRows) + Number(target.numUpdatedRows);
}

const isScalar = (value: unknown): value is string | number | boolean | null =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

function parseDetails(text: string): AuditEntry['details'] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const details: AuditEntry['details'] = {};
    for (const [key, value] of Object.entries(parsed)) if (isScalar(value)) details[key] = value;
    return details;
  } catch {
    return {};
  }
}

/** The log, newest first, a page at a time (`before`: the last id of the previous page). */
export async function listAudit(
  db: DB,
  page: { limit: number; before: number | null },
): Promise<{ entries: AuditEntry[]; next: number | null }> {
  const rows = await db
    .selectFrom('audit_log')
    .selectAll()
    .$if(page.before !== null, (q) => q.where('audit_id', '<', page.before!))
    .orderBy('audit_id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const shown = rows.slice(0, page.limit);
  return {
    entries: shown.map((row) => ({
      id: row.audit_id,
      at: row.at,
      actorUid: row.actor_uid,
      actorName: row.actor_name,
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      reason: row.reason,
      details: parseDetails(row.details),
    })),
    next: rows.length > page.limit ? shown[shown.length - 1]!.audit_id : null,
  };
}
