import type { WaitingDelivery } from '../../contract.ts';
import type { DB } from '../database.ts';
import type { DeliveryRow } from '../schema.ts';

export const ESCALATION = { kind: 'webhook', purpose: 'safety_escalation' } as const;

// The queue of things sent to the outside world (api/lib/deliveries.ts sends them). A row is
// delivered exactly once it has a delivered_at; until then it is retried. Leases (claimed_until)
// keep two server instances from sending the same row at the same time.

export interface NewDelivery {
  kind: string;
  purpose: string;
  /** null: nowhere is configured yet; the row waits until a target is assigned. */
  target: string | null;
  payload: unknown;
}

/** Queues a delivery; call it inside the transaction of what it reports. Due at once. */
export async function enqueueDelivery(db: DB, delivery: NewDelivery, now: Date): Promise<number> {
  const stamp = now.toISOString();
  const { delivery_id } = await db
    .insertInto('deliveries')
    .values({
      kind: delivery.kind,
      purpose: delivery.purpose,
      target: delivery.target,
      payload: JSON.stringify(delivery.payload),
      next_attempt_at: stamp,
      claimed_until: null,
      delivered_at: null,
      last_error: null,
      created_at: stamp,
    })
    .returning('delivery_id')
    .executeTakeFirstOrThrow();
  return delivery_id;
}

/** Rows of these kinds that are due and not leased, leased to the caller until `leaseUntil`. */
export async function claimDue(
  db: DB,
  options: { kinds: string[]; now: Date; leaseUntil: Date; limit: number },
): Promise<DeliveryRow[]> {
  if (options.kinds.length === 0) return [];
  const stamp = options.now.toISOString();
  const candidates = await db
    .selectFrom('deliveries')
    .selectAll()
    .where('delivered_at', 'is', null)
    .where('target', 'is not', null)
    .where('kind', 'in', options.kinds)
    .where('next_attempt_at', '<=', stamp)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', stamp)]))
    .orderBy('next_attempt_at')
    // Some candidates may go to another worker between this read and the claim: read spare ones.
    .limit(options.limit * 2)
    .execute();
  const claimed: DeliveryRow[] = [];
  for (const row of candidates) {
    if (claimed.length === options.limit) break;
    // Only one worker's update matches a free row; the others see 0 rows changed.
    const result = await db
      .updateTable('deliveries')
      .set({ claimed_until: options.leaseUntil.toISOString() })
      .where('delivery_id', '=', row.delivery_id)
      .where('delivered_at', 'is', null)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', stamp)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) claimed.push(row);
  }
  return claimed;
}

/** Records a delivery as arrived; `kept` replaces what the row holds (an address to forget). */
export async function markDelivered(
  db: DB,
  id: number,
  now: Date,
  kept?: { target: string; payload: unknown },
): Promise<void> {
  await db
    .updateTable('deliveries')
    .set((eb) => ({
      delivered_at: now.toISOString(),
      claimed_until: null,
      last_error: null,
      attempts: eb('attempts', '+', 1),
      ...(kept ? { target: kept.target, payload: JSON.stringify(kept.payload) } : {}),
    }))
    .where('delivery_id', '=', id)
    .execute();
}

export async function markFailed(db: DB, id: number, error: string, nextAttemptAt: Date): Promise<void> {
  await db
    .updateTable('deliveries')
    .set((eb) => ({
      next_attempt_at: nextAttemptAt.toISOString(),
      claimed_until: null,
      last_error: error.slice(0, 500),
      attempts: eb('attempts', '+', 1),
    }))
    .where('delivery_id', '=', id)
    .execute();
}

/** When the next undelivered row of these kinds falls due (null when none waits). */
export async function nextDueAt(db: DB, kinds: string[]): Promise<Date | null> {
  if (kinds.length === 0) return null;
  const row = await db
    .selectFrom('deliveries')
    .select('next_attempt_at')
    .where('delivered_at', 'is', null)
    .where('target', 'is not', null)
    .where('kind', 'in', kinds)
    .orderBy('next_attempt_at')
    .limit(1)
    .executeTakeFirst();
  return row ? new Date(row.next_attempt_at) : null;
}

/**
 * Points every undelivered row of a purpose at the target configured now (null: they wait), due at
 * once: a changed or newly set SAFETY_ESCALATION_URL takes over what the old one did not receive.
 */
export async function retarget(db: DB, purpose: string, target: string | null, now: Date): Promise<number> {
  const result = await db
    .updateTable('deliveries')
    .set({ target, next_attempt_at: now.toISOString() })
    .where('purpose', '=', purpose)
    .where('delivered_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

function reportIdOf(payload: string): number | null {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (typeof parsed !== 'object' || parsed === null || !('report' in parsed)) return null;
    const report: unknown = parsed.report;
    if (typeof report !== 'object' || report === null || !('reportId' in report)) return null;
    return typeof report.reportId === 'number' ? report.reportId : null;
  } catch {
    return null;
  }
}

/** Deliveries of a purpose that have not arrived yet, oldest first. */
export async function listWaiting(db: DB, purpose: string): Promise<WaitingDelivery[]> {
  const rows = await db
    .selectFrom('deliveries')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('delivered_at', 'is', null)
    .orderBy('delivery_id')
    .execute();
  return rows.map((row) => ({
    id: row.delivery_id,
    kind: row.kind,
    purpose: row.purpose,
    target: row.target,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    failed: row.last_error !== null,
    lastError: row.last_error,
    createdAt: row.created_at,
    reportId: reportIdOf(row.payload),
  }));
}

/**
 * The one-year purge (docs/product.md, "Child-safety escalation"): an escalation of a purged
 * comment keeps neither the comment's text nor where it was sent, only that it was escalated.
 */
export async function forgetEscalatedContent(trx: DB, commentId: number): Promise<void> {
  // The id is only a filter here: each payload is checked exactly below.
  const escalations = await trx
    .selectFrom('deliveries')
    .select(['delivery_id', 'payload'])
    .where('purpose', '=', ESCALATION.purpose)
    .where('payload', 'like', `%${commentId}%`)
    .execute();
  for (const row of escalations) {
    const payload: unknown = JSON.parse(row.payload);
    if (typeof payload !== 'object' || payload === null || !('comment' in payload)) continue;
    const comment: unknown = payload.comment;
    if (typeof comment !== 'object' || comment === null || !('commentId' in comment)) continue;
    if (comment.commentId !== commentId) continue;
    await trx
      .updateTable('deliveries')
      .set({ target: null, payload: JSON.stringify({ ...payload, comment: { ...comment, content: '' } }) })
      .where('delivery_id', '=', row.delivery_id)
      .execute();
  }
}
