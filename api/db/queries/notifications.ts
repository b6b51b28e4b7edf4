import {
  type EmailConfirmed,
  REPLY_EMAIL_INTERVAL_MINUTES,
  type ThreadNotifications,
  type Unsubscribed,
  type UnsubscribeScope,
} from '../../contract.ts';
import { confirmRepliesEmail, EMAIL_PURPOSES, type MailSettings, replyEmail } from '../../lib/emails.ts';
import type { EmailMessage } from '../../lib/mail.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import type { DB } from '../database.ts';
import type { CommentRow, EmailSettingsRow } from '../schema.ts';
import { enqueueEmail } from './mail.ts';
import { activeSuspension } from './suspensions.ts';

// Reply emails (docs/product.md, "Email"): a parent follows a post's thread from the comment box,
// confirms their address once (double opt-in), and is then emailed when someone replies to their
// comment or in a conversation under it, at most once an hour per thread. Every email carries
// one-click links that stop that thread, or everything, without signing in.

/** A confirmation email is sent again for a new opt-in only after this long. */
const CONFIRM_RESEND_MS = 60 * 60_000;

async function findSettings(db: DB, uid: string): Promise<EmailSettingsRow | undefined> {
  return db.selectFrom('email_settings').selectAll().where('user_uid', '=', uid).executeTakeFirst();
}

/**
 * The double opt-in of every email a parent asks for (reply emails and alerts share one
 * email_settings row): an address not yet confirmed gets the confirmation link (again only after
 * an hour, or at once for a new address); one confirmed before whose parent stopped all email is
 * turned back on without a new confirmation. Returns whether a confirmation email was queued.
 */
