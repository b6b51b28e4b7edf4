import {
  DELETION_DUE_DAYS,
  type DeletionRequest,
  type DeletionRequestList,
  type DeletionRequestStatus,
  SYSTEM_ACTOR,
} from '../../contract.ts';
import {
  deletionReceivedEmail,
  EMAIL_PURPOSES,
  type MailSettings,
  noAccountEmail,
} from '../../lib/emails.ts';
import { RuleError } from '../../lib/errors.ts';
import type { DeletionRequestInput } from '../../routes/schemas.ts';
import type { DB } from '../database.ts';
import type { DeletionRequestRow } from '../schema.ts';
import { recordAudit } from './audit.ts';
import { enqueueEmail } from './mail.ts';

// Requests from the deletion form (docs/product.md, "Deleting your account"): acknowledged by
// email at once, due DELETION_DUE_DAYS after they arrive, and closed by an admin either by erasing
// the account that owns the address or as "no account found". A closed request keeps no address.

/** How many closed requests the admin page lists. */
const CLOSED_SHOWN = 50;

export function deletionDueAt(createdAt: string): string {
  return new Date(Date.parse(createdAt) + DELETION_DUE_DAYS * 86_400_000).toISOString();
}

function toWire(row: DeletionRequestRow, now: Date): DeletionRequest {
  const dueAt = deletionDueAt(row.created_at);
  return {
    id: row.request_id,
    email: row.email,
    reason: row.reason,
    additionalInfo: row.additional_info,
    createdAt: row.created_at,
    dueAt,
    overdue: row.status === 'open' && Date.parse(dueAt) < now.getTime(),
    status: row.status,
    closedAt: row.closed_at,
    closedByName: row.closed_by_name,
  };
}

/**
 * Files a request and queues its acknowledgement. A second request for an address whose request
 * is still open adds nothing and sends nothing (the form answers the same either way, so it tells
 * nobody whether a request exists). Returns whether an email was queued.
 */
export async function receiveDeletionRequest(
  db: DB,
  body: DeletionRequestInput,
  mail: MailSettings,
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const open = await trx
      .selectFrom('deletion_requests')
      .select('request_id')
      .where('email', '=', body.email)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (open) return false;
    const createdAt = now.toISOString();
    const { request_id } = await trx
      .insertInto('deletion_requests')
      .values({
        email: body.email,
        reason: body.reason || null,
        additional_info: body.additionalInfo || null,
        created_at: createdAt,
      })
      .returning('request_id')
      .executeTakeFirstOrThrow();
    await enqueueEmail(
      trx,
      EMAIL_PURPOSES.deletionReceived,
      deletionReceivedEmail(mail, body.email, deletionDueAt(createdAt)),
      now,
    );
    await recordAudit(
      trx,
      {
        actor: { uid: null, name: SYSTEM_ACTOR },
        action: 'deletion_request.receive',
        target: { type: 'deletion_request', id: request_id },
        reason: null,
        details: { dueAt: deletionDueAt(createdAt) },
      },
      now,
    );
    return true;
  });
}

/** Open requests, oldest (most urgent) first, and the latest closed ones. */
export async function listDeletionRequests(db: DB, now: Date): Promise<DeletionRequestList> {
  const open = await db
    .selectFrom('deletion_requests')
    .selectAll()
    .where('status', '=', 'open')
    .orderBy('created_at')
    .orderBy('request_id')
    .execute();
  const closed = await db
    .selectFrom('deletion_requests')
    .selectAll()
    .where('status', '<>', 'open')
    .orderBy('closed_at', 'desc')
    .orderBy('request_id', 'desc')
    .limit(CLOSED_SHOWN)
    .execute();
  return { open: open.map((r) => toWire(r, now)), closed: closed.map((r) => toWire(r, now)) };
}

/** An open request, or a RuleError that says why not (404 unknown, 409 already closed). */
export async function findOpenDeletionRequest(db: DB, id: number): Promise<DeletionRequestRow> {
  const row = await db
    .selectFrom('deletion_requests')
    .selectAll()
    .where('request_id', '=', id)
    .executeTakeFirst();
  if (!row) throw new RuleError('Deletion request not found', 404);
  if (row.status !== 'open') {
    throw new RuleError(`This request was already closed (${row.status}) by ${row.closed_by_name}.`, 409);
  }
  return row;
}

/**
 * Closes every open request for these addresses, forgetting the address and the free text, with
 * an audit entry each. Returns the closed requests' ids.
 */
export async function closeDeletionRequests(
  trx: DB,
  input: {
    emails: string[];
    status: Exclude<DeletionRequestStatus, 'open'>;
    actor: { uid: string | null; name: string };
  },
  now: Date,
): Promise<number[]> {
  if (input.emails.length === 0) return [];
  const closed = await trx
    .updateTable('deletion_requests')
    .set({
      status: input.status,
      closed_at: now.toISOString(),
      closed_by_name: input.actor.name,
      email: '',
      additional_info: null,
    })
    .where('email', 'in', input.emails)
    .where('status', '=', 'open')
    .returning('request_id')
    .execute();
  for (const { request_id } of closed) {
    await recordAudit(
      trx,
      {
        actor: input.actor,
        action: input.status === 'erased' ? 'deletion_request.erase' : 'deletion_request.close',
        target: { type: 'deletion_request', id: request_id },
        reason: null,
        details: { outcome: input.status },
      },
      now,
    );
  }
  return closed.map((r) => r.request_id);
}

/** Closes a request as "no account found" and tells the requester so. */
export async function closeAsNoAccount(
  db: DB,
  input: { id: number; actor: { uid: string; name: string } },
  mail: MailSettings,
  now: Date,
): Promise<DeletionRequest> {
  return db.transaction().execute(async (trx) => {
    const row = await findOpenDeletionRequest(trx, input.id);
    await closeDeletionRequests(trx, { emails: [row.email], status: 'no_account', actor: input.actor }, now);
    await enqueueEmail(trx, EMAIL_PURPOSES.noAccount, noAccountEmail(mail, row.email), now);
    return (await findDeletionRequest(trx, input.id, now))!;
  });
}

export async function findDeletionRequest(db: DB, id: number, now: Date): Promise<DeletionRequest | null> {
  const row = await db
    .selectFrom('deletion_requests')
    .selectAll()
    .where('request_id', '=', id)
    .executeTakeFirst();
  return row ? toWire(row, now) : null;
}
