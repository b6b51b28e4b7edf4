// Reply emails (api/db/queries/notifications.ts, api/routes/notifications.ts) through the real app,
// the Auth emulator and a real SMTP server in this process: double opt-in, what a notification
// says and links to, at most one per thread an hour, none for the parent's own replies, replies
// waiting for review or suspended parents, and unsubscribe links (thread, all, and a mail client's
// one-click POST) that work without signing in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CommentPosted,
  EmailConfirmed,
  PostSummary,
  ThreadNotifications,
  Unsubscribed,
} from '../../api/contract.ts';
import type { DB } from '../../api/db/database.ts';
import { createMailApp } from '../helpers/mail-app.ts';
import { call, createCommunityApp, expectJson, newParent, type Parent } from '../helpers/parents.ts';
import { linksIn, type ReceivedMail, type TestSmtpServer } from '../helpers/smtp.ts';
import { TEST_NOW } from '../helpers/test-db.ts';

type App = Awaited<ReturnType<typeof createCommunityApp>>['app'];

let app: App;
let db: DB;
let mailApp: Awaited<ReturnType<typeof createMailApp>>;
let smtp: TestSmtpServer;
let now = new Date(TEST_NOW);
let ann: Parent;
let ben: Parent;
let cat: Parent;
let mod: Parent;
let post: PostSummary;
let annComment: number;

beforeAll(async () => {
  mailApp = await createMailApp({ now: () => now });
  ({ app, db, smtp } = mailApp);
  ann = await newParent(app, db, 'Ann Author');
  ben = await newParent(app, db, 'Ben Replier');
  cat = await newParent(app, db, 'Cat Chatter');
  mod = await newParent(app, db, 'Mo Moderator', 'moderator');
  post = (await expectJson<PostSummary[]>(app.request('/api/blog/posts'), 200))[0]!;
  annComment = await comment(ann, 'Where do you buy second-hand car seats?');
});

afterAll(async () => {
  await mailApp?.stop();
});

async function comment(who: Parent, content: string, parentCommentId: number | null = null): Promise<number> {
  const posted = await expectJson<CommentPosted>(
    call(app, 'POST', `/api/blog/posts/${post.postId}/comments`, {
      token: who.token,
      body: { content, parentCommentId },
    }),
    201,
  );
  return posted.comment.comment_id;
}

const follow = (who: Parent, subscribed: boolean, postId = post.postId) =>
  call(app, 'PUT', `/api/notifications/threads/${postId}`, { token: who.token, body: { subscribed } });

