import { Hono } from 'hono';
import type { ScreenedListing } from '../contract/screening.ts';
import { decideListing, findScreenedListing, listHeldListings } from '../db/queries/listings.ts';
import { refuseSuspended, requireModerator, requireUser } from '../middleware/auth.ts';
import { limitPerUser, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import { LISTINGS_CHANGED, requestPublish } from './listings.ts';
import { listingDecisionBody, listingIdParam } from './schemas.ts';

/**
 * "Listings to check" (mounted under /api/moderation/listings; docs/product.md, "Listing
 * screening"): the held listings with what held them, any listing by id, and the decisions
 * (clear, block, a new age group, publish with faces blurred). Moderators and admins only.
 */
export const listingModerationRoutes = new Hono<AppEnv>()
  .get('/', requireUser, requireModerator, async (c) =>
    c.json<ScreenedListing[]>(await listHeldListings(c.get('deps').db)),
  )
  .get('/:itemId', validate('param', listingIdParam), requireUser, requireModerator, async (c) => {
    const listing = await findScreenedListing(c.get('deps').db, c.req.valid('param').itemId);
    if (!listing) return c.json({ error: 'There is no listing with that id.' }, 404);
    return c.json<ScreenedListing>(listing);
  })
  .post(
    '/:itemId/decision',
    validate('param', listingIdParam),
    requireUser,
    requireModerator,
    refuseSuspended,
    limitPerUser('moderation', tooQuickly('moderation actions')),
    validate('json', listingDecisionBody),
    async (c) => {
      const { db, now, publisher } = c.get('deps');
      const profile = c.get('profile');
      const { decision, reason, ageGroup } = c.req.valid('json');
      const { listing, shownChanged } = await decideListing(
        db,
        {
          itemId: c.req.valid('param').itemId,
          decision,
          reason,
          ageGroup,
          actor: { uid: profile.firebase_uid, name: profile.display_name },
        },
        now(),
      );
      c.set('changed', LISTINGS_CHANGED);
      // The API has it at once; the pages follow with a publish when what parents see changed.
      if (shownChanged > 0) requestPublish(publisher, `listing ${decision} (${listing.itemId})`);
      return c.json<ScreenedListing>(listing);
    },
  );
