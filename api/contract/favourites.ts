// Favourites, saved searches and alerts: the wire contract (docs/product.md, "Favourites and
// alerts"). The server, the build and the islands all read it; it imports nothing, so the item a
// favourite carries is a type parameter the main contract fills in (api/contract.ts's Item).

/** At most this many favourites per parent: a 400 says so beyond it. */
export const FAVOURITES_MAX = 500;
/** At most this many saved searches per parent. */
export const SAVED_SEARCHES_MAX = 20;
/** The words of a saved search: at most this many characters. */
export const SAVED_SEARCH_WORDS_MAX = 100;
export const SAVED_SEARCH_AGE_GROUP_MAX = 50;
/** The highest maximum price a search may ask for, in dollars: anything above is a mistake. */
export const SAVED_SEARCH_PRICE_MAX = 100_000;
/** A price drop of at least this share of the price when saved is emailed. */
export const PRICE_DROP_MIN_SHARE = 0.1;
/** An instant search sends at most one email in this many minutes (the first match at once). */
export const INSTANT_ALERT_INTERVAL_MINUTES = 15;
/** A daily search's matches go out in one digest per parent per this many hours. */
export const DAILY_DIGEST_HOURS = 24;
/** localStorage key of the demo mode's favourites (kept on this device only). */
export const DEMO_FAVOURITES_KEY = 'nestling:demo-favourites';

/**
 * Where a saved item stands, in the words /favourites uses: `available` (as saved), `price_changed`
 * (on sale at another price), `sold`, `removed` (by the seller, or after a safety check), `held`
 * (waiting for a safety check) or `recalled` (a confirmed recall match).
 */
export const FAVOURITE_STATES = [
  'available',
  'price_changed',
  'sold',
  'removed',
  'held',
  'recalled',
] as const;
export type FavouriteState = (typeof FAVOURITE_STATES)[number];

/** One saved item (GET /api/favourites), newest first. */
export interface Favourite<TItem> {
  itemId: string;
  savedAt: string;
  /** Dollars, as the item's price read when it was saved ("24.00"). */
  priceWhenSaved: string;
  state: FavouriteState;
  /** Whether the item was taken off after a safety check (state `removed`). */
  removedForSafety: boolean;
  /** The item as /api/items gives it while parents can see it (or saw it, when sold); else null. */
  item: TItem | null;
  /** Its name while any row of it is kept, so a removed item can still be named; else null. */
  itemName: string | null;
}

export interface FavouriteList<TItem> {
  items: Favourite<TItem>[];
}

/** PUT/DELETE /api/favourites/:itemId and GET /api/favourites/count. */
export interface FavouriteCount {
  count: number;
}

export const SAVED_SEARCH_FREQUENCIES = ['instant', 'daily'] as const;
export type SavedSearchFrequency = (typeof SAVED_SEARCH_FREQUENCIES)[number];

/** What POST /api/saved-searches takes (PATCH takes any part of it, and `paused`). */
export interface SavedSearchInput {
  category?: string | null;
  ageGroup?: string | null;
  /** Dollars. */
  maxPrice?: number | null;
  words?: string | null;
  frequency: SavedSearchFrequency;
}

export interface SavedSearch {
  searchId: number;
  category: string | null;
  ageGroup: string | null;
  maxPrice: number | null;
  words: string | null;
  frequency: SavedSearchFrequency;
  paused: boolean;
  /** false when no item has this category any more: the search waits, matching nothing. */
  categoryExists: boolean;
  createdAt: string;
  /** The newest item it matched, or null before its first match. */
  lastMatch: { itemId: string; itemName: string; at: string } | null;
  /** Whether its emails can go out: the address is verified and confirmed (else they wait). */
  emails: AlertEmailState;
}

/**
 * Where a parent's alert emails stand: `off` (stopped), `unverified` (the sign-in address is not
 * verified), `pending` (the confirmation link has not been followed yet) or `on`.
 */
export type AlertEmailState = 'off' | 'unverified' | 'pending' | 'on';

export interface SavedSearchList {
  searches: SavedSearch[];
}

/** GET/PUT /api/favourites/alerts: the parent's off switches (PUT takes any part). */
export interface AlertSettings {
  /** Safety alerts about saved items: on by default. */
  safety: boolean;
  /** Price drops on saved items. */
  priceDrops: boolean;
}

/** GET /api/stats: figures from the data, for the home page. Other figures may join it. */
export interface SiteStats {
  /** Parents whose email address is verified (not an identity check). */
  verifiedParents: number;
}

/** Account export: the parent's favourites, saved searches and the alerts sent to them. */
export interface ExportedAlerts {
  favourites: { itemId: string; itemName: string | null; savedAt: string; priceWhenSaved: string }[];
  savedSearches: Omit<SavedSearch, 'lastMatch' | 'emails' | 'categoryExists'>[];
  alerts: { kind: AlertKind; itemId: string; createdAt: string; sentAt: string | null }[];
  settings: AlertSettings;
}

export type AlertKind = 'search' | 'price' | 'safety';