/** Every email of this purpose queued so far (sent or not) to a parent. */
async function queued(who: Parent, purpose = 'reply_notification'): Promise<number> {
  const rows = await db
    .selectFrom('deliveries')
    .select('target')
    .where('purpose', '=', purpose)
    .where('target', '=', who.email)
    .execute();
  return rows.length;
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const laterBy = (minutes: number) => (now = new Date(now.getTime() + minutes * 60_000));

describe('following a thread', () => {
  it('needs a signed-in parent, a live post and a yes or no', async () => {
    expect((await call(app, 'GET', `/api/notifications/threads/${post.postId}`)).status).toBe(401);
    expect((await follow(ann, true, 999_999)).status).toBe(404);
    const bad = await call(app, 'PUT', `/api/notifications/threads/${post.postId}`, {
      token: ann.token,
      body: { subscribed: 'yes' },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'subscribed: must be true or false' });
    expect(
      await expectJson<ThreadNotifications>(
        call(app, 'GET', `/api/notifications/threads/${post.postId}`, { token: ann.token }),
        200,
      ),
    ).toEqual({ postId: post.postId, subscribed: false, email: 'none', address: null });
  });

  it('asks the address to be confirmed first, and sends nothing else until it is', async () => {
    expect(await expectJson<ThreadNotifications>(follow(ann, true), 200)).toEqual({
      postId: post.postId,
      subscribed: true,
      email: 'pending',
      address: ann.email,
    });
    const confirmation = await smtp.message(ann.email, 'Confirm reply emails from Nestling');
    expect(confirmation.text).toContain('Hi Ann Author,');
    const [link] = linksIn(confirmation);
    expect(link).toMatch(/^http:\/\/nestling\.test\/email\/confirm\?token=[0-9a-f]{64}$/);
    // Ticking the box again a minute later does not send a second confirmation.
    laterBy(1);
    await expectJson(follow(ann, true), 200);

    await comment(ben, 'Ask at the hospital: they check them.', annComment);
    expect(await queued(ann)).toBe(0);

    expect(
      await expectJson<EmailConfirmed>(
        call(app, 'POST', '/api/notifications/confirm', { body: { token: tokenOf(link!) } }),
        200,
      ),
    ).toEqual({ alreadyConfirmed: false });
    expect(
      await expectJson<EmailConfirmed>(
        call(app, 'POST', '/api/notifications/confirm', { body: { token: tokenOf(link!) } }),
        200,
      ),
    ).toEqual({ alreadyConfirmed: true });
    expect(await queued(ann, 'reply_emails_confirm')).toBe(1);
  });

  it('refuses confirmation tokens that are malformed or unknown', async () => {
    const malformed = await call(app, 'POST', '/api/notifications/confirm', { body: { token: 'abc' } });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({
      error: 'token: must be the token from the link (64 hexadecimal characters)',
    });
    const unknown = await call(app, 'POST', '/api/notifications/confirm', {
      body: { token: 'a'.repeat(64) },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('a reply email', () => {
  let mail: ReceivedMail;
  let replyId: number;

  beforeAll(async () => {
    laterBy(61);
    replyId = await comment(ben, 'I found ours through the local parents group.', annComment);
    mail = await smtp.message(ann.email, `Ben Replier replied to your comment on "${post.title}"`);
  });

  it('names the post and the reply and links to the reply', () => {
    expect(mail.text).toContain('Hi Ann Author,');
    expect(mail.text).toContain('> I found ours through the local parents group.');
    expect(mail.text).toContain(
      `Read it and reply: http://nestling.test/blog/${post.slug}#comment-${replyId}`,
    );
  });

  it('carries one-click unsubscribe links for the thread and for everything, and the List-Unsubscribe headers', () => {
    const links = linksIn(mail);
    const thread = links.find((l) => l.includes('scope=thread'))!;
    const all = links.find((l) => l.includes('/email/unsubscribe') && l.includes('scope=all'))!;
    expect(thread).toMatch(/^http:\/\/nestling\.test\/email\/unsubscribe\?token=[0-9a-f]{64}&scope=thread$/);
    expect(all).toMatch(/^http:\/\/nestling\.test\/email\/unsubscribe\?token=[0-9a-f]{64}&scope=all$/);
    expect(mail.header('List-Unsubscribe')).toBe(
      `<http://nestling.test/api/notifications/one-click?token=${tokenOf(all)}&scope=all>`,
    );
    expect(mail.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  it('is sent at most once an hour per thread', async () => {
    const sent = await queued(ann);
    laterBy(30);
    await comment(cat, 'Same here!', annComment);
    expect(await queued(ann)).toBe(sent);
    laterBy(31);
    await comment(cat, 'And the library has a swap shelf.', annComment);
    expect(await queued(ann)).toBe(sent + 1);
    await smtp.message(ann.email, `Cat Chatter replied to your comment on "${post.title}"`);
  });

  it("is never sent for the parent's own reply", async () => {
    laterBy(61);
    const sent = await queued(ann);
    await comment(ann, 'Thanks all!', annComment);
    expect(await queued(ann)).toBe(sent);
  });

  it('goes to others in the conversation who follow the thread, not only the comment author', async () => {
    await expectJson(follow(cat, true), 200);
    const confirm = await smtp.message(cat.email, 'Confirm reply emails from Nestling');
    await expectJson(
      call(app, 'POST', '/api/notifications/confirm', { body: { token: tokenOf(linksIn(confirm)[0]!) } }),
      200,
    );
    laterBy(61);
    await comment(ben, 'One more tip: check the expiry date.', annComment);
    const toCat = await smtp.message(cat.email, `Ben Replier replied in "${post.title}"`);
    expect(toCat.text).toContain('replied in a conversation you are part of');
  });
});

describe('what is never emailed', () => {
  it('a reply that waits for review, until a moderator approves it', async () => {
    laterBy(61);
    const sent = await queued(ann);
    // More than two links always waits for review.
    const waiting = await comment(
      ben,
      'See http://a.example and http://b.example and http://c.example',
      annComment,
    );
    expect(await queued(ann)).toBe(sent);
    await expectJson(
      call(app, 'POST', `/api/moderation/comments/${waiting}/review`, {
        token: mod.token,
        body: { action: 'approve', reason: null },
      }),
      200,
    );
    expect(await queued(ann)).toBe(sent + 1);
  });

  it('anything to a suspended parent', async () => {
    await expectJson(
      call(app, 'POST', `/api/moderation/users/${ann.uid}/suspend`, {
        token: mod.token,
        body: { days: 1, reason: 'Cooling off' },
      }),
      201,
    );
    laterBy(61);
    const sent = await queued(ann);
    await comment(ben, 'Are you there?', annComment);
    expect(await queued(ann)).toBe(sent);
    await expectJson(
      call(app, 'POST', `/api/moderation/users/${ann.uid}/lift`, {
        token: mod.token,
        body: { reason: 'Over' },
      }),
      200,
    );
  });
});

describe('unsubscribing', () => {
  let threadLink: string;
  let allLink: string;

  beforeAll(async () => {
    // Every email to Ann carries the same two tokens: the thread's and her own.
    const mail = await smtp.message(ann.email, /replied/);
    threadLink = linksIn(mail).find((l) => l.includes('scope=thread'))!;
    allLink = linksIn(mail).find((l) => l.includes('/email/unsubscribe') && l.includes('scope=all'))!;
  });

  it('stops one thread from its link, without signing in', async () => {
    const body = { token: tokenOf(threadLink), scope: 'thread' };
    expect(
      await expectJson<Unsubscribed>(call(app, 'POST', '/api/notifications/unsubscribe', { body }), 200),
    ).toEqual({
      scope: 'thread',
      postTitle: post.title,
    });
    expect(
      await expectJson<ThreadNotifications>(
        call(app, 'GET', `/api/notifications/threads/${post.postId}`, { token: ann.token }),
        200,
      ),
    ).toMatchObject({ subscribed: false, email: 'confirmed' });
    laterBy(61);
    const sent = await queued(ann);
    await comment(ben, 'Still there?', annComment);
    expect(await queued(ann)).toBe(sent);
    const again = await call(app, 'POST', '/api/notifications/unsubscribe', { body });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({
      error: 'This link is no longer valid: these emails are already stopped.',
    });
  });

  it("stops everything through the mail client's one-click POST, which needs the form body", async () => {
    const url = `/api/notifications/one-click?token=${tokenOf(allLink)}&scope=all`;
    const json = await app.request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({ error: 'The body must be List-Unsubscribe=One-Click' });
    const res = await app.request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ scope: 'all', postTitle: null });
    // Following Ann's thread again needs no new confirmation, and it is then on.
    expect(
      await expectJson<ThreadNotifications>(
        call(app, 'GET', `/api/notifications/threads/${post.postId}`, { token: ann.token }),
        200,
      ),
    ).toMatchObject({ subscribed: false, email: 'none' });
    const confirmations = await queued(ann, 'reply_emails_confirm');
    expect(await expectJson<ThreadNotifications>(follow(ann, true), 200)).toMatchObject({
      subscribed: true,
      email: 'confirmed',
    });
    expect(await queued(ann, 'reply_emails_confirm')).toBe(confirmations);
  });

  it('takes no form body anywhere else', async () => {
    const res = await app.request('/api/notifications/unsubscribe', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `token=${tokenOf(threadLink)}&scope=thread`,
    });
    expect(res.status).toBe(415);
  });
});
