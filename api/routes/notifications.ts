import { type Context, Hono } from 'hono';
import type { EmailConfirmed, ThreadNotifications, Unsubscribed, UnsubscribeScope } from '../contract.ts';
import {
  confirmEmail,
  setThreadNotifications,
  threadNotifications,
  unsubscribe,
} from '../db/queries/notifications.ts';
import { findLivePost } from '../db/queries/posts.ts';
import { refuseSuspended, requireUser } from '../middleware/auth.ts';
import { limitPerAddress, limitPerUser, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import {
  confirmEmailBody,
  oneClickQuery,
  postIdParam,
  threadNotificationsBody,
  unsubscribeBody,
} from './schemas.ts';

const STOPPED = {
  error: 'This link is no longer valid: these emails are already stopped.',
} as const;

/** Follows an unsubscribe link, from the page or a mail program: what stopped, or a 404. */
async function stop(c: Context<AppEnv>, token: string, scope: UnsubscribeScope) {
  const { db, now } = c.get('deps');
  const done = await unsubscribe(db, token, scope, now());
  c.set('changed', []);
  return done ? c.json<Unsubscribed>(done) : c.json(STOPPED, 404);
}

/**
 * Reply emails (mounted under /api/notifications; docs/product.md, "Email"): following a thread
 * from the comment box, the confirmation link, and unsubscribe links that work without signing in,
 * including mail clients' one-click POST (RFC 8058).
 */
export const notificationRoutes = new Hono<AppEnv>()
  .get('/threads/:postId', validate('param', postIdParam), requireUser, async (c) => {
    const { db } = c.get('deps');
    return c.json<ThreadNotifications>(
      await threadNotifications(db, c.get('user').uid, c.req.valid('param').postId),
    );
  })
  .put(
    '/threads/:postId',
    validate('param', postIdParam),
    requireUser,
    refuseSuspended,
    limitPerUser('notifications', tooQuickly('changes')),
    validate('json', threadNotificationsBody),
    async (c) => {
      const { db, now, mail, deliveries } = c.get('deps');
      const post = await findLivePost(db, { postId: c.req.valid('param').postId }, c.get('release'));
      if (!post) return c.json({ error: 'Post not found' }, 404);
      const email = c.get('user').email || c.get('profile').email;
      if (!email) return c.json({ error: 'This account has no email address to send reply emails to.' }, 400);
      const { state, emailQueued } = await setThreadNotifications(
        db,
        {
          uid: c.get('user').uid,
          name: c.get('profile').display_name,
          email,
          postId: post.postId,
          subscribed: c.req.valid('json').subscribed,
        },
        mail,
        now(),
      );
      if (emailQueued) deliveries?.poke();
      c.set('changed', []);
      return c.json<ThreadNotifications>(state);
    },
  )
  .post(
    '/confirm',
    limitPerAddress('email-link', tooQuickly('attempts')),
    validate('json', confirmEmailBody),
    async (c) => {
      const { db, now } = c.get('deps');
      const confirmed = await confirmEmail(db, c.req.valid('json').token, now());
      c.set('changed', []);
      if (!confirmed) {
        return c.json(
          { error: 'This confirmation link is not valid: it may have been replaced by a newer one.' },
          404,
        );
      }
      return c.json<EmailConfirmed>(confirmed);
    },
  )
  .post(
    '/unsubscribe',
    limitPerAddress('email-link', tooQuickly('attempts')),
    validate('json', unsubscribeBody),
    (c) => stop(c, c.req.valid('json').token, c.req.valid('json').scope),
  )
  // The one write that takes a form body (api/app.ts lets it through): mail clients send
  // `List-Unsubscribe=One-Click`; the unguessable token in the address is the authority.
  .post(
    '/one-click',
    limitPerAddress('email-link', tooQuickly('attempts')),
    validate('query', oneClickQuery),
    async (c) => {
      const form = await c.req.parseBody().catch(() => ({}));
      if (!('List-Unsubscribe' in form) || form['List-Unsubscribe'] !== 'One-Click') {
        return c.json({ error: 'The body must be List-Unsubscribe=One-Click' }, 400);
      }
      return stop(c, c.req.valid('query').token, c.req.valid('query').scope);
    },
  );
