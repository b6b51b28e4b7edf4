// "Download my data" and "Delete my account" (api/routes/account.ts, api/db/queries/account.ts)
// through the real app, against the Auth emulator and a real SMTP server in this process. A parent
// who has commented, replied, liked, reported, moderated, been suspended and asked for reply emails
// exports everything, then erases their account: afterwards no table holds their uid, address or
// name, only anonymous reports, placeholders and the evidence the safety rules keep, and the counts
// are what the remaining rows say.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {
  AccountErased,
  AccountExport,
  AuditEntry,
  Comment,
  CommentPosted,
  PostSummary,
  ReportFiled,
} from '../../api/contract.ts';
import { ERASED_ACCOUNT_NAME } from '../../api/contract.ts';
import type { DB } from '../../api/db/database.ts';
import type { DeliveryWorker } from '../../api/lib/deliveries.ts';
import { FORGOTTEN_RECIPIENT } from '../../api/lib/mail.ts';
import { emulatorCall } from '../../scripts/lib/emulator-accounts.ts';
import { createMailApp } from '../helpers/mail-app.ts';
import {
  call,
  createCommunityApp,
  emulatorAccounts,
  expectJson,
  newParent,
  type Parent,
} from '../helpers/parents.ts';
import { linksIn, type TestSmtpServer } from '../helpers/smtp.ts';
import { TEST_NOW } from '../helpers/test-db.ts';

type App = Awaited<ReturnType<typeof createCommunityApp>>['app'];

let app: App;
let db: DB;
let mailApp: Awaited<ReturnType<typeof createMailApp>>;
let smtp: TestSmtpServer;
let worker: DeliveryWorker;
let pia: Parent;
let quinn: Parent;
let rob: Parent;
let ada: Parent;
let post1: PostSummary;
let post2: PostSummary;
const ids: Record<string, number> = {};
let exported: AccountExport;
let disposition: string | null;

const post = async (who: Parent, postId: number, content: string, parentCommentId: number | null = null) =>
  (
    await expectJson<CommentPosted>(
      call(app, 'POST', `/api/blog/posts/${postId}/comments`, {
        token: who.token,
        body: { content, parentCommentId },
      }),
      201,
    )
  ).comment.comment_id;

const report = (who: Parent, commentId: number, category: string) =>
  expectJson<ReportFiled>(
    call(app, 'POST', `/api/blog/comments/${commentId}/reports`, {
      token: who.token,
      body: { category, note: 'Please look at this' },
    }),
    201,
  );

const comment = (commentId: number) =>
  db.selectFrom('comments').selectAll().where('comment_id', '=', commentId).executeTakeFirst();

beforeAll(async () => {
  mailApp = await createMailApp();
  ({ app, db, smtp, worker } = mailApp);

  pia = await newParent(app, db, `Pia Moderator ${crypto.randomUUID().slice(0, 6)}`, 'moderator');
  quinn = await newParent(app, db, 'Quinn Parent');
  rob = await newParent(app, db, 'Rob Parent');
  ada = await newParent(app, db, 'Ada Admin', 'admin');
  const posts = await expectJson<PostSummary[]>(app.request('/api/blog/posts'), 200);
  post1 = posts[0]!;
  post2 = posts[1]!;

  // Someone filed the deletion form with Pia's address earlier: her erasure closes it too.
  await expectJson(
    call(app, 'POST', '/api/account/deletion-requests', {
      body: { email: pia.email.toUpperCase(), reason: null, additionalInfo: 'Pia here', confirmed: true },
    }),
    201,
  );

  // Pia follows post 1's thread and confirms her address from the email.
  await expectJson(
    call(app, 'PUT', `/api/notifications/threads/${post1.postId}`, {
      token: pia.token,
      body: { subscribed: true },
    }),
    200,
  );
  const confirmation = await smtp.message(pia.email, 'Confirm reply emails from Nestling');
  const token = new URL(linksIn(confirmation)[0]!).searchParams.get('token');
  await expectJson(call(app, 'POST', '/api/notifications/confirm', { body: { token } }), 200);

  ids.withReplies = await post(pia, post1.postId, 'My comment that Quinn answers');
  ids.alone = await post(pia, post1.postId, 'My comment nobody answers');
  ids.quinnTop = await post(quinn, post2.postId, "Quinn's own comment");
  ids.piaReply = await post(pia, post2.postId, "Pia's reply to Quinn", ids.quinnTop);
  ids.evidence = await post(pia, post2.postId, 'Words a parent reports for child safety');
  ids.robTop = await post(rob, post2.postId, "Rob's comment");
  // Quinn answers Pia: Pia, who follows the thread, is emailed.
  ids.quinnReply = await post(quinn, post1.postId, 'Quinn answers Pia', ids.withReplies);
  await smtp.message(pia.email, /^Quinn Parent replied to your comment/);

  await expectJson(call(app, 'POST', `/api/blog/posts/${post1.slug}/like`, { token: pia.token }), 200);
  await expectJson(call(app, 'POST', `/api/blog/comments/${ids.quinnTop}/like`, { token: pia.token }), 200);
  await expectJson(
    call(app, 'POST', `/api/blog/comments/${ids.withReplies}/like`, { token: quinn.token }),
    200,
  );
  ids.piaReport = (await report(pia, ids.robTop, 'inappropriate_content')).reportId;
  ids.quinnReport = (await report(quinn, ids.evidence, 'child_safety')).reportId;
  // Pia, a moderator, suspends Rob; Ada, an admin, suspends Pia and lifts it.
  await expectJson(
    call(app, 'POST', `/api/moderation/users/${rob.uid}/suspend`, {
      token: pia.token,
      body: { days: 3, reason: 'Spam links' },
    }),
    201,
  );
  await expectJson(
    call(app, 'POST', `/api/moderation/users/${pia.uid}/suspend`, {
      token: ada.token,
      body: { days: 1, reason: 'A test of suspending a moderator' },
    }),
    201,
  );
  await expectJson(
    call(app, 'POST', `/api/moderation/users/${pia.uid}/lift`, {
      token: ada.token,
      body: { reason: 'Done' },
    }),
    200,
  );

  const res = await call(app, 'GET', '/api/account/export', { token: pia.token });
  disposition = res.headers.get('Content-Disposition');
  exported = await expectJson<AccountExport>(res, 200);
});

