import { Hono } from 'hono';
import { FEATURED_ITEMS_DEFAULT } from '../contract.ts';
import { countItemsByCategory, listFeaturedItems, listItems } from '../db/queries/items.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import { limitQuery } from './schemas.ts';

export const itemsRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await listItems(c.get('deps').db, c.get('release'))))
  .get('/featured', validate('query', limitQuery(FEATURED_ITEMS_DEFAULT)), async (c) =>
    c.json(await listFeaturedItems(c.get('deps').db, c.get('release'), c.req.valid('query').limit)),
  )
  .get('/categories', async (c) => c.json(await countItemsByCategory(c.get('deps').db, c.get('release'))));
