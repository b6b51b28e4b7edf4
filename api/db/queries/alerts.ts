import {
  type AlertEmailState,
  type AlertSettings,
  DAILY_DIGEST_HOURS,
  type ExportedAlerts,
  INSTANT_ALERT_INTERVAL_MINUTES,
  PRICE_DROP_MIN_SHARE,
} from '../../contract/favourites.ts';
import {
  ALERT_PURPOSES,
  type AlertItem,
  confirmAlertsEmail,
  priceDropEmail,
  safetyAlertEmail,
  searchAlertEmail,
} from '../../lib/alert-emails.ts';
import type { MailSettings } from '../../lib/emails.ts';
import { randomToken } from '../../lib/tokens.ts';
import type { DB } from '../database.ts';
import type { AlertsTable, SavedSearchesTable } from '../schema.ts';
import type { Selectable } from 'kysely';
import { enqueueEmail } from './mail.ts';
import { askToConfirmEmail } from './notifications.ts';
import { recallsByIds } from './recalls.ts';
import { searchLabel } from './saved-searches.ts';
import { activeSuspension } from './suspensions.ts';

// Alerts (docs/product.md, "Favourites and alerts"). What happens to listings notes alerts as rows
// of `alerts` in its own transaction (a saved search matched a new item, a saved item got cheaper,
// a saved item was recalled); the alert tick (api/lib/alert-tick.ts) claims the rows that are due
// and queues their emails through the outbox. A row's dedupe_key is unique, so an alert is noted
// once, and a claim is one conditional UPDATE, so two instances never email the same alert.

// Rows per insert: 8 columns × 100 stays far below both databases' parameter limits.
const CHUNK = 100;
/** Matches kept in memory before they are written. */
const FLUSH_AT = 2000;
/** Alerts one tick looks at: the rest wait for the next one. */
const TICK_BATCH = 2000;

type NewAlert = Omit<Selectable<AlertsTable>, 'alert_id' | 'sent_at' | 'outcome'>;

async function noteAlerts(db: DB, alerts: NewAlert[]): Promise<void> {
  for (let i = 0; i < alerts.length; i += CHUNK) {
    await db
      .insertInto('alerts')
      .values(alerts.slice(i, i + CHUNK).map((a) => ({ ...a, sent_at: null, outcome: null })))
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .execute();
  }
}

const cents = (price: string | null): number => Math.round(Number(price) * 100);

type SearchRow = Pick<
  Selectable<SavedSearchesTable>,
  'search_id' | 'user_uid' | 'category' | 'age_group' | 'max_price_cents' | 'words'
>;

interface MatchableItem {
  item_id: string;
  item_name: string;
  category: string;
  listing_price: string;
  age_group: string | null;
  brand: string | null;
  description: string | null;
}

/** The words of a text, lower case: what a search's words are looked for among. */
export const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');

/** A changed item, read once for all the searches it is tested against. */
interface PreparedItem {
  item: MatchableItem;
  cents: number;
  age: string;
  words: Set<string>;
}

function prepareItem(item: MatchableItem): PreparedItem {
  return {
    item,
    cents: cents(item.listing_price),
    age: (item.age_group ?? 'All Ages').toLowerCase(),
    words: new Set(wordsOf([item.item_name, item.brand ?? '', item.description ?? ''].join(' '))),
  };
}

/** Whether an item is one a search asks for: its category, age group, price and every one of its words. */
export function searchMatches(search: SearchRow, prepared: PreparedItem): boolean {
  if (search.category !== null && search.category !== prepared.item.category) return false;
  if (search.age_group !== null && search.age_group.toLowerCase() !== prepared.age) return false;
  if (search.max_price_cents !== null && prepared.cents > Number(search.max_price_cents)) return false;
  return search.words === null || wordsOf(search.words).every((word) => prepared.words.has(word));
}

/**
 * Searches indexed by their first word (those without words apart): an item is tested only against
 * the searches one of its own words leads to, so matching costs what the item can match, not every
 * search of its category.
 */