afterAll(async () => {
  await mailApp?.stop();
});

const at = (slug: string, commentId: number) => `http://nestling.test/blog/${slug}#comment-${commentId}`;

describe('Download my data', () => {
  it('needs a signed-in parent', async () => {
    expect((await call(app, 'GET', '/api/account/export')).status).toBe(401);
  });

  it('is one JSON file to save, named for the day', () => {
    expect(disposition).toBe('attachment; filename="nestling-data-2026-11-22.json"');
    expect(exported.exportedAt).toBe(TEST_NOW.toISOString());
    expect(exported.site).toBe('http://nestling.test');
  });

  it('holds the profile, every comment and reply with its absolute link, and the likes', () => {
    expect(exported.profile).toMatchObject({ firebase_uid: pia.uid, email: pia.email, role: 'moderator' });
    expect(exported.comments.map((c) => [c.commentId, c.parentCommentId, c.url, c.content])).toEqual([
      [ids.withReplies, null, at(post1.slug, ids.withReplies!), 'My comment that Quinn answers'],
      [ids.alone, null, at(post1.slug, ids.alone!), 'My comment nobody answers'],
      [ids.piaReply, ids.quinnTop, at(post2.slug, ids.piaReply!), "Pia's reply to Quinn"],
      [ids.evidence, null, at(post2.slug, ids.evidence!), 'Words a parent reports for child safety'],
    ]);
    expect(exported.comments[0]).toMatchObject({ status: 'visible', likeCount: 1, postTitle: post1.title });
    expect(exported.comments[3]!.status).toBe('held');
    expect(exported.likes.posts).toEqual([
      {
        postTitle: post1.title,
        url: `http://nestling.test/blog/${post1.slug}`,
        commentId: null,
        likedAt: TEST_NOW.toISOString(),
      },
    ]);
    expect(exported.likes.comments).toEqual([
      {
        postTitle: post2.title,
        url: at(post2.slug, ids.quinnTop!),
        commentId: ids.quinnTop,
        likedAt: TEST_NOW.toISOString(),
      },
    ]);
  });

  it('holds the reports filed, the suspensions and the email settings', () => {
    expect(exported.reports).toEqual([
      {
        reportId: ids.piaReport,
        commentId: ids.robTop,
        url: at(post2.slug, ids.robTop!),
        category: 'inappropriate_content',
        note: 'Please look at this',
        status: 'open',
        createdAt: TEST_NOW.toISOString(),
        resolution: null,
        resolvedAt: null,
      },
    ]);
    expect(exported.suspensions).toEqual([
      {
        reason: 'A test of suspending a moderator',
        from: TEST_NOW.toISOString(),
        until: new Date(TEST_NOW.getTime() + 86_400_000).toISOString(),
        liftedAt: TEST_NOW.toISOString(),
      },
    ]);
    expect(exported.notifications).toEqual({
      email: pia.email,
      confirmedAt: TEST_NOW.toISOString(),
      enabled: true,
      threads: [
        {
          postTitle: post1.title,
          url: `http://nestling.test/blog/${post1.slug}`,
          since: TEST_NOW.toISOString(),
          lastEmailAt: TEST_NOW.toISOString(),
        },
      ],
    });
  });
});

