import type { OutboxEmail } from '../../contract.ts';
import { EMAIL_KIND, type EmailMessage, emailMessage } from '../../lib/mail.ts';
import type { DB } from '../database.ts';
import { enqueueDelivery } from './deliveries.ts';

// Emails are deliveries of kind 'email' (api/lib/deliveries.ts sends them): queued in the
// transaction of what they report, retried until the SMTP server takes them, and kept afterwards,
// so the delivered rows are the outbox admins read at /admin/outbox.

/** Queues an email; call it inside the transaction of what it reports, then poke the worker. */
export async function enqueueEmail(
  db: DB,
  purpose: string,
  message: EmailMessage,
  now: Date,
): Promise<number> {
  return enqueueDelivery(db, { kind: EMAIL_KIND, purpose, target: message.to, payload: message }, now);
}

/** The mail log, newest first, a page at a time (`before`: the last id of the previous page). */
export async function listOutbox(
  db: DB,
  page: { limit: number; before: number | null },
): Promise<{ emails: OutboxEmail[]; next: number | null }> {
  const rows = await db
    .selectFrom('deliveries')
    .selectAll()
    .where('kind', '=', EMAIL_KIND)
    .$if(page.before !== null, (q) => q.where('delivery_id', '<', page.before!))
    .orderBy('delivery_id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const shown = rows.slice(0, page.limit);
  return {
    emails: shown.map((row) => {
      const parsed = emailMessage.safeParse(safeJson(row.payload));
      const message = parsed.success
        ? parsed.data
        : { to: row.target ?? '', subject: '', text: '', headers: {} };
      return {
        id: row.delivery_id,
        purpose: row.purpose,
        to: message.to,
        subject: message.subject,
        text: message.text,
        headers: message.headers,
        state: row.delivered_at ? 'sent' : 'waiting',
        attempts: row.attempts,
        lastError: row.last_error,
        createdAt: row.created_at,
        sentAt: row.delivered_at,
      };
    }),
    next: rows.length > page.limit ? shown[shown.length - 1]!.delivery_id : null,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Drops every email to these addresses, sent or waiting (an erased account's mail). */
export async function forgetEmailsTo(db: DB, addresses: string[]): Promise<number> {
  if (addresses.length === 0) return 0;
  const result = await db
    .deleteFrom('deliveries')
    .where('kind', '=', EMAIL_KIND)
    .where('target', 'in', addresses)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