function indexByWord(searches: SearchRow[]): { byWord: Map<string, SearchRow[]>; wordless: SearchRow[] } {
  const byWord = new Map<string, SearchRow[]>();
  const wordless: SearchRow[] = [];
  for (const search of searches) {
    const first = search.words === null ? undefined : wordsOf(search.words)[0];
    if (first === undefined) wordless.push(search);
    else {
      const list = byWord.get(first);
      if (list) list.push(search);
      else byWord.set(first, [search]);
    }
  }
  return { byWord, wordless };
}

function candidates(index: ReturnType<typeof indexByWord>, prepared: PreparedItem): SearchRow[] {
  const found = [...index.wordless];
  for (const word of prepared.words) {
    const list = index.byWord.get(word);
    if (list) found.push(...list);
  }
  return found;
}

const activeSearches = (db: DB) =>
  db
    .selectFrom('saved_searches')
    .select(['search_id', 'user_uid', 'category', 'age_group', 'max_price_cents', 'words'])
    .where('paused', '=', 0);

/** Listings whose visible state or price changed in this transaction: match saved searches for those that became (or changed while) visible, and note price drops ≥10% on favourites. */
export async function listingsChanged(
  db: DB,
  changes: {
    itemId: string;
    wasVisible: boolean;
    isVisible: boolean;
    oldPrice: string | null;
    newPrice: string;
  }[],
  now: Date,
): Promise<void> {
  const visible = changes.filter((c) => c.isVisible);
  if (visible.length === 0) return;
  const stamp = now.toISOString();
  const items: MatchableItem[] = [];
  for (let i = 0; i < visible.length; i += 500) {
    const ids = visible.slice(i, i + 500).map((c) => c.itemId);
    items.push(
      ...(await db
        .selectFrom('items')
        .select(['item_id', 'item_name', 'category', 'listing_price', 'age_group', 'brand', 'description'])
        .where('item_id', 'in', ids)
        .execute()),
    );
  }

  // Searches are read a category at a time (an index), so the work grows with what changed.
  const alerts: NewAlert[] = [];
  const anyCategory = indexByWord(await activeSearches(db).where('category', 'is', null).execute());
  const byCategory = new Map<string, MatchableItem[]>();
  for (const item of items) byCategory.set(item.category, [...(byCategory.get(item.category) ?? []), item]);
  for (const [category, inCategory] of byCategory) {
    const inThis = indexByWord(await activeSearches(db).where('category', '=', category).execute());
    for (const item of inCategory) {
      const prepared = prepareItem(item);
      const detail = JSON.stringify({ itemName: item.item_name, price: item.listing_price });
      for (const search of [...candidates(anyCategory, prepared), ...candidates(inThis, prepared)]) {
        if (!searchMatches(search, prepared)) continue;
        // Written as they are found, so memory stays flat however many match.
        if (alerts.length >= FLUSH_AT) await noteAlerts(db, alerts.splice(0));
        alerts.push({
          user_uid: search.user_uid,
          kind: 'search',
          search_id: Number(search.search_id),
          item_id: item.item_id,
          detail,
          dedupe_key: `search:${search.search_id}:${item.item_id}`,
          created_at: stamp,
        });
      }
    }
  }

  // A price drop is measured against the price each parent saved the item at.
  const cheaper = visible.filter((c) => c.oldPrice !== null && cents(c.newPrice) < cents(c.oldPrice));
  const names = new Map(items.map((item) => [item.item_id, item.item_name]));
  for (let i = 0; i < cheaper.length; i += 500) {
    const slice = cheaper.slice(i, i + 500);
    const saved = await db
      .selectFrom('favourites')
      .select(['user_uid', 'item_id', 'price_when_saved'])
      .where(
        'item_id',
        'in',
        slice.map((c) => c.itemId),
      )
      .execute();
    const change = new Map(slice.map((c) => [c.itemId, c]));
    for (const f of saved) {
      const c = change.get(f.item_id)!;
      if (cents(c.newPrice) > cents(f.price_when_saved) * (1 - PRICE_DROP_MIN_SHARE)) continue;
      alerts.push({
        user_uid: f.user_uid,
        kind: 'price',
        search_id: null,
        item_id: f.item_id,
        detail: JSON.stringify({
          itemName: names.get(f.item_id) ?? f.item_id,
          price: c.newPrice,
          was: f.price_when_saved,
        }),
        dedupe_key: `price:${f.user_uid}:${f.item_id}:${cents(c.newPrice)}`,
        created_at: stamp,
      });
    }
  }
  await noteAlerts(db, alerts);
}