describe('Delete my account', () => {
  let before: { post1Likes: number; quinnTopLikes: number; quinnTopReplies: number };
  let erased: AccountErased;

  beforeAll(async () => {
    const count = async (id: number) => (await comment(id))!;
    before = {
      post1Likes: (
        await db
          .selectFrom('blog_posts')
          .select('like_count')
          .where('post_id', '=', post1.postId)
          .executeTakeFirstOrThrow()
      ).like_count,
      quinnTopLikes: (await count(ids.quinnTop!)).like_count,
      quinnTopReplies: (await count(ids.quinnTop!)).reply_count,
    };
    const mismatch = await call(app, 'DELETE', '/api/account', {
      token: pia.token,
      body: { confirmEmail: 'someone.else@example.com' },
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toEqual({
      error: "confirmEmail: that is not this account's email address. Type it exactly to confirm.",
    });
    expect(
      await db
        .selectFrom('users_profile')
        .select('firebase_uid')
        .where('firebase_uid', '=', pia.uid)
        .executeTakeFirst(),
    ).toBeDefined();
    erased = await expectJson<AccountErased>(
      call(app, 'DELETE', '/api/account', {
        token: pia.token,
        body: { confirmEmail: ` ${pia.email.toUpperCase()} ` },
      }),
      200,
    );
  });

  it('answers that it is done and where the confirmation goes, and sends it', async () => {
    expect(erased).toEqual({ erased: true, email: pia.email });
    const confirmation = await smtp.message(pia.email, 'Your Nestling account has been deleted');
    expect(confirmation.text).toContain('This comment was deleted.');
  });

  it('deletes the sign-in account: no sign-in, and the old token opens nothing nor makes a new profile', async () => {
    expect(await emulatorAccounts().findByEmail(pia.email)).toBeNull();
    await expect(
      emulatorCall(inject('authEmulatorHost'), 'signInWithPassword', {
        email: pia.email,
        password: 'correct-horse-9',
        returnSecureToken: true,
      }),
    ).rejects.toThrow(/EMAIL_NOT_FOUND|INVALID_LOGIN_CREDENTIALS/);
    expect((await call(app, 'GET', '/api/profile', { token: pia.token })).status).toBe(401);
    const again = await call(app, 'DELETE', '/api/account', {
      token: pia.token,
      body: { confirmEmail: pia.email },
    });
    expect(again.status).toBe(401);
  });

  it('leaves nothing of the parent in any table: no uid, no address, no name', async () => {
    // Once the confirmation is sent its address is forgotten too.
    await smtp.message(pia.email, 'Your Nestling account has been deleted');
    await worker.tick();
    const anyDb = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['users_profile', 'deliveries', 'email_settings']),
    );
    const found: string[] = [];
    for (const table of tables) {
      const rows = await anyDb.selectFrom(table.name).selectAll().execute();
      for (const row of rows) {
        const text = JSON.stringify(row).toLowerCase();
        for (const mark of [pia.uid, pia.email, pia.name]) {
          if (text.includes(mark.toLowerCase())) found.push(`${table.name}: ${JSON.stringify(row)}`);
        }
      }
    }
    expect(found).toEqual([]);
    const sent = await db
      .selectFrom('deliveries')
      .selectAll()
      .where('purpose', '=', 'account_erased')
      .execute();
    expect(sent.map((r) => [r.target, r.delivered_at !== null])).toEqual([[FORGOTTEN_RECIPIENT, true]]);
  });

  it('keeps a comment with replies as a placeholder without its author, and drops one without', async () => {
    expect(await comment(ids.withReplies!)).toMatchObject({
      status: 'deleted',
      author_uid: null,
      author_name: '',
      author_avatar_url: null,
      content: '',
    });
    expect(await comment(ids.alone!)).toBeUndefined();
    expect(await comment(ids.piaReply!)).toBeUndefined();
    expect(await comment(ids.quinnReply!)).toMatchObject({ status: 'visible', content: 'Quinn answers Pia' });
    const thread = await expectJson<Comment[]>(app.request(`/api/blog/posts/${post1.postId}/comments`), 200);
    const placeholder = thread.find((c) => c.comment_id === ids.withReplies)!;
    expect(placeholder).toMatchObject({ status: 'deleted', author_name: '', content: '' });
    expect(placeholder.replies.map((r) => r.comment_id)).toEqual([ids.quinnReply]);
    expect(thread.some((c) => c.comment_id === ids.alone)).toBe(false);
  });

  it('keeps reported child-safety words as evidence, out of sight and without their author', async () => {
    const row = await comment(ids.evidence!);
    expect(row).toMatchObject({ status: 'deleted', author_uid: null, author_name: '' });
    expect(row!.content).toBe('Words a parent reports for child safety');
    expect(row!.purge_after).toBe(new Date(TEST_NOW.getTime() + 365 * 86_400_000).toISOString());
    const escalation = await db
      .selectFrom('deliveries')
      .select('payload')
      .where('purpose', '=', 'safety_escalation')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(escalation.payload).comment).toMatchObject({
      commentId: ids.evidence,
      authorName: ERASED_ACCOUNT_NAME,
      authorUid: expect.stringMatching(/^erased-[0-9a-f]{16}$/),
    });
  });

  it('recounts likes, replies and comments from the rows that remain', async () => {
    const p1 = await db
      .selectFrom('blog_posts')
      .selectAll()
      .where('post_id', '=', post1.postId)
      .executeTakeFirstOrThrow();
    expect(p1.like_count).toBe(before.post1Likes - 1);
    const quinnTop = (await comment(ids.quinnTop!))!;
    expect(quinnTop.like_count).toBe(before.quinnTopLikes - 1);
    expect(quinnTop.reply_count).toBe(before.quinnTopReplies - 1);
    for (const { post_id, comment_count, like_count } of await db
      .selectFrom('blog_posts')
      .selectAll()
      .execute()) {
      const visible = await db
        .selectFrom('comments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('post_id', '=', post_id)
        .where('status', '=', 'visible')
        .executeTakeFirstOrThrow();
      const likes = await db
        .selectFrom('post_likes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('post_id', '=', post_id)
        .executeTakeFirstOrThrow();
      expect([post_id, comment_count, like_count]).toEqual([post_id, Number(visible.n), Number(likes.n)]);
    }
  });

  it('keeps the reports filed, the suspensions and the audit trail under one random label', async () => {
    const filed = await db
      .selectFrom('comment_reports')
      .selectAll()
      .where('report_id', '=', ids.piaReport!)
      .executeTakeFirstOrThrow();
    expect(filed.reporter_uid).toMatch(/^erased-[0-9a-f]{16}$/);
    const label = filed.reporter_uid;
    expect(filed).toMatchObject({
      comment_id: ids.robTop,
      category: 'inappropriate_content',
      status: 'open',
    });
    expect(
      (
        await db
          .selectFrom('comment_reports')
          .selectAll()
          .where('report_id', '=', ids.quinnReport!)
          .executeTakeFirst()
      )?.reporter_uid,
    ).toBe(quinn.uid);

    const suspensions = await db.selectFrom('suspensions').selectAll().orderBy('suspension_id').execute();
    expect(suspensions.map((s) => [s.user_uid, s.created_by_uid, s.created_by_name])).toEqual([
      [rob.uid, label, ERASED_ACCOUNT_NAME],
      [label, ada.uid, 'Ada Admin'],
    ]);

    const audit = await expectJson<AuditEntry[]>(
      call(app, 'GET', '/api/moderation/audit?limit=100', { token: ada.token }),
      200,
    );
    const erasure = audit.find((e) => e.action === 'account.erase')!;
    expect(erasure).toMatchObject({
      actorUid: label,
      actorName: ERASED_ACCOUNT_NAME,
      targetType: 'user',
      targetId: label,
      reason: 'The parent deleted their account',
      details: { comments: 4, commentsRemoved: 2, evidenceKept: 1, likes: 2, reportsKept: 1 },
    });
    expect(audit.filter((e) => e.action === 'user.suspend').map((e) => [e.actorUid, e.targetId])).toEqual([
      [ada.uid, label],
      [label, rob.uid],
    ]);
  });

  it('closes a deletion request for the same address, keeping no address', async () => {
    const requests = await db.selectFrom('deletion_requests').selectAll().execute();
    expect(requests.map((r) => [r.status, r.email, r.additional_info])).toEqual([['erased', '', null]]);
  });
});
