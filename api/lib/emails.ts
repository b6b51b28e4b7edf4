// Every email Nestling sends, rendered here as plain text with absolute links (docs/product.md,
// "Email"). Queries queue them with enqueueEmail (api/db/queries/mail.ts) inside the transaction
// of what they report; the deliveries worker sends them.
import { DELETION_DUE_DAYS, type UnsubscribeScope } from '../contract.ts';
import type { EmailMessage } from './mail.ts';

/** What the messages need to know about the site. */
export interface MailSettings {
  /** PUBLIC_SITE_NAME. */
  siteName: string;
  /** PUBLIC_SITE_URL: every link in a message is absolute. */
  siteUrl: string;
  /** PUBLIC_PRIVACY_EMAIL, for questions about deletion. */
  privacyEmail: string;
  /** `smtp`: SMTP_URL is set; `outbox`: messages are kept in the outbox only. */
  transport: 'smtp' | 'outbox';
}

/** What each message is for, as its delivery row's purpose. */
export const EMAIL_PURPOSES = {
  deletionReceived: 'deletion_request_received',
  accountErased: 'account_erased',
  noAccount: 'deletion_request_no_account',
  confirmReplies: 'reply_emails_confirm',
  reply: 'reply_notification',
} as const;

export function absolute(settings: Pick<MailSettings, 'siteUrl'>, path: string): string {
  return `${settings.siteUrl.replace(/\/$/, '')}${path}`;
}

const utcDate = (iso: string) => `${iso.slice(0, 10)} (UTC)`;

function lines(...parts: (string | false)[]): string {
  return parts.filter((part) => part !== false).join('\n');
}

/** The acknowledgement of a request from the deletion form, sent at once. */
export function deletionReceivedEmail(settings: MailSettings, to: string, dueAt: string): EmailMessage {
  return {
    to,
    subject: `We received your request to delete your ${settings.siteName} account`,
    text: lines(
      'Hello,',
      '',
      `We received a request to delete the ${settings.siteName} account that uses this email address.`,
      `We will complete it within ${DELETION_DUE_DAYS} days, by ${utcDate(dueAt)}, and email you again when it is done.`,
      '',
      `If you did not ask for this, or have a question, write to ${settings.privacyEmail}.`,
      '',
      `${settings.siteName}`,
    ),
    headers: {},
  };
}

/** The confirmation that an account has been erased; its address is forgotten once it is sent. */
export function accountErasedEmail(settings: MailSettings, to: string): EmailMessage {
  return {
    to,
    subject: `Your ${settings.siteName} account has been deleted`,
    text: lines(
      'Hello,',
      '',
      `Your ${settings.siteName} account and the personal information we kept with it have been deleted:`,
      'your profile and sign-in, your likes, your email settings, and your comments and replies.',
      'A comment that others had replied to stays in its thread as "This comment was deleted.", without',
      'your name or words, so the replies still make sense. Reports you filed stay, without your name,',
      'so the moderators can finish reviewing them.',
      '',
      `We do not keep this email address. If you have a question, write to ${settings.privacyEmail}.`,
      '',
      `${settings.siteName}`,
    ),
    headers: {},
    forgetRecipient: true,
  };
}

/** The answer to a deletion request when no account uses the address. */
export function noAccountEmail(settings: MailSettings, to: string): EmailMessage {
  return {
    to,
    subject: `Your ${settings.siteName} deletion request`,
    text: lines(
      'Hello,',
      '',
      `We looked into your request to delete the ${settings.siteName} account that uses this email address,`,
      'and found no account with it: there is nothing to delete. We have closed the request and do not',
      'keep this email address.',
      '',
      `If you signed up with another address, send a new request with that one, or write to ${settings.privacyEmail}.`,
      '',
      `${settings.siteName}`,
    ),
    headers: {},
    forgetRecipient: true,
  };
}

/** The double opt-in: nothing else is sent to the address until this link is followed. */
export function confirmRepliesEmail(
  settings: MailSettings,
  input: { to: string; name: string; token: string },
): EmailMessage {
  return {
    to: input.to,
    subject: `Confirm reply emails from ${settings.siteName}`,
    text: lines(
      `Hi ${input.name},`,
      '',
      `You asked ${settings.siteName} to email you when someone replies in a discussion. Please confirm`,
      'this address by opening the link below; until you do, we send you nothing else.',
      '',
      absolute(settings, `/email/confirm?token=${input.token}`),
      '',
      'If you did not ask for this, ignore this email: you will not hear from us again.',
      '',
      `${settings.siteName}`,
    ),
    headers: {},
  };
}

export function unsubscribePage(settings: MailSettings, token: string, scope: UnsubscribeScope): string {
  return absolute(settings, `/email/unsubscribe?token=${token}&scope=${scope}`);
}

/** RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click` here, without signing in. */
export function oneClickUrl(settings: MailSettings, token: string, scope: UnsubscribeScope): string {
  return absolute(settings, `/api/notifications/one-click?token=${token}&scope=${scope}`);
}

/** How much of a reply an email quotes. */
const QUOTE_MAX = 500;

/** A reply in a thread the recipient follows. */
export function replyEmail(
  settings: MailSettings,
  input: {
    to: string;
    name: string;
    post: { title: string; slug: string };
    reply: { id: number; authorName: string; content: string };
    /** Whether the reply answers the recipient's own comment (else a conversation they are in). */
    toTheirComment: boolean;
    threadToken: string;
    allToken: string;
  },
): EmailMessage {
  const { reply, post } = input;
  const quote =
    reply.content.length > QUOTE_MAX ? `${reply.content.slice(0, QUOTE_MAX).trimEnd()}…` : reply.content;
  return {
    to: input.to,
    subject: input.toTheirComment
      ? `${reply.authorName} replied to your comment on "${post.title}"`
      : `${reply.authorName} replied in "${post.title}"`,
    text: lines(
      `Hi ${input.name},`,
      '',
      input.toTheirComment
        ? `${reply.authorName} replied to your comment on "${post.title}":`
        : `${reply.authorName} replied in a conversation you are part of on "${post.title}":`,
      '',
      ...quote.split('\n').map((line) => `> ${line}`),
      '',
      `Read it and reply: ${absolute(settings, `/blog/${post.slug}#comment-${reply.id}`)}`,
      '',
      '--',
      `You get this because you asked ${settings.siteName} to email you when someone replies in this`,
      'discussion. We send at most one email an hour for each discussion.',
      `Stop emails about this discussion: ${unsubscribePage(settings, input.threadToken, 'thread')}`,
      `Stop all emails from ${settings.siteName}: ${unsubscribePage(settings, input.allToken, 'all')}`,
    ),
    headers: {
      // The mail client's own Unsubscribe button stops all of them, in one click (RFC 8058).
      'List-Unsubscribe': `<${oneClickUrl(settings, input.allToken, 'all')}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
