// The listings' part of the wire contract (docs/product.md, "Listing screening"): what the
// marketplace sends, the limits of a request, the states a listing moves through and what the
// screening found, which the server, the build and the islands all read. It imports nothing.

// ---- Intake ------------------------------------------------------------------------------------

/** Listings in one POST /api/listings (or one items:import file). */
export const LISTINGS_PER_REQUEST_MAX = 500;
/** The intake route's own body limit: 500 listings of about 350 bytes, with room to spare. */
export const LISTINGS_BODY_MAX_BYTES = 1024 * 1024;
export const LISTING_ID_MAX = 100;
export const LISTING_NAME_MAX = 200;
export const LISTING_TEXT_MAX = 100;
export const LISTING_DESCRIPTION_MAX = 5000;
export const LISTING_PHOTOS_MAX = 8;
export const LISTING_PHOTO_URL_MAX = 2000;
/** The highest price a listing may ask, in dollars: anything above is a mistake, not a price. */
export const LISTING_PRICE_MAX = 100_000;

/** A listing's own state on the marketplace. */
export const LISTING_STATUSES = ['active', 'sold', 'removed'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

/** What the marketplace sends: today's item fields plus the optional ones. */
export interface Listing {
  itemId: string;
  itemName: string;
  category: string;
  /** Dollars with up to two decimals, as a string ("18.00"). */
  listingPrice: string;
  condition: string | null;
  brand: string | null;
  ageGroup: string | null;
  description?: string | null;
  manufactureYear?: number | null;
  /** Photo addresses on the marketplace's hosts (LISTING_PHOTO_HOSTS). */
  photos?: string[];
  status?: ListingStatus;
  /** Our own sample illustration (content/items.json): a path under the site, never analysed. */
  imageUrl?: string | null;
  featured?: boolean;
  createdAt?: string;
}

// ---- Screening ---------------------------------------------------------------------------------

/**
 * Where a listing is: `pending` (a check has still to run), `cleared` (shown to parents), `held`
 * (a moderator must decide), `blocked` (never shown).
 */
export const SCREENING_STATES = ['pending', 'cleared', 'held', 'blocked'] as const;
export type ScreeningState = (typeof SCREENING_STATES)[number];

export const SCREENING_CHECKS = ['rules', 'photo', 'recall'] as const;
export type ScreeningCheck = (typeof SCREENING_CHECKS)[number];

/** A check's outcome: `block`, `flag` (held for a moderator), `note` (shown with a safety note), `pass`. */
export const CHECK_OUTCOMES = ['pass', 'note', 'flag', 'block', 'pending'] as const;
export type CheckOutcome = (typeof CHECK_OUTCOMES)[number];

/** One reason a check gave: the rule, its plain words and where the rule comes from. */
export interface ScreeningReason {
  /** "R1", "photo.face", "recall.open" … */
  rule: string;
  text: string;
  /** The source's address, or null for our own policy. */
  source: string | null;
}

export interface CheckResult {
  check: ScreeningCheck;
  outcome: CheckOutcome;
  reasons: ScreeningReason[];
}

/** A face found in a photo, as fractions (0–1) of the photo's width and height. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ScreenedPhoto {
  /** Our stored copy (metadata stripped), or null while it is fetched or when it could not be. */
  url: string | null;
  sourceUrl: string;
  state: 'queued' | 'analysed' | 'failed';
  faces: FaceBox[];
}

export interface Screening {
  state: ScreeningState;
  checks: CheckResult[];
  /** Faces in each photo, in the listing's photo order. */
  photos: ScreenedPhoto[];
  checkedAt: string | null;
  decision: { decision: ListingDecision; reason: string | null; at: string; byName: string } | null;
}

/** What /api/items says of a cleared listing's checks. */
export interface ItemChecks {
  checkedAt: string;
  ran: ScreeningCheck[];
}

// ---- Moderation --------------------------------------------------------------------------------

export const LISTING_DECISIONS = ['clear', 'block', 'reage', 'blur'] as const;
export type ListingDecision = (typeof LISTING_DECISIONS)[number];

export interface ScreenedListing {
  itemId: string;
  itemName: string;
  category: string;
  listingPrice: string;
  condition: string | null;
  brand: string | null;
  ageGroup: string | null;
  description: string | null;
  manufactureYear: number | null;
  status: ListingStatus;
  receivedAt: string;
  screening: Screening;
}

/** POST /api/listings answers 202 with each listing's screening state as it stands. */
export interface ListingsAccepted {
  accepted: number;
  listings: { itemId: string; screening: ScreeningState }[];
}

/** Listings checked in the last 7 days, for the home page, /safety and /api/stats. */
export interface ScreeningFigures {
  checkedThisWeek: number;
  heldThisWeek: number;
  blockedThisWeek: number;
}
