import { createHash } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import { z } from 'zod';
import type { Sender } from './deliveries.ts';

/** The delivery kind of every email (api/lib/deliveries.ts sends it through the sender below). */
export const EMAIL_KIND = 'email';

/** What an email's delivery row holds: the message, rendered, ready to send. */
export const emailMessage = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  headers: z.record(z.string(), z.string()).default({}),
  /** Blank the address in the mail log once it is sent (the confirmation of an erasure). */
  forgetRecipient: z.boolean().optional(),
});
export type EmailMessage = z.infer<typeof emailMessage>;

/** What the mail log shows in place of an address it has forgotten. */
export const FORGOTTEN_RECIPIENT = '(address removed after sending)';

export interface EmailSenderOptions {
  /** SMTP_URL; null keeps each message in the outbox (delivered rows) and logs one line. */
  smtpUrl: string | null;
  /** MAIL_FROM. */
  from: string;
  timeoutMs?: number;
  log?: (message: string) => void;
}

/** A stable Message-ID per delivery, so a receiver can tell a resend from a new message. */
function messageId(id: number, message: EmailMessage, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'nestling.invalid';
  const digest = createHash('sha256').update(JSON.stringify(message)).digest('hex').slice(0, 16);
  return `<delivery-${id}.${digest}@${domain}>`;
}

/**
 * The 'email' sender of the deliveries worker: nodemailer to SMTP_URL, or, without one, the
 * outbox. A message the SMTP server does not accept throws, so the worker retries it with backoff.
 */
export function createEmailSender(options: EmailSenderOptions): Sender {
  const log = options.log ?? ((line: string) => console.log(line));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const { smtpUrl } = options;
  // nodemailer is loaded with the first email sent over SMTP: the outbox, the commands and most
  // servers never need it, and it is a tenth of a server's start-up CPU.
  let transport: Promise<Transporter> | undefined;
  const smtpTransport = (url: string) =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      }),
    ));
  return async ({ id, purpose, payload }) => {
    const message = emailMessage.parse(payload);
    if (smtpUrl) {
      const smtp = await smtpTransport(smtpUrl);
      await smtp.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        headers: message.headers,
        messageId: messageId(id, message, options.from),
      });
    } else {
      // Never the recipient or the text: logs are kept longer and read more widely than the outbox.
      log(`Email #${id} (${purpose}) kept in the outbox (no SMTP_URL)`);
    }
    if (!message.forgetRecipient) return undefined;
    return { target: FORGOTTEN_RECIPIENT, payload: { ...message, to: FORGOTTEN_RECIPIENT } };
  };
}
