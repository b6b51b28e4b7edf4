// The alert emails (docs/product.md, "Favourites and alerts"): saved-search matches, price drops
// on saved items, safety alerts, and the confirmation that asks for an address before any of the
// first two go out. Plain text with absolute links, like every email (api/lib/emails.ts); each
// says why it was sent and links to the setting that stops it.
import { absolute, type MailSettings, unsubscribePage } from './emails.ts';
import type { EmailMessage } from './mail.ts';

/** What each alert email is for, as its delivery row's purpose. */
export const ALERT_PURPOSES = {
  confirm: 'alert_emails_confirm',
  search: 'saved_search_alert',
  digest: 'saved_search_digest',
  price: 'price_drop_alert',
  safety: 'safety_alert',
} as const;

export interface AlertItem {
  itemId: string;
  itemName: string;
  /** Dollars ("18.00"). */
  price: string;
}

const lines = (...parts: (string | false)[]) => parts.filter((p) => p !== false).join('\n');
const dollars = (price: string) => `$${(Number(price) || 0).toFixed(2)}`;
const itemLine = (item: AlertItem) => `- ${item.itemName}, ${dollars(item.price)}`;

/** The mail client's own Unsubscribe button, in one click (RFC 8058). */
function oneClick(url: string): EmailMessage['headers'] {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

export const searchOneClickUrl = (settings: MailSettings, token: string) =>
  absolute(settings, `/api/saved-searches/one-click?token=${token}`);

export const alertOneClickUrl = (settings: MailSettings, token: string, alert: 'price' | 'safety') =>
  absolute(settings, `/api/favourites/alerts/one-click?token=${token}&alert=${alert}`);

/** The double opt-in for alert emails: nothing but safety alerts goes out until it is followed. */
export function confirmAlertsEmail(
  settings: MailSettings,
  input: { to: string; name: string; token: string },
): EmailMessage {
  return {
    to: input.to,
    subject: `Confirm alert emails from ${settings.siteName}`,
    text: lines(
      `Hi ${input.name},`,
      '',
      `You asked ${settings.siteName} to email you about new items like the ones you search for. Please`,
      'confirm this address by opening the link below; until you do, we send you no alerts.',
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

/** New items for one saved search (instant), or a parent's daily digest of several. */
export function searchAlertEmail(
  settings: MailSettings,
  input: {
    to: string;
    name: string;
    digest: boolean;
    searches: { label: string; token: string; items: AlertItem[] }[];
    allToken: string | null;
  },
): EmailMessage {
  const count = input.searches.reduce((n, s) => n + s.items.length, 0);
  const first = input.searches[0]!;
  const subject = input.digest
    ? `Your daily ${settings.siteName} digest: ${count} new item${count === 1 ? '' : 's'} you asked about`
    : count === 1
      ? `New on ${settings.siteName}: ${first.items[0]!.itemName}`
      : `${count} new items like "${first.label}" on ${settings.siteName}`;
  return {
    to: input.to,
    subject,
    text: lines(
      `Hi ${input.name},`,
      '',
      ...input.searches.flatMap((search) => [
        `New items like "${search.label}":`,
        ...search.items.map(itemLine),
        '',
      ]),
      `See them on ${absolute(settings, '/')}`,
      '',
      '--',
      input.digest
        ? `You get this because you saved searches on ${settings.siteName} with daily emails: one digest a day at most.`
        : `You get this because you saved this search on ${settings.siteName} with instant emails: at most one every 15 minutes.`,
      `Pause, change or delete your searches: ${absolute(settings, '/favourites')}`,
      input.allToken !== null &&
        `Stop all emails from ${settings.siteName}: ${unsubscribePage(settings, input.allToken, 'all')}`,
    ),
    // One click stops the (first) search this email is about.
    headers: oneClick(searchOneClickUrl(settings, first.token)),
  };
}

/** Saved items that are cheaper now by 10% or more. */
export function priceDropEmail(
  settings: MailSettings,
  input: { to: string; name: string; items: (AlertItem & { was: string })[]; token: string },
): EmailMessage {
  const one = input.items.length === 1 ? input.items[0]! : null;
  return {
    to: input.to,
    subject: one
      ? `Price drop: ${one.itemName} is now ${dollars(one.price)}`
      : `Price drops on ${input.items.length} items you saved`,
    text: lines(
      `Hi ${input.name},`,
      '',
      'Items you saved are cheaper now:',
      ...input.items.map(
        (item) => `- ${item.itemName}: now ${dollars(item.price)} (was ${dollars(item.was)})`,
      ),
      '',
      `See your saved items: ${absolute(settings, '/favourites')}`,
      '',
      '--',
      `You get this because you saved these items on ${settings.siteName} and their price dropped by 10% or more.`,
      `Turn off price-drop emails: ${absolute(settings, '/account')}`,
    ),
    headers: oneClick(alertOneClickUrl(settings, input.token, 'price')),
  };
}

/** A saved item was taken off after a confirmed recall match: sent at once, on by default. */
export function safetyAlertEmail(
  settings: MailSettings,
  input: {
    to: string;
    name: string;
    item: { itemName: string };
    recall: { title: string; url: string | null; remedy: string | null };
    token: string;
  },
): EmailMessage {
  return {
    to: input.to,
    subject: 'An item you saved may be recalled',
    text: lines(
      `Hi ${input.name},`,
      '',
      `"${input.item.itemName}", which you saved on ${settings.siteName}, matches a product recall and has`,
      'been taken off the site:',
      '',
      `  ${input.recall.title}`,
      input.recall.url
        ? `  The official recall notice: ${input.recall.url}`
        : '  The official recall notice is on cpsc.gov.',
      '',
      'What to do: if you bought this item, stop using it and follow the recall notice',
      input.recall.remedy
        ? `(the remedy it offers: ${input.recall.remedy}).`
        : '(it says what the maker offers: a repair, a refund or a replacement).',
      'If you only saved it, there is nothing else to do.',
      '',
      '--',
      `You get this because you saved this item on ${settings.siteName}. Safety alerts are on unless you turn them off.`,
      `Turn off safety alerts: ${absolute(settings, '/account')}`,
    ),
    headers: oneClick(alertOneClickUrl(settings, input.token, 'safety')),
  };
}
