// What the marketplace may send (docs/product.md, "Listing screening"): one schema for
// POST /api/listings, `npm run items:import` and content/items.json, so the three ways in agree.
// A listing that breaks it refuses the whole request, named by its place and id, and the field.
import { z } from 'zod';
import {
  LISTING_DESCRIPTION_MAX,
  LISTING_ID_MAX,
  LISTING_NAME_MAX,
  LISTING_PHOTO_URL_MAX,
  LISTING_PHOTOS_MAX,
  LISTING_PRICE_MAX,
  LISTING_STATUSES,
  LISTING_TEXT_MAX,
  LISTINGS_PER_REQUEST_MAX,
  type Listing,
} from '../contract/screening.ts';
import { UNSTORABLE_MESSAGE, unstorableText } from '../lib/storable-text.ts';

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const optionalText = (max: number) => text(max).nullable().optional();

/** Dollars with at most two decimals, from 0 to LISTING_PRICE_MAX; a number is taken as dollars too. */
const price = z.union([z.string().trim(), z.number()]).transform((value, ctx) => {
  const written = typeof value === 'number' ? String(value) : value;
  const dollars = /^\d{1,7}(\.\d{1,2})?$/.test(written) ? Number(written) : NaN;
  if (!Number.isFinite(dollars) || dollars > LISTING_PRICE_MAX) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a price in dollars from 0 to ${LISTING_PRICE_MAX} with at most two decimals, like "18.00"`,
    });
    return z.NEVER;
  }
  return dollars.toFixed(2);
});

const photoUrl = z
  .string()
  .max(LISTING_PHOTO_URL_MAX, `must be at most ${LISTING_PHOTO_URL_MAX} characters`)
  .refine((url) => /^https?:\/\//i.test(url) && URL.canParse(url), 'must be an http or https address');

export const listingSchema = z.object({
  itemId: text(LISTING_ID_MAX).regex(
    /^[A-Za-z0-9][A-Za-z0-9._:-]*$/,
    'must be letters, digits, dots, dashes, colons or underscores',
  ),
  itemName: text(LISTING_NAME_MAX).min(1, 'is required'),
  category: text(50).regex(/^[a-z0-9][a-z0-9-]*$/, 'must be a category key like "toys"'),
  listingPrice: price,
  condition: optionalText(LISTING_TEXT_MAX).transform((v) => v || null),
  brand: optionalText(LISTING_TEXT_MAX).transform((v) => v || null),
  ageGroup: optionalText(LISTING_TEXT_MAX).transform((v) => v || null),
  description: optionalText(LISTING_DESCRIPTION_MAX).transform((v) => v || null),
  manufactureYear: z
    .number()
    .int('must be a whole year')
    .min(1900, 'must be a year from 1900')
    .max(2100, 'must be a year up to 2100')
    .nullable()
    .optional(),
  photos: z
    .array(photoUrl)
    .max(LISTING_PHOTOS_MAX, `must list at most ${LISTING_PHOTOS_MAX} photos`)
    .optional(),
  status: z.enum(LISTING_STATUSES, { error: `must be one of ${LISTING_STATUSES.join(', ')}` }).optional(),
  // Our own sample illustrations (content/items.json) only: a photo from outside is a photo.
  imageUrl: z
    .string()
    .regex(/^\/images\/[A-Za-z0-9/._-]+$/, 'must be a path under /images/ (photos go in photos)')
    .nullable()
    .optional(),
  featured: z.boolean().optional(),
  createdAt: z.iso.datetime({ offset: true, error: 'must be an ISO date and time' }).optional(),
});

/** What a listing is once read: prices written the one way. */
export type ParsedListing = z.output<typeof listingSchema> & Listing;

export type ListingsParse = { ok: true; listings: ParsedListing[] } | { ok: false; error: string };

const MANY = `listings: send from 1 to ${LISTINGS_PER_REQUEST_MAX} listings in one request`;

/** Reads `{ listings: [...] }` (or a bare array, as a file may be). Never throws. */
export function parseListings(body: unknown): ListingsParse {
  const list = Array.isArray(body)
    ? body
    : typeof body === 'object' && body !== null && 'listings' in body
      ? (body as { listings: unknown }).listings
      : undefined;
  if (!Array.isArray(list)) return { ok: false, error: 'listings: must be a list of listings' };
  if (list.length === 0 || list.length > LISTINGS_PER_REQUEST_MAX) return { ok: false, error: MANY };
  const seen = new Set<string>();
  const listings: ParsedListing[] = [];
  for (const [index, raw] of list.entries()) {
    const id =
      typeof raw === 'object' && raw !== null && 'itemId' in raw && typeof raw.itemId === 'string'
        ? ` (${JSON.stringify(raw.itemId.slice(0, LISTING_ID_MAX))})`
        : '';
    const where = `listings[${index}]${id}`;
    const unstorable = unstorableText(raw);
    if (unstorable !== null) return { ok: false, error: `${where}: ${unstorable}: ${UNSTORABLE_MESSAGE}` };
    const parsed = listingSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join('.') || 'listing';
      return { ok: false, error: `${where}: ${field}: ${issue.message}` };
    }
    if (seen.has(parsed.data.itemId)) {
      return { ok: false, error: `${where}: itemId: is listed twice in this request` };
    }
    seen.add(parsed.data.itemId);
    listings.push(parsed.data);
  }
  return { ok: true, listings };
}
