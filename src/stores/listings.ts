// The console's "Listings to check" (docs/product.md, "Listing screening"): the listings the
// screening held for a moderator, keyed by the signed-in moderator's uid, and the decisions on
// them. Every call carries the moderator's token; the API checks the role.
import type { ListingDecision, ScreenedListing } from '../../api/contract/screening.ts';
import { api, read, withToken } from '../lib/api.ts';
import { getIdToken } from './auth.ts';
import { auditLog } from './moderation.ts';
import { keyedQuery } from './query.ts';

const auth = async () => withToken(await getIdToken());

/** Held listings, the longest waiting first. */
export const heldListings = keyedQuery('moderation-listings', async () =>
  read(api.moderation.listings.$get(undefined, await auth())),
);

export interface ListingDecisionInput {
  decision: ListingDecision;
  /** Needed for a block; a note otherwise. */
  reason: string | null;
  /** Only for `reage`: the age group the listing belongs in. */
  ageGroup?: string | null;
}

/**
 * Sends a decision. The listing changes in place at once: it leaves the queue unless it is still
 * held (a new age group screens it again, and another check may still hold it); then the queue and
 * the audit log are loaded afresh.
 */
export async function decideOnListing(
  uid: string,
  itemId: string,
  { decision, reason, ageGroup = null }: ListingDecisionInput,
): Promise<ScreenedListing> {
  const listing = await read(
    api.moderation.listings[':itemId'].decision.$post(
      { param: { itemId }, json: { decision, reason, ageGroup } },
      await auth(),
    ),
  );
  heldListings.update(uid, (listings) =>
    listings.flatMap((l) =>
      l.itemId !== itemId ? [l] : listing.screening.state === 'held' ? [listing] : [],
    ),
  );
  heldListings.refresh(uid);
  auditLog.refresh(uid);
  return listing;
}
