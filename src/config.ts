// One source of truth for the site's constants (docs/product.md) and the placeholders the product shows
// (docs/product.md). Tests import these rather than repeating the numbers.
import {
  COMMUNITY_FEED_DEFAULT,
  DEFAULT_MARKETPLACE_URL,
  DEFAULT_PRIVACY_EMAIL,
  DEFAULT_SITE_NAME,
  DEFAULT_SITE_URL,
  FEATURED_ITEMS_DEFAULT,
} from '../api/contract.ts';

export const SITE_NAME: string = import.meta.env.PUBLIC_SITE_NAME || DEFAULT_SITE_NAME;
export const SITE_URL: string = (import.meta.env.PUBLIC_SITE_URL || DEFAULT_SITE_URL).replace(/\/$/, '');
export const MARKETPLACE_URL: string = import.meta.env.PUBLIC_MARKETPLACE_URL || DEFAULT_MARKETPLACE_URL;
export const PRIVACY_EMAIL: string = import.meta.env.PUBLIC_PRIVACY_EMAIL || DEFAULT_PRIVACY_EMAIL;

export const HERO_SLIDE_COUNT = 3;
export const HERO_ADVANCE_MS = 10_000;
export const FEATURED_ITEMS_LIMIT = FEATURED_ITEMS_DEFAULT;
export const CATEGORY_FILTER_LIMIT = 8;
export const COMMUNITY_FEED_LIMIT = COMMUNITY_FEED_DEFAULT;
export const BLOG_PAGE_SIZE = 10;
export const VIEW_RECORD_DELAY_MS = 1_000;
export const SIGN_IN_DIALOG_RESET_MS = 200;
export const AUTH_INIT_TRIES = 10;
export const AUTH_INIT_INTERVAL_MS = 100;
export const POST_REDIRECT_WAIT_MS = 1_000;
export const DEMO_LOADING_DELAY_MS = 500;
export const DEMO_POSTING_DELAY_MS = 1_000;
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5_000;
/** A notice that offers an action (Undo) stays longer: time to reach its button. */
export const TOAST_ACTION_DURATION_MS = 15_000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

// Placeholders the product shows as fixed text, kept here and nowhere else.
/** Every item shows this rating; ratings are not in the data yet. */
export const ITEM_RATING = 4.8;

export const ITEM_CATEGORIES: Record<string, string> = {
  clothing: 'Clothing & Shoes',
  toys: 'Toys & Games',
  gear: 'Baby Gear',
  books: 'Books & Media',
  furniture: 'Nursery & Decor',
  health: 'Health & Safety',
};

export const ITEM_CONDITIONS: Record<string, string> = {
  new: 'New',
  like_new: 'Like New',
  good: 'Good',
  fair: 'Fair',
  'as-is': 'As-Is',
};
export const DEFAULT_CONDITION_LABEL = 'Good';
export const DEFAULT_AGE_GROUP = 'All Ages';
/**
 * The age groups a moderator may move a held listing to (docs/product.md, "Listing screening"),
 * youngest first; they include every age group the screening rules suggest.
 */
export const AGE_GROUPS = [
  '0-6 months',
  '6-12 months',
  '0-12 months',
  '12-24 months',
  '1-3 years',
  '2-4 years',
  '3+ years',
  '4+ years',
  '5+ years',
  '8+ years',
  '12+ years',
  DEFAULT_AGE_GROUP,
] as const;

/** Fixed badge colours for the known blog categories; others use their colorHex, else grey. */
export const BLOG_CATEGORY_COLORS: Record<string, string> = {
  'app-updates': '#2563eb',
  'diy-crafts': '#c2410c',
  marketplace: '#15803d',
  'parenting-tips': '#7c3aed',
  'safety-health': '#b91c1c',
  seasonal: '#a16207',
};
export const DEFAULT_CATEGORY_COLOR = '#4b5563';
