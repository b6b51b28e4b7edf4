import { Hono } from 'hono';
import type { SiteStats } from '../contract/favourites.ts';
import type { ScreeningFigures } from '../contract/screening.ts';
import { screeningFigures } from '../db/queries/listings.ts';
import { countVerifiedParents } from '../db/queries/profiles.ts';
import type { AppEnv } from '../types.ts';

/**
 * Figures from the data for the home page (mounted under /api/stats): an object, so further
 * figures join it without changing what is there.
 */
export const statsRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const { db, now } = c.get('deps');
  // The week's screening figures are what the home page and /safety claim (docs/product.md,
  // "Listing screening").
  const [verifiedParents, screening] = await Promise.all([
    countVerifiedParents(db),
    screeningFigures(db, now()),
  ]);
  return c.json<SiteStats & { screening: ScreeningFigures }>({ verifiedParents, screening });
});