export async function askToConfirmEmail(
  trx: DB,
  input: { uid: string; email: string },
  now: Date,
  confirmation: (token: string) => { purpose: string; message: EmailMessage },
): Promise<boolean> {
  const stamp = now.toISOString();
  const settings = await findSettings(trx, input.uid);
  const sameAddress = settings?.email === input.email;
  if (settings && sameAddress && settings.confirmed_at) {
    if (!settings.enabled) {
      await trx
        .updateTable('email_settings')
        .set({ enabled: 1, updated_at: stamp })
        .where('user_uid', '=', input.uid)
        .execute();
    }
    return false;
  }
  const lastSent = settings?.confirm_sent_at ? Date.parse(settings.confirm_sent_at) : 0;
  const resend = !settings || !sameAddress || now.getTime() - lastSent >= CONFIRM_RESEND_MS;
  const token = randomToken();
  const confirm = resend ? { confirm_token_hash: hashToken(token), confirm_sent_at: stamp } : {};
  if (settings) {
    await trx
      .updateTable('email_settings')
      .set({ email: input.email, confirmed_at: null, enabled: 1, updated_at: stamp, ...confirm })
      .where('user_uid', '=', input.uid)
      .execute();
  } else {
    await trx
      .insertInto('email_settings')
      .values({
        user_uid: input.uid,
        email: input.email,
        confirm_token_hash: hashToken(token),
        confirm_sent_at: stamp,
        confirmed_at: null,
        enabled: 1,
        unsubscribe_token: randomToken(),
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
  }
  if (!resend) return false;
  const { purpose, message } = confirmation(token);
  await enqueueEmail(trx, purpose, message, now);
  return true;
}

function stateOf(settings: EmailSettingsRow | undefined): ThreadNotifications['email'] {
  if (!settings || !settings.enabled) return 'none';
  return settings.confirmed_at ? 'confirmed' : 'pending';
}

/** Whether the parent follows this thread, and where their reply emails stand. */
export async function threadNotifications(db: DB, uid: string, postId: number): Promise<ThreadNotifications> {
  const settings = await findSettings(db, uid);
  const subscription = await db
    .selectFrom('reply_subscriptions')
    .select('subscription_id')
    .where('user_uid', '=', uid)
    .where('post_id', '=', postId)
    .executeTakeFirst();
  return {
    postId,
    subscribed: subscription !== undefined && stateOf(settings) !== 'none',
    email: stateOf(settings),
    address: settings?.email ?? null,
  };
}

/**
 * Follows or stops following a thread. The first opt-in of an address (or of a new address)
 * queues the confirmation email; nothing else goes to it until the link is followed. Returns the
 * new state and whether an email was queued.
 */
export async function setThreadNotifications(
  db: DB,
  input: { uid: string; name: string; email: string; postId: number; subscribed: boolean },
  mail: MailSettings,
  now: Date,
): Promise<{ state: ThreadNotifications; emailQueued: boolean }> {
  return db.transaction().execute(async (trx) => {
    const stamp = now.toISOString();
    if (!input.subscribed) {
      await trx
        .deleteFrom('reply_subscriptions')
        .where('user_uid', '=', input.uid)
        .where('post_id', '=', input.postId)
        .execute();
      return { state: await threadNotifications(trx, input.uid, input.postId), emailQueued: false };
    }
    await trx
      .insertInto('reply_subscriptions')
      .values({
        user_uid: input.uid,
        post_id: input.postId,
        token: randomToken(),
        last_notified_at: null,
        created_at: stamp,
      })
      .onConflict((oc) => oc.columns(['user_uid', 'post_id']).doNothing())
      .execute();
    const emailQueued = await askToConfirmEmail(trx, input, now, (token) => ({
      purpose: EMAIL_PURPOSES.confirmReplies,
      message: confirmRepliesEmail(mail, { to: input.email, name: input.name, token }),
    }));
    return { state: await threadNotifications(trx, input.uid, input.postId), emailQueued };
  });
}

/** Follows a confirmation link; null when the token matches no parent's settings. */
export async function confirmEmail(db: DB, token: string, now: Date): Promise<EmailConfirmed | null> {
  const settings = await db
    .selectFrom('email_settings')
    .selectAll()
    .where('confirm_token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!settings) return null;
  if (settings.confirmed_at) return { alreadyConfirmed: true };
  const stamp = now.toISOString();
  await db
    .updateTable('email_settings')
    .set({ confirmed_at: stamp, enabled: 1, updated_at: stamp })
    .where('user_uid', '=', settings.user_uid)
    .execute();
  return { alreadyConfirmed: false };
}

/**
 * Follows an unsubscribe link (or a mail client's one-click POST): `thread` stops that thread,
 * `all` every reply email. Null when the token matches nothing (already stopped, or never valid).
 */
export async function unsubscribe(
  db: DB,
  token: string,
  scope: UnsubscribeScope,
  now: Date,
): Promise<Unsubscribed | null> {
  return db.transaction().execute(async (trx) => {
    if (scope === 'thread') {
      const found = await trx
        .selectFrom('reply_subscriptions')
        .innerJoin('blog_posts', 'blog_posts.post_id', 'reply_subscriptions.post_id')
        .select(['reply_subscriptions.subscription_id', 'blog_posts.title'])
        .where('reply_subscriptions.token', '=', token)
        .executeTakeFirst();
      if (!found) return null;
      await trx
        .deleteFrom('reply_subscriptions')
        .where('subscription_id', '=', found.subscription_id)
        .execute();
      return { scope, postTitle: found.title };
    }
    const settings = await trx
      .selectFrom('email_settings')
      .select('user_uid')
      .where('unsubscribe_token', '=', token)
      .executeTakeFirst();
    if (!settings) return null;
    await trx
      .updateTable('email_settings')
      .set({ enabled: 0, updated_at: now.toISOString() })
      .where('user_uid', '=', settings.user_uid)
      .execute();
    await trx.deleteFrom('reply_subscriptions').where('user_uid', '=', settings.user_uid).execute();
    return { scope, postTitle: null };
  });
}

/**
 * Queues reply emails for a reply that has just been shown to everyone for the first time (never
 * for one that waits for review or is hidden). Who is emailed: the parents who wrote the comment
 * it answers or an earlier reply under it, follow the thread, have confirmed their address, are
 * not suspended and were not emailed about this thread in the last hour; never its own author.
 * Call it in the transaction that shows the reply; returns how many emails were queued.
 */
export async function queueReplyEmails(
  trx: DB,
  reply: CommentRow,
  mail: MailSettings | null,
  now: Date,
): Promise<number> {
  if (!mail || reply.parent_comment_id === null || reply.author_uid === null || reply.status !== 'visible') {
    return 0;
  }
  const parentId = reply.parent_comment_id;
  const conversation = await trx
    .selectFrom('comments')
    .select(['author_uid', 'comment_id'])
    .where((eb) => eb.or([eb('comment_id', '=', parentId), eb('parent_comment_id', '=', parentId)]))
    .where('comment_id', '<>', reply.comment_id)
    .where('status', '<>', 'deleted')
    .where('author_uid', 'is not', null)
    .where('author_uid', '<>', reply.author_uid)
    .execute();
  const parentAuthor = conversation.find((c) => c.comment_id === parentId)?.author_uid ?? null;
  const people = [...new Set(conversation.map((c) => c.author_uid!))];
  if (people.length === 0) return 0;
  const quietSince = new Date(now.getTime() - REPLY_EMAIL_INTERVAL_MINUTES * 60_000).toISOString();
  const followers = await trx
    .selectFrom('reply_subscriptions')
    .innerJoin('email_settings', 'email_settings.user_uid', 'reply_subscriptions.user_uid')
    .innerJoin('users_profile', 'users_profile.firebase_uid', 'reply_subscriptions.user_uid')
    .select([
      'reply_subscriptions.subscription_id',
      'reply_subscriptions.user_uid',
      'reply_subscriptions.token',
      'email_settings.email',
      'email_settings.unsubscribe_token',
      'users_profile.display_name',
    ])
    .where('reply_subscriptions.post_id', '=', reply.post_id)
    .where('reply_subscriptions.user_uid', 'in', people)
    .where('email_settings.confirmed_at', 'is not', null)
    .where('email_settings.enabled', '=', 1)
    .where((eb) =>
      eb.or([
        eb('reply_subscriptions.last_notified_at', 'is', null),
        eb('reply_subscriptions.last_notified_at', '<=', quietSince),
      ]),
    )
    .execute();
  if (followers.length === 0) return 0;
  const post = await trx
    .selectFrom('blog_posts')
    .select(['title', 'slug'])
    .where('post_id', '=', reply.post_id)
    .executeTakeFirstOrThrow();
  let queued = 0;
  for (const follower of followers) {
    if (await activeSuspension(trx, follower.user_uid, now)) continue;
    await enqueueEmail(
      trx,
      EMAIL_PURPOSES.reply,
      replyEmail(mail, {
        to: follower.email,
        name: follower.display_name,
        post,
        reply: { id: reply.comment_id, authorName: reply.author_name, content: reply.content },
        toTheirComment: follower.user_uid === parentAuthor,
        threadToken: follower.token,
        allToken: follower.unsubscribe_token,
      }),
      now,
    );
    await trx
      .updateTable('reply_subscriptions')
      .set({ last_notified_at: now.toISOString() })
      .where('subscription_id', '=', follower.subscription_id)
      .execute();
    queued += 1;
  }
  return queued;
}

/** Account erasure: the parent's email settings and followed threads go. Returns their address. */
export async function forgetNotifications(trx: DB, uid: string): Promise<string | null> {
  await trx.deleteFrom('reply_subscriptions').where('user_uid', '=', uid).execute();
  const row = await trx
    .deleteFrom('email_settings')
    .where('user_uid', '=', uid)
    .returning('email')
    .executeTakeFirst();
  return row?.email ?? null;
}
