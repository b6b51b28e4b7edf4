import { Hono } from 'hono';
import { z } from 'zod';
import { LINK_TOKEN_PATTERN } from '../contract.ts';
import {
  SAVED_SEARCH_AGE_GROUP_MAX,
  SAVED_SEARCH_FREQUENCIES,
  SAVED_SEARCH_PRICE_MAX,
  SAVED_SEARCH_WORDS_MAX,
  type SavedSearch,
  type SavedSearchList,
} from '../contract/favourites.ts';
import { alertEmailState, askToConfirmAlerts } from '../db/queries/alerts.ts';
import {
  createSavedSearch,
  deleteSavedSearch,
  findSavedSearch,
  listSavedSearches,
  normaliseWords,
  pauseSearchByToken,
  type SearchFields,
  updateSavedSearch,
} from '../db/queries/saved-searches.ts';
import { requireUser } from '../middleware/auth.ts';
import { limitPerAddress, limitPerUser, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import { isOneClickBody } from './favourites.ts';

const text = (max: number, what: string) =>
  z
    .string({ error: `must be ${what} or null` })
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullable()
    .optional();

const fields = {
  category: z
    .string({ error: 'must be a category key or null' })
    .trim()
    .min(1, 'must be a category key or null')
    .max(50, 'must be at most 50 characters')
    .nullable()
    .optional(),
  ageGroup: text(SAVED_SEARCH_AGE_GROUP_MAX, 'an age group'),
  maxPrice: z
    .number({ error: `must be a number of dollars from 0.01 to ${SAVED_SEARCH_PRICE_MAX}, or null` })
    .min(0.01, `must be a number of dollars from 0.01 to ${SAVED_SEARCH_PRICE_MAX}`)
    .max(SAVED_SEARCH_PRICE_MAX, `must be a number of dollars from 0.01 to ${SAVED_SEARCH_PRICE_MAX}`)
    .nullable()
    .optional(),
  words: text(SAVED_SEARCH_WORDS_MAX, 'words to look for'),
  frequency: z.enum(SAVED_SEARCH_FREQUENCIES, { error: 'must be instant or daily' }),
};

const newSearchBody = z.object(fields).strict();
const patchSearchBody = z
  .object({
    ...fields,
    frequency: fields.frequency.optional(),
    paused: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict();

const searchIdParam = z.object({
  searchId: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'must be a saved search id')
    .transform(Number),
});

const oneClickQuery = z.object({
  token: z
    .string({ error: 'must be the token from the link' })
    .regex(LINK_TOKEN_PATTERN, 'must be the token from the link (64 hexadecimal characters)'),
});

/** The body's fields as the queries take them: empty text is no filter, a price in cents. */
function toFields(body: z.output<typeof patchSearchBody>): Partial<SearchFields> {
  const blank = (value: string | null | undefined) => (value === undefined ? undefined : value || null);
  return {
    ...(body.category !== undefined && { category: blank(body.category) ?? null }),
    ...(body.ageGroup !== undefined && { ageGroup: blank(body.ageGroup) ?? null }),
    ...(body.maxPrice !== undefined && {
      maxPriceCents: body.maxPrice === null ? null : Math.round(body.maxPrice * 100),
    }),
    ...(body.words !== undefined && { words: normaliseWords(body.words) }),
    ...(body.frequency !== undefined && { frequency: body.frequency }),
  };
}

const changes = limitPerUser('saved-searches', tooQuickly('changes to your saved searches'));

/**
 * Saved searches (mounted under /api/saved-searches; docs/product.md, "Favourites and alerts"):
 * "Tell me about new items like these", listed on /favourites with their last match, paused,
 * changed or deleted there, and stopped in one click from their emails.
 */
export const savedSearchRoutes = new Hono<AppEnv>()
  .get('/', requireUser, async (c) => {
    const { db } = c.get('deps');
    const uid = c.get('user').uid;
    c.header('Cache-Control', 'no-store');
    return c.json<SavedSearchList>({
      searches: await listSavedSearches(db, uid, await alertEmailState(db, uid)),
    });
  })
  .post('/', requireUser, changes, validate('json', newSearchBody), async (c) => {
    const { db, now, mail, deliveries } = c.get('deps');
    const user = c.get('user');
    const input = toFields(c.req.valid('json'));
    const searchId = await createSavedSearch(
      db,
      user.uid,
      {
        category: input.category ?? null,
        ageGroup: input.ageGroup ?? null,
        maxPriceCents: input.maxPriceCents ?? null,
        words: input.words ?? null,
        frequency: input.frequency ?? 'instant',
      },
      now(),
    );
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
    c.set('changed', []);
    return c.json<SavedSearch>(
      await findSavedSearch(db, user.uid, searchId, await alertEmailState(db, user.uid)),
      201,
    );
  })
  // A mail client's one-click unsubscribe (RFC 8058; api/app.ts lets its form body through):
  // pauses the search whose token the address carries.
  .post(
    '/one-click',
    limitPerAddress('email-link', tooQuickly('attempts')),
    validate('query', oneClickQuery),
    async (c) => {
      if (!(await isOneClickBody(c)))
        return c.json({ error: 'The body must be List-Unsubscribe=One-Click' }, 400);
      const { db, now } = c.get('deps');
      c.set('changed', []);
      if (!(await pauseSearchByToken(db, c.req.valid('query').token, now()))) {
        return c.json({ error: 'This link is no longer valid: the search was deleted.' }, 404);
      }
      return c.json({ paused: true });
    },
  )
  .patch(
    '/:searchId',
    validate('param', searchIdParam),
    requireUser,
    changes,
    validate('json', patchSearchBody),
    async (c) => {
      const { db, now } = c.get('deps');
      const uid = c.get('user').uid;
      const { searchId } = c.req.valid('param');
      const body = c.req.valid('json');
      await updateSavedSearch(db, uid, searchId, { ...toFields(body), paused: body.paused }, now());
      c.set('changed', []);
      return c.json<SavedSearch>(await findSavedSearch(db, uid, searchId, await alertEmailState(db, uid)));
    },
  )
  .delete('/:searchId', validate('param', searchIdParam), requireUser, changes, async (c) => {
    const { db } = c.get('deps');
    const { searchId } = c.req.valid('param');
    await deleteSavedSearch(db, c.get('user').uid, searchId);
    c.set('changed', []);
    return c.json({ searchId, deleted: true as const });
  });
