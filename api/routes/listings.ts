import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { ListingsAccepted } from '../contract/screening.ts';
import { importListings } from '../db/queries/listings.ts';
import { parseListings } from '../screening/listing-input.ts';
import type { AppEnv, Changed, PublishService } from '../types.ts';

// The marketplace's way in (docs/product.md, "Listing screening"): new, changed, sold and removed
// listings, up to 500 a request, with the shared secret LISTINGS_TOKEN. Without the setting the
// route does not exist. `npm run items:import` takes the same JSON through the same function.

/** What a change of listings changes for readers: the items' answers and the week's figures. */
export const LISTINGS_CHANGED: Changed = ['/api/items/*', '/api/stats'];

/**
 * How long changes of listings gather before they publish: the API has each at once, and the
 * pages follow with one publish for all the changes of that half minute rather than one each
 * (a busy marketplace would otherwise keep the renderer busy all day).
 */
export const LISTINGS_PUBLISH_DELAY_MS = 30_000;
const gathering = new WeakMap<PublishService, string[]>();

/**
 * Starts a publish for changes of listings, LISTINGS_PUBLISH_DELAY_MS after the first of them;
 * its failure leaves the changes standing (the API has them; an admin can publish). A server
 * stopped in that half minute leaves the pages to the next publish.
 */
export function requestPublish(publisher: PublishService | undefined, trigger: string): void {
  if (!publisher) return;
  const waiting = gathering.get(publisher);
  if (waiting) {
    waiting.push(trigger);
    return;
  }
  const triggers = [trigger];
  gathering.set(publisher, triggers);
  setTimeout(() => {
    gathering.delete(publisher);
    const said =
      triggers.length === 1
        ? triggers[0]!
        : `${triggers[0]} and ${triggers.length - 1} more change(s) of listings`;
    publisher.request(said).catch((error: unknown) => {
      console.error('A change of listings could not start a publish:', error);
    });
  }, LISTINGS_PUBLISH_DELAY_MS).unref();
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export const listingRoutes = new Hono<AppEnv>().post('/', async (c) => {
  const { db, now, listings, photoQueue, publisher } = c.get('deps');
  if (!listings.token) return c.json({ error: `No such endpoint: ${c.req.method} ${c.req.path}` }, 404);
  const header = c.req.header('Authorization') ?? '';
  const token = /^Bearer (.+)$/.exec(header)?.[1] ?? '';
  if (!sameSecret(token, listings.token)) {
    return c.json({ error: 'Send the marketplace token as Authorization: Bearer <LISTINGS_TOKEN>.' }, 401);
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return c.json({ error: 'The body must be JSON: { "listings": [ ... ] }' }, 400);
  }
  const parsed = parseListings(body);
  if (!parsed.ok) return c.json({ error: parsed.error }, 400);
  const { shownChanged, ...accepted } = await importListings(db, parsed.listings, now());
  photoQueue?.poke();
  c.set('changed', LISTINGS_CHANGED);
  // The API has the change at once; the pages follow with a publish when what parents see changed.
  if (shownChanged > 0) requestPublish(publisher, `${shownChanged} listing(s) shown or taken down`);
  return c.json<ListingsAccepted>(accepted, 202);
});