/** A confirmed recall match of an item: every parent who saved it gets a safety alert (once). */
export async function queueSafetyAlerts(
  db: DB,
  itemId: string,
  recall: { title: string; url: string | null; remedy?: string | null },
  now: Date,
): Promise<void> {
  const savers = await db.selectFrom('favourites').select('user_uid').where('item_id', '=', itemId).execute();
  if (savers.length === 0) return;
  const item = await db
    .selectFrom('items')
    .select('item_name')
    .where('item_id', '=', itemId)
    .executeTakeFirst();
  const detail = JSON.stringify({
    itemName: item?.item_name ?? itemId,
    recall: { title: recall.title, url: recall.url, remedy: recall.remedy ?? null },
  });
  await noteAlerts(
    db,
    savers.map((s) => ({
      user_uid: s.user_uid,
      kind: 'safety' as const,
      search_id: null,
      item_id: itemId,
      detail,
      dedupe_key: `safety:${s.user_uid}:${itemId}`,
      created_at: now.toISOString(),
    })),
  );
}

// ---- Who can be emailed ------------------------------------------------------------------------

/** Where a parent's search and price-drop emails stand (safety alerts need only a verified address). */
export async function alertEmailState(db: DB, uid: string): Promise<AlertEmailState> {
  const profile = await db
    .selectFrom('users_profile')
    .select('email_verified')
    .where('firebase_uid', '=', uid)
    .executeTakeFirst();
  const settings = await db
    .selectFrom('email_settings')
    .select(['enabled', 'confirmed_at'])
    .where('user_uid', '=', uid)
    .executeTakeFirst();
  if (settings && !Number(settings.enabled)) return 'off';
  if (!profile || !Number(profile.email_verified)) return 'unverified';
  return settings?.confirmed_at ? 'on' : 'pending';
}

/**
 * The double opt-in, shared with reply emails (the same email_settings row): a parent who asks for
 * alerts and has not confirmed this address gets the confirmation link (again only after an hour);
 * one who confirmed before and stopped all email is turned back on. Only a verified address is
 * written to. Returns whether an email was queued.
 */
export async function askToConfirmAlerts(
  trx: DB,
  input: { uid: string; name: string; email: string; verified: boolean },
  mail: MailSettings,
  now: Date,
): Promise<boolean> {
  if (!input.verified || !input.email) return false;
  return askToConfirmEmail(trx, input, now, (token) => ({
    purpose: ALERT_PURPOSES.confirm,
    message: confirmAlertsEmail(mail, { to: input.email, name: input.name, token }),
  }));
}

// ---- Settings ----------------------------------------------------------------------------------

