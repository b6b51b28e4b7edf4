import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { type Item, LINK_TOKEN_PATTERN } from '../contract.ts';
import type { AlertSettings, FavouriteCount, FavouriteList } from '../contract/favourites.ts';
import {
  askToConfirmAlerts,
  getAlertSettings,
  setAlertSettings,
  turnOffByToken,
} from '../db/queries/alerts.ts';
import { countFavourites, listFavourites, removeFavourite, saveFavourite } from '../db/queries/favourites.ts';
import { requireUser } from '../middleware/auth.ts';
import { limitPerAddress, limitPerUser, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';

const itemIdParam = z.object({
  itemId: z.string().min(1, 'must be an item id').max(100, 'must be at most 100 characters'),
});

const alertSettingsBody = z
  .object({
    safety: z.boolean({ error: 'must be true or false' }).optional(),
    priceDrops: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict();

const oneClickQuery = z.object({
  token: z
    .string({ error: 'must be the token from the link' })
    .regex(LINK_TOKEN_PATTERN, 'must be the token from the link (64 hexadecimal characters)'),
  alert: z.enum(['price', 'safety'], { error: 'must be price or safety' }),
});

/** Whether a mail client's POST is RFC 8058's one-click body. */
export async function isOneClickBody(c: Context): Promise<boolean> {
  const form = await c.req.parseBody().catch(() => ({}));
  return 'List-Unsubscribe' in form && form['List-Unsubscribe'] === 'One-Click';
}

const changes = limitPerUser('favourites', tooQuickly('changes to your favourites'));

/**
 * A parent's favourites (mounted under /api/favourites; docs/product.md, "Favourites and alerts"):
 * the list with each item's state, the count the navigation's badge shows, saving and removing
 * (both idempotent), and the alert switches (safety alerts, price drops) with their one-click stop.
 */
export const favouriteRoutes = new Hono<AppEnv>()
  .get('/', requireUser, async (c) => {
    const { db } = c.get('deps');
    c.header('Cache-Control', 'no-store');
    return c.json<FavouriteList<Item>>({ items: await listFavourites(db, c.get('user').uid) });
  })
  .get('/count', requireUser, async (c) => {
    const { db } = c.get('deps');
    c.header('Cache-Control', 'no-store');
    return c.json<FavouriteCount>({ count: await countFavourites(db, c.get('user').uid) });
  })
  .get('/alerts', requireUser, async (c) => {
    const { db } = c.get('deps');
    return c.json<AlertSettings>(await getAlertSettings(db, c.get('user').uid));
  })
  .put(
    '/alerts',
    requireUser,
    limitPerUser('alert-settings', tooQuickly('changes')),
    validate('json', alertSettingsBody),
    async (c) => {
      const { db, now, mail, deliveries } = c.get('deps');
      const body = c.req.valid('json');
      const user = c.get('user');
      const settings = await setAlertSettings(db, user.uid, body, now());
      // Price drops, like search alerts, go only to a confirmed address: turning them on asks for it.
      if (body.priceDrops) {
        const queued = await db.transaction().execute((trx) =>
          askToConfirmAlerts(
            trx,
            {
              uid: user.uid,
              name: c.get('profile').display_name,
              email: user.email ?? '',
              verified: user.emailVerified === true,
            },
            mail,
            now(),
          ),
        );
        if (queued) deliveries?.poke();
      }
      c.set('changed', []);
      return c.json<AlertSettings>(settings);
    },
  )
  // A mail client's one-click unsubscribe (RFC 8058; api/app.ts lets its form body through): the
  // unguessable token in the address is the authority.
  .post(
    '/alerts/one-click',
    limitPerAddress('email-link', tooQuickly('attempts')),
    validate('query', oneClickQuery),
    async (c) => {
      if (!(await isOneClickBody(c)))
        return c.json({ error: 'The body must be List-Unsubscribe=One-Click' }, 400);
      const { db, now } = c.get('deps');
      const { token, alert } = c.req.valid('query');
      c.set('changed', []);
      if (!(await turnOffByToken(db, token, alert, now()))) {
        return c.json({ error: 'This link is no longer valid: these emails are already stopped.' }, 404);
      }
      return c.json({ stopped: alert });
    },
  )
  .put('/:itemId', validate('param', itemIdParam), requireUser, changes, async (c) => {
    const { db, now } = c.get('deps');
    const count = await saveFavourite(db, c.get('user').uid, c.req.valid('param').itemId, now());
    c.set('changed', []);
    return c.json<FavouriteCount>({ count });
  })
  .delete('/:itemId', validate('param', itemIdParam), requireUser, changes, async (c) => {
    const { db } = c.get('deps');
    const count = await removeFavourite(db, c.get('user').uid, c.req.valid('param').itemId);
    c.set('changed', []);
    return c.json<FavouriteCount>({ count });
  });