/** The parent's alert_settings row, made with the defaults (both on) when missing. */
async function settingsRow(db: DB, uid: string, now: Date) {
  await db
    .insertInto('alert_settings')
    .values({
      user_uid: uid,
      safety: 1,
      price_drops: 1,
      token: randomToken(),
      last_digest_at: null,
      updated_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('user_uid').doNothing())
    .execute();
  return db.selectFrom('alert_settings').selectAll().where('user_uid', '=', uid).executeTakeFirstOrThrow();
}

export async function getAlertSettings(db: DB, uid: string): Promise<AlertSettings> {
  const row = await db
    .selectFrom('alert_settings')
    .select(['safety', 'price_drops'])
    .where('user_uid', '=', uid)
    .executeTakeFirst();
  return {
    safety: row ? Number(row.safety) === 1 : true,
    priceDrops: row ? Number(row.price_drops) === 1 : true,
  };
}

export async function setAlertSettings(
  db: DB,
  uid: string,
  patch: Partial<AlertSettings>,
  now: Date,
): Promise<AlertSettings> {
  await db.transaction().execute(async (trx) => {
    await settingsRow(trx, uid, now);
    await trx
      .updateTable('alert_settings')
      .set({
        ...(patch.safety !== undefined && { safety: patch.safety ? 1 : 0 }),
        ...(patch.priceDrops !== undefined && { price_drops: patch.priceDrops ? 1 : 0 }),
        updated_at: now.toISOString(),
      })
      .where('user_uid', '=', uid)
      .execute();
  });
  return getAlertSettings(db, uid);
}

/** The one-click unsubscribe of price-drop or safety emails. False when the token matches none. */
export async function turnOffByToken(
  db: DB,
  token: string,
  alert: 'price' | 'safety',
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('alert_settings')
    .set({ ...(alert === 'price' ? { price_drops: 0 } : { safety: 0 }), updated_at: now.toISOString() })
    .where('token', '=', token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// ---- The tick: due alerts become emails ------------------------------------------------------

interface Recipient {
  to: string;
  name: string;
  allToken: string | null;
  alertToken: string;
}

/**
 * Where a parent's alert of this kind can go, or null: never to an erased, suspended or unverified
 * address, nor after "stop all email"; search and price-drop emails only to a confirmed address,
 * and each kind only while its switch is on.
 */
async function recipientFor(
  db: DB,
  uid: string,
  kind: AlertsTable['kind'],
  now: Date,
): Promise<Recipient | null> {
  const profile = await db
    .selectFrom('users_profile')
    .select(['display_name', 'email', 'email_verified'])
    .where('firebase_uid', '=', uid)
    .executeTakeFirst();
  if (!profile || !Number(profile.email_verified) || !profile.email) return null;
  if (await activeSuspension(db, uid, now)) return null;
  const email = await db
    .selectFrom('email_settings')
    .select(['email', 'enabled', 'confirmed_at', 'unsubscribe_token'])
    .where('user_uid', '=', uid)
    .executeTakeFirst();
  if (email && !Number(email.enabled)) return null;
  const settings = await settingsRow(db, uid, now);
  if (kind === 'safety') {
    if (!Number(settings.safety)) return null;
  } else {
    if (!email?.confirmed_at) return null;
    if (kind === 'price' && !Number(settings.price_drops)) return null;
  }
  return {
    to: kind === 'safety' ? profile.email : email!.email,
    name: profile.display_name,
    allToken: email?.unsubscribe_token ?? null,
    alertToken: settings.token,
  };
}

interface Pending {
  alert_id: number;
  user_uid: string;
  kind: AlertsTable['kind'];
  search_id: number | null;
  item_id: string;
  detail: string;
  frequency: 'instant' | 'daily' | null;
  paused: number | null;
}

/** Marks these alerts sent (or skipped) unless another tick did first; answers those it claimed. */
async function claim(trx: DB, alerts: Pending[], outcome: 'sent' | 'skipped', now: Date): Promise<Pending[]> {
  if (alerts.length === 0) return [];
  const claimed = new Set<number>();
  for (let i = 0; i < alerts.length; i += 500) {
    const rows = await trx
      .updateTable('alerts')
      .set({ sent_at: now.toISOString(), outcome })
      .where(
        'alert_id',
        'in',
        alerts.slice(i, i + 500).map((a) => a.alert_id),
      )
      .where('sent_at', 'is', null)
      .returning('alert_id')
      .execute();
    for (const row of rows) claimed.add(Number(row.alert_id));
  }
  return alerts.filter((a) => claimed.has(a.alert_id));
}

function parseDetail(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);

function alertItem(alert: Pending): AlertItem {
  const detail = parseDetail(alert.detail);
  return {
    itemId: alert.item_id,
    itemName: str(detail.itemName, alert.item_id),
    price: str(detail.price, '0'),
  };
}

/**
 * One email's worth of alerts, in one transaction: the batching rule is claimed first (an instant
 * search's last email, a parent's daily digest) by a conditional UPDATE, then the alerts, then the
 * email is queued. Answers whether an email was queued.
 */
async function sendGroup(
  db: DB,
  group: { uid: string; kind: AlertsTable['kind']; alerts: Pending[]; daily?: boolean; searchId?: number },
  mail: MailSettings,
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const recipient = await recipientFor(trx, group.uid, group.kind, now);
    if (!recipient) {
      await claim(trx, group.alerts, 'skipped', now);
      return false;
    }
    const stamp = now.toISOString();
    if (group.kind === 'search' && !group.daily) {
      const cutoff = new Date(now.getTime() - INSTANT_ALERT_INTERVAL_MINUTES * 60_000).toISOString();
      const due = await trx
        .updateTable('saved_searches')
        .set({ last_sent_at: stamp })
        .where('search_id', '=', group.searchId!)
        .where((eb) => eb.or([eb('last_sent_at', 'is', null), eb('last_sent_at', '<=', cutoff)]))
        .executeTakeFirst();
      if (Number(due.numUpdatedRows) === 0) return false;
    }
    if (group.daily) {
      const cutoff = new Date(now.getTime() - DAILY_DIGEST_HOURS * 60 * 60_000).toISOString();
      const due = await trx
        .updateTable('alert_settings')
        .set({ last_digest_at: stamp })
        .where('user_uid', '=', group.uid)
        .where((eb) => eb.or([eb('last_digest_at', 'is', null), eb('last_digest_at', '<=', cutoff)]))
        .executeTakeFirst();
      if (Number(due.numUpdatedRows) === 0) return false;
    }
    const claimed = await claim(trx, group.alerts, 'sent', now);
    if (claimed.length === 0) return false;
    let message;
    if (group.kind === 'safety') {
      const detail = parseDetail(claimed[0]!.detail);
      const recall = parseDetail(JSON.stringify(detail.recall ?? {}));
      message = safetyAlertEmail(mail, {
        to: recipient.to,
        name: recipient.name,
        item: { itemName: str(detail.itemName, claimed[0]!.item_id) },
        recall: {
          title: str(recall.title, 'A product recall'),
          url: typeof recall.url === 'string' ? recall.url : null,
          remedy: typeof recall.remedy === 'string' ? recall.remedy : null,
        },
        token: recipient.alertToken,
      });
    } else if (group.kind === 'price') {
      message = priceDropEmail(mail, {
        to: recipient.to,
        name: recipient.name,
        items: claimed.map((a) => ({ ...alertItem(a), was: str(parseDetail(a.detail).was, '0') })),
        token: recipient.alertToken,
      });
    } else {
      const ids = [...new Set(claimed.map((a) => Number(a.search_id)))];
      const searches = await trx
        .selectFrom('saved_searches')
        .select(['search_id', 'category', 'age_group', 'max_price_cents', 'words', 'token'])
        .where('search_id', 'in', ids)
        .execute();
      message = searchAlertEmail(mail, {
        to: recipient.to,
        name: recipient.name,
        digest: Boolean(group.daily),
        searches: searches.map((s) => ({
          label: searchLabel(s),
          token: s.token,
          items: claimed.filter((a) => Number(a.search_id) === Number(s.search_id)).map(alertItem),
        })),
        allToken: recipient.allToken,
      });
    }
    const purpose =
      group.kind === 'safety'
        ? ALERT_PURPOSES.safety
        : group.kind === 'price'
          ? ALERT_PURPOSES.price
          : group.daily
            ? ALERT_PURPOSES.digest
            : ALERT_PURPOSES.search;
    await enqueueEmail(trx, purpose, message, now);
    return true;
  });
}

/**
 * Queues the emails of every alert that is due now: safety alerts and price drops at once, an
 * instant search's matches at most once per INSTANT_ALERT_INTERVAL_MINUTES, a parent's daily
 * searches in one digest per DAILY_DIGEST_HOURS. Alerts of a paused or deleted search are
 * dropped. Safe to run at the same time on several instances. Answers how many emails were queued.
 */
export async function sendDueAlerts(db: DB, mail: MailSettings, now: Date): Promise<number> {
  const pending: Pending[] = (
    await db
      .selectFrom('alerts as a')
      .leftJoin('saved_searches as s', 's.search_id', 'a.search_id')
      .select([
        'a.alert_id',
        'a.user_uid',
        'a.kind',
        'a.search_id',
        'a.item_id',
        'a.detail',
        's.frequency',
        's.paused',
      ])
      .where('a.sent_at', 'is', null)
      .orderBy('a.alert_id')
      .limit(TICK_BATCH)
      .execute()
  ).map((a) => ({
    ...a,
    alert_id: Number(a.alert_id),
    search_id: a.search_id === null ? null : Number(a.search_id),
  }));
  if (pending.length === 0) return 0;

  const groups: Parameters<typeof sendGroup>[1][] = [];
  const dropped: Pending[] = [];
  const byKey = new Map<string, Parameters<typeof sendGroup>[1]>();
  const add = (key: string, make: () => Parameters<typeof sendGroup>[1], alert: Pending) => {
    let group = byKey.get(key);
    if (!group) {
      group = make();
      byKey.set(key, group);
      groups.push(group);
    }
    group.alerts.push(alert);
  };
  for (const alert of pending) {
    const uid = alert.user_uid;
    if (alert.kind === 'safety') groups.push({ uid, kind: 'safety', alerts: [alert] });
    else if (alert.kind === 'price') add(`price ${uid}`, () => ({ uid, kind: 'price', alerts: [] }), alert);
    else if (alert.frequency === null || Number(alert.paused) === 1) dropped.push(alert);
    else if (alert.frequency === 'daily') {
      add(`daily ${uid}`, () => ({ uid, kind: 'search', daily: true, alerts: [] }), alert);
    } else {
      const searchId = alert.search_id!;
      add(`search ${searchId}`, () => ({ uid, kind: 'search', searchId, alerts: [] }), alert);
    }
  }
  if (dropped.length > 0) await db.transaction().execute((trx) => claim(trx, dropped, 'skipped', now));
  let queued = 0;
  for (const group of groups) if (await sendGroup(db, group, mail, now)) queued += 1;
  return queued;
}

// ---- The parent's own data -----------------------------------------------------------------------

/** Favourites, saved searches, alert history and switches, for the account export. */
export async function exportAlerts(db: DB, uid: string): Promise<ExportedAlerts> {
  const favourites = await db
    .selectFrom('favourites as f')
    .leftJoin('items as i', 'i.item_id', 'f.item_id')
    .select(['f.item_id', 'i.item_name', 'f.saved_at', 'f.price_when_saved'])
    .where('f.user_uid', '=', uid)
    .orderBy('f.saved_at')
    .execute();
  const searches = await db
    .selectFrom('saved_searches')
    .selectAll()
    .where('user_uid', '=', uid)
    .orderBy('search_id')
    .execute();
  const alerts = await db
    .selectFrom('alerts')
    .select(['kind', 'item_id', 'created_at', 'sent_at'])
    .where('user_uid', '=', uid)
    .orderBy('alert_id')
    .execute();
  return {
    favourites: favourites.map((f) => ({
      itemId: f.item_id,
      itemName: f.item_name,
      savedAt: f.saved_at,
      priceWhenSaved: f.price_when_saved,
    })),
    savedSearches: searches.map((s) => ({
      searchId: Number(s.search_id),
      category: s.category,
      ageGroup: s.age_group,
      maxPrice: s.max_price_cents === null ? null : Number(s.max_price_cents) / 100,
      words: s.words,
      frequency: s.frequency,
      paused: Number(s.paused) === 1,
      createdAt: s.created_at,
    })),
    alerts: alerts.map((a) => ({
      kind: a.kind,
      itemId: a.item_id,
      createdAt: a.created_at,
      sentAt: a.sent_at,
    })),
    settings: await getAlertSettings(db, uid),
  };
}

/** Account erasure: favourites, saved searches, alerts (sent or waiting) and switches go. */
export async function forgetAlerts(trx: DB, uid: string): Promise<void> {
  await trx.deleteFrom('alerts').where('user_uid', '=', uid).execute();
  await trx.deleteFrom('saved_searches').where('user_uid', '=', uid).execute();
  await trx.deleteFrom('favourites').where('user_uid', '=', uid).execute();
  await trx.deleteFrom('alert_settings').where('user_uid', '=', uid).execute();
}

/** queueSafetyAlerts for a match a moderator has just confirmed, with its recall's title, link and remedy. */
export async function queueSafetyAlertsForMatch(trx: DB, matchId: number, now: Date): Promise<void> {
  const match = await trx
    .selectFrom('recall_matches')
    .select(['item_id', 'recall_id'])
    .where('match_id', '=', matchId)
    .executeTakeFirst();
  if (!match) return;
  const recall = (await recallsByIds(trx, [Number(match.recall_id)])).get(Number(match.recall_id));
  if (!recall) return;
  await queueSafetyAlerts(
    trx,
    match.item_id,
    { title: recall.title, url: recall.url, remedy: recall.remedies.join('; ') || null },
    now,
  );
}
