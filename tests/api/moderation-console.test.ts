// What the moderation console needs from the server beyond the decisions themselves: who or what
// each audit entry is about, in words and with a link; where a comment's author stands; taking
// back a dismissal or a restore within the undo window (on the app's clock); and escalation
// errors for admins only. Through the real app over a real database, with emulator parents.
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  AuditEntry,
  CommentPosted,
  DecisionUndone,
  EscalationStatus,
  ModeratedComment,
  ReportFiled,
  ReportGroup,
  ReportResolved,
} from '../../api/contract.ts';
import { UNDO_WINDOW_SECONDS } from '../../api/contract.ts';
import { recordAudit } from '../../api/db/queries/audit.ts';
import { markFailed } from '../../api/db/queries/deliveries.ts';
import { upsertProfile } from '../../api/db/queries/profiles.ts';
import { rollbackRelease } from '../../api/db/queries/releases.ts';
import { readCache } from '../../api/middleware/read-cache.ts';
import { call, createCommunityApp, expectJson, newParent, type Parent } from '../helpers/parents.ts';
import { releaseNow, TEST_NOW } from '../helpers/test-db.ts';

type Setup = Awaited<ReturnType<typeof createCommunityApp>>;
type App = Setup['app'];
let app: App;
let db: Setup['db'];
/** The app's clock: each test moves it to its own hour. */
let now = new Date(TEST_NOW);
let post: { postId: number; slug: string; title: string };
let author: Parent;
let readers: Parent[];
let moderator: Parent;
let otherModerator: Parent;
let admin: Parent;

const HOUR = 3_600_000;
const setClock = (ms: number) => (now = new Date(ms));
const atHour = (hours: number) => setClock(TEST_NOW.getTime() + hours * HOUR);

beforeAll(async () => {
  ({ app, db } = await createCommunityApp({ now: () => now }));
  const posts = await expectJson<{ postId: number; slug: string; title: string }[]>(
    app.request('/api/blog/posts'),
    200,
  );
  post = posts[0]!;
  author = await newParent(app, db, 'Ada Author');
  readers = await Promise.all(['Ben', 'Cleo', 'Dev'].map((n) => newParent(app, db, `${n} Reader`)));
  moderator = await newParent(app, db, 'Mo Moderator', 'moderator');
  otherModerator = await newParent(app, db, 'Pat Moderator', 'moderator');
  admin = await newParent(app, db, 'Ari Admin', 'admin');
});

async function comment(parent: Parent, content: string, on: App = app): Promise<number> {
  const posted = await expectJson<CommentPosted>(
    call(on, 'POST', `/api/blog/posts/${post.postId}/comments`, { token: parent.token, body: { content } }),
    201,
  );
  return posted.comment.comment_id;
}

const report = (id: number, parent: Parent, category: string, on: App = app) =>
  expectJson<ReportFiled>(
    call(on, 'POST', `/api/blog/comments/${id}/reports`, { token: parent.token, body: { category } }),
    201,
  );

const resolve = (reportId: number, action: string, reason: string, on: App = app, as = moderator) =>
  expectJson<ReportResolved>(
    call(on, 'POST', `/api/moderation/reports/${reportId}/resolve`, {
      token: as.token,
      body: { action, reason },
    }),
    200,
  );

const suspend = (parent: Parent, days: number | null, reason: string, on: App = app) =>
  expectJson(
    call(on, 'POST', `/api/moderation/users/${parent.uid}/suspend`, {
      token: moderator.token,
      body: { days, reason },
    }),
    201,
  );

const undo = (auditId: number | string, as: Parent | null = moderator) =>
  call(app, 'POST', `/api/moderation/decisions/${auditId}/undo`, { token: as?.token });

const queue = async (on: App = app) =>
  expectJson<ReportGroup[]>(
    call(on, 'GET', '/api/moderation/reports?status=open', { token: moderator.token }),
    200,
  );

const audit = (on: App = app) =>
  expectJson<AuditEntry[]>(
    call(on, 'GET', '/api/moderation/audit?limit=100', { token: moderator.token }),
    200,
  );

async function commentCount(): Promise<number> {
  return (await expectJson<{ commentCount: number }>(app.request(`/api/blog/posts/${post.slug}`), 200))
    .commentCount;
}

const commentRow = (id: number) =>
  db.selectFrom('comments').selectAll().where('comment_id', '=', id).executeTakeFirst();

const reportRows = (commentId: number) =>
  db
    .selectFrom('comment_reports')
    .selectAll()
    .where('comment_id', '=', commentId)
    .orderBy('report_id')
    .execute();

const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;

describe('audit log targets', () => {
  it('names each kind of target in words, links comments and releases, and never shows a uid', async () => {
    // Its own app: a rollback changes the live release.
    const own = await createCommunityApp({ now: () => now });
    const named = (n: string) => newParent(own.app, own.db, n);
    const [ada, ben, finn, eve] = await Promise.all([
      named('Ada Author'),
      named('Ben Reader'),
      named('Finn Nameless'),
      named('Eve Erased'),
    ]);
    const mo = await newParent(own.app, own.db, 'Mo Moderator', 'moderator');
    const ari = await newParent(own.app, own.db, 'Ari Admin', 'admin');
    const suspendOn = (parent: Parent, reason: string) =>
      expectJson(
        call(own.app, 'POST', `/api/moderation/users/${parent.uid}/suspend`, {
          token: mo.token,
          body: { days: 1, reason },
        }),
        201,
      );
    const entries = () =>
      expectJson<AuditEntry[]>(
        call(own.app, 'GET', '/api/moderation/audit?limit=100', { token: mo.token }),
        200,
      );
    atHour(1);

    // A comment: held by a child-safety report, so the system writes an entry about it.
    const held = await comment(ada, 'Held for review', own.app);
    await report(held, ben, 'child_safety', own.app);
    // A parent by their name now, and one whose profile has no name.
    await suspendOn(ada, 'Named parent');
    await upsertProfile(own.db, { uid: finn.uid, email: finn.email, name: '', role: 'user' }, now);
    await suspendOn(finn, 'Nameless parent');
    // A comment that goes altogether: deleted by its author, then her account is erased.
    const gone = await comment(eve, 'Soon gone', own.app);
    expect((await call(own.app, 'DELETE', `/api/blog/comments/${gone}`, { token: eve.token })).status).toBe(
      204,
    );
    await suspendOn(eve, 'Erased parent');
    const before = await entries();
    expect(before.find((e) => e.reason === 'Erased parent')!.target).toEqual({
      name: 'Eve Erased',
      href: null,
    });
    await expectJson(
      call(own.app, 'DELETE', '/api/account', { token: eve.token, body: { confirmEmail: eve.email } }),
      200,
    );
    expect(
      await own.db
        .selectFrom('comments')
        .select('comment_id')
        .where('comment_id', '=', gone)
        .executeTakeFirst(),
    ).toBeUndefined();
    // A deletion request, a release rolled back, and a kind of target the console does not know.
    await expectJson(
      call(own.app, 'POST', '/api/account/deletion-requests', {
        body: { email: 'someone@example.com', confirmed: true },
      }),
      201,
    );
    await releaseNow(own.db, now);
    const { from } = await rollbackRelease(own.db, { uid: ari.uid, name: ari.name }, 'Wrong post', now);
    await recordAudit(
      own.db,
      {
        actor: { uid: ari.uid, name: ari.name },
        action: 'item.flag',
        target: { type: 'item', id: 'pram-42' },
        reason: null,
      },
      now,
    );

    const all = await entries();
    const one = (predicate: (e: AuditEntry) => boolean) => {
      const found = all.filter(predicate);
      expect(found).toHaveLength(1);
      return found[0]!;
    };
    expect(one((e) => e.action === 'comment.hold').target).toEqual({
      name: `a comment on “${post.title}”`,
      href: `/blog/${post.slug}#comment-${held}`,
    });
    expect(one((e) => e.reason === 'Named parent').target).toEqual({ name: 'Ada Author', href: null });
    expect(one((e) => e.reason === 'Nameless parent').target).toEqual({ name: 'a parent', href: null });
    const erasedSuspension = one((e) => e.reason === 'Erased parent');
    expect(erasedSuspension.targetId).toMatch(/^erased-/);
    expect(erasedSuspension.target).toEqual({ name: 'an erased parent', href: null });
    expect(one((e) => e.action === 'account.erase').target).toEqual({ name: 'an erased parent', href: null });
    expect(one((e) => e.action === 'comment.delete').target).toEqual({
      name: 'a comment that no longer exists',
      href: null,
    });
    const received = one((e) => e.action === 'deletion_request.receive');
    expect(received.target).toEqual({ name: `deletion request #${received.targetId}`, href: null });
    expect(one((e) => e.action === 'release.rollback').target).toEqual({
      name: `release #${from.id}`,
      href: '/admin',
    });
    expect(one((e) => e.action === 'item.flag').target).toEqual({ name: 'item pram-42', href: null });
    for (const entry of all) {
      for (const uid of [ada.uid, ben.uid, finn.uid, eve.uid, mo.uid, ari.uid])
        expect(entry.target.name).not.toContain(uid);
      expect(entry.target.name).not.toMatch(/erased-/);
    }
  });
});

describe("the author's standing", () => {
  it('comes with every moderated comment: suspension at the app clock, other open reports, removals', async () => {
    atHour(10);
    const rory = await newParent(app, db, 'Rory Repeat');
    const nia = await newParent(app, db, 'Nia New');
    const otto = await newParent(app, db, 'Otto Gone');
    const a = await comment(rory, 'First reported');
    const b = await comment(rory, 'Second reported');
    const d = await comment(rory, 'Removed earlier');
    const pending = await comment(rory, 'See http://a.example http://b.example http://c.example');
    const e = await comment(nia, 'Reported once');
    const orphan = await comment(otto, 'Reported, then its author left');
    const reportA = await report(a, readers[0]!, 'unsafe_item');
    await report(b, readers[1]!, 'inappropriate_content');
    await report(e, readers[0]!, 'suspicious_behavior');
    await report(orphan, readers[0]!, 'suspicious_behavior');
    await resolve((await report(d, readers[2]!, 'unsafe_item')).reportId, 'remove', 'Unsafe');
    await suspend(rory, 7, 'Spam links');
    await expectJson(
      call(app, 'DELETE', '/api/account', { token: otto.token, body: { confirmEmail: otto.email } }),
      200,
    );
    const until = new Date(now.getTime() + 7 * 24 * HOUR).toISOString();
    const suspension = { until, reason: 'Spam links' };

    const groups = await queue();
    const standingOf = (id: number) => groups.find((g) => g.comment.commentId === id)!.comment.authorStanding;
    expect(standingOf(a)).toEqual({ suspension, otherOpenReports: 1, removedComments: 1 });
    expect(standingOf(b)).toEqual({ suspension, otherOpenReports: 1, removedComments: 1 });
    expect(standingOf(e)).toEqual({ suspension: null, otherOpenReports: 0, removedComments: 0 });
    const orphaned = groups.find((g) => g.comment.commentId === orphan)!.comment;
    expect(orphaned).toMatchObject({ authorUid: null, authorStanding: null });

    const waiting = await expectJson<ModeratedComment[]>(
      call(app, 'GET', '/api/moderation/comments', { token: moderator.token }),
      200,
    );
    expect(waiting.find((c) => c.commentId === pending)!.authorStanding).toEqual({
      suspension,
      otherOpenReports: 2,
      removedComments: 1,
    });

    // After the suspension's end by the app's clock, it is no longer there.
    atHour(10 + 8 * 24);
    expect((await queue()).find((g) => g.comment.commentId === a)!.comment.authorStanding).toEqual({
      suspension: null,
      otherOpenReports: 1,
      removedComments: 1,
    });
    // The answers to decisions carry it too; the comment decided on is never counted.
    const removed = await resolve(reportA.reportId, 'remove', 'Unsafe again');
    expect(removed.comment.authorStanding).toEqual({
      suspension: null,
      otherOpenReports: 1,
      removedComments: 1,
    });
    const rejected = await expectJson<ModeratedComment>(
      call(app, 'POST', `/api/moderation/comments/${pending}/review`, {
        token: moderator.token,
        body: { action: 'reject', reason: 'Link spam' },
      }),
      200,
    );
    expect(rejected.authorStanding).toEqual({ suspension: null, otherOpenReports: 1, removedComments: 2 });
  });
});

describe('undoing a decision', () => {
  it('takes back a dismissal of a held comment: held again, its reports open, the count back, audited', async () => {
    atHour(500);
    const id = await comment(author, 'Held, dismissed, then held again');
    const count = await commentCount();
    const filed = [];
    for (const reader of readers) filed.push(await report(id, reader, 'inappropriate_content'));
    const reportIds = filed.map((r) => r.reportId);
    expect(await commentCount()).toBe(count - 1);

    const dismissed = await resolve(reportIds[0]!, 'dismiss', 'Nothing wrong here');
    const until = new Date(now.getTime() + UNDO_WINDOW_SECONDS * 1000).toISOString();
    expect(dismissed.undo).toEqual({ auditId: expect.any(Number), until });
    expect(dismissed.comment.status).toBe('visible');
    expect(await commentCount()).toBe(count);
    const decision = (await audit()).find((e) => e.id === dismissed.undo!.auditId)!;
    expect(decision).toMatchObject({
      action: 'report.dismiss',
      details: {
        previousStatus: 'held',
        shown: true,
        reportIds: reportIds.join(','),
        previousStatusReason: 'Reported by 3 parents',
        previousPurgeAfter: null,
      },
    });

    // Still in time at the last moment of the window, by the app's clock.
    setClock(Date.parse(until));
    const undone = await expectJson<DecisionUndone>(undo(dismissed.undo!.auditId), 200);
    expect(undone.reopenedReportIds).toEqual(reportIds);
    expect(undone.comment).toMatchObject({
      commentId: id,
      status: 'held',
      statusReason: 'Reported by 3 parents',
      purgeAfter: null,
    });
    expect(undone.comment.authorStanding).not.toBeNull();
    for (const row of await reportRows(id)) {
      expect(row).toMatchObject({
        status: 'open',
        resolved_at: null,
        resolved_by_uid: null,
        resolved_by_name: null,
        resolution: null,
        resolution_reason: null,
      });
    }
    expect(await commentCount()).toBe(count - 1);
    const group = (await queue()).find((g) => g.comment.commentId === id)!;
    expect(group).toMatchObject({ reporterCount: 3, comment: { status: 'held' } });
    const entry = (await audit()).find(
      (e) => e.action === 'decision.undo' && e.details.undoneAuditId === dismissed.undo!.auditId,
    )!;
    expect(entry).toMatchObject({
      actorUid: moderator.uid,
      actorName: 'Mo Moderator',
      targetType: 'comment',
      targetId: String(id),
      reason: null,
      details: { undoneAuditId: dismissed.undo!.auditId },
      target: { name: `a comment on “${post.title}”`, href: `/blog/${post.slug}#comment-${id}` },
    });
  });

  it('takes back a restore of a comment removed for child safety, with its reason and evidence date', async () => {
    atHour(510);
    const id = await comment(author, 'Removed as evidence, restored, removed again');
    const filed = await report(id, readers[0]!, 'child_safety');
    await resolve(filed.reportId, 'remove', 'Child safety: removed and escalated.');
    const removed = (await commentRow(id))!;
    expect(removed).toMatchObject({ status: 'removed', purge_after: expect.any(String) });
    // Removal settles every open report and a removed comment takes no new ones, so no request
    // leads to an open report on a removed comment: the row is put in that state directly.
    await db
      .updateTable('comment_reports')
      .set({
        status: 'open',
        resolved_at: null,
        resolved_by_uid: null,
        resolved_by_name: null,
        resolution: null,
        resolution_reason: null,
      })
      .where('report_id', '=', filed.reportId)
      .execute();
    const count = await commentCount();

    const restored = await resolve(filed.reportId, 'restore', 'Removed by mistake');
    expect(restored.comment).toMatchObject({ status: 'visible', purgeAfter: null });
    expect(restored.undo).not.toBeNull();
    expect(await commentCount()).toBe(count + 1);

    setClock(now.getTime() + 30_000);
    const undone = await expectJson<DecisionUndone>(undo(restored.undo!.auditId), 200);
    expect(undone).toMatchObject({
      reopenedReportIds: [filed.reportId],
      comment: {
        status: 'removed',
        statusReason: 'Child safety: removed and escalated.',
        purgeAfter: removed.purge_after,
      },
    });
    expect(await commentRow(id)).toMatchObject({
      status: 'removed',
      status_reason: 'Child safety: removed and escalated.',
      purge_after: removed.purge_after,
      content: 'Removed as evidence, restored, removed again',
    });
    expect((await reportRows(id)).map((r) => [r.status, r.resolution])).toEqual([['open', null]]);
    expect(await commentCount()).toBe(count);
  });

  it("drops the readers' kept answers that show the comment, as a decision does, and no others", async () => {
    atHour(515);
    const own = await createCommunityApp({ now: () => now, readCache: readCache({ ttlMs: 60_000 }) });
    const [ada, ben] = await Promise.all([
      newParent(own.app, own.db, 'Ada Author'),
      newParent(own.app, own.db, 'Ben Reader'),
    ]);
    const mo = await newParent(own.app, own.db, 'Mo Moderator', 'moderator');
    const [, other] = await expectJson<{ slug: string }[]>(own.app.request('/api/blog/posts'), 200);
    const id = await comment(ada, 'Shown by mistake', own.app);
    const filed = await report(id, ben, 'child_safety', own.app);
    const dismissed = await resolve(filed.reportId, 'dismiss', 'Not a concern', own.app, mo);
    const thread = async () =>
      (
        await expectJson<{ comment_id: number; status: string }[]>(
          own.app.request(`/api/blog/posts/${post.postId}/comments?limit=100`),
          200,
        )
      ).find((c) => c.comment_id === id)!.status;
    const numbers = async (slug: string) =>
      expectJson<{ commentCount: number; viewCount: number }>(
        own.app.request(`/api/blog/posts/${slug}`),
        200,
      );
    expect(await thread()).toBe('visible');
    const shownCount = (await numbers(post.slug)).commentCount;
    const otherViews = (await numbers(other!.slug)).viewCount;
    // Behind the API's back: a kept answer of the other post would not show this.
    await own.db
      .updateTable('blog_posts')
      .set((eb) => ({ view_count: eb('view_count', '+', 100) }))
      .execute();

    await expectJson<DecisionUndone>(
      call(own.app, 'POST', `/api/moderation/decisions/${dismissed.undo!.auditId}/undo`, { token: mo.token }),
      200,
    );
    expect(await thread()).toBe('held');
    expect((await numbers(post.slug)).commentCount).toBe(shownCount - 1);
    expect((await numbers(other!.slug)).viewCount).toBe(otherViews);
  });

  it('offers no undo for a removal', async () => {
    atHour(520);
    const id = await comment(author, 'Removed for good');
    const removed = await resolve(
      (await report(id, readers[0]!, 'unsafe_item')).reportId,
      'remove',
      'Unsafe',
    );
    expect(removed.undo).toBeNull();
  });

  it('refuses anyone but the moderator who decided, and a second undo', async () => {
    atHour(530);
    const id = await comment(author, 'Dismissed once');
    const filed = await report(id, readers[0]!, 'unsafe_item');
    const dismissed = await resolve(filed.reportId, 'dismiss', 'Fine');
    const auditId = dismissed.undo!.auditId;

    const anonymous = await undo(auditId, null);
    expect(anonymous.status).toBe(401);
    expect(await errorOf(anonymous)).toBe('Authentication required: send an Authorization: Bearer token');
    const parent = await undo(auditId, readers[0]!);
    expect(parent.status).toBe(403);
    expect(await errorOf(parent)).toBe(
      'Only moderators and admins may use the moderation console. Ask an admin if you should be one.',
    );
    for (const other of [otherModerator, admin]) {
      const res = await undo(auditId, other);
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toBe('Only the moderator who made this decision can undo it.');
    }
    expect((await reportRows(id))[0]!.status).toBe('resolved');

    await expectJson<DecisionUndone>(undo(auditId), 200);
    const twice = await undo(auditId);
    expect(twice.status).toBe(409);
    expect(await errorOf(twice)).toBe('This decision has already been undone.');
  });

  it('refuses once the window is over, by the app clock', async () => {
    atHour(540);
    const id = await comment(author, 'Dismissed a while ago');
    const dismissed = await resolve(
      (await report(id, readers[0]!, 'unsafe_item')).reportId,
      'dismiss',
      'Fine',
    );
    setClock(Date.parse(dismissed.undo!.until) + 1);
    const late = await undo(dismissed.undo!.auditId);
    expect(late.status).toBe(409);
    expect(await errorOf(late)).toBe(
      `This decision can no longer be undone: an undo is possible for ${UNDO_WINDOW_SECONDS} seconds after it.`,
    );
    expect((await reportRows(id))[0]!.status).toBe('resolved');
  });

  it('refuses once the comment has changed: held again by a new report, or edited', async () => {
    const changed =
      'This comment or its reports have changed since the decision, so it can no longer be undone.';
    atHour(550);
    const rehold = await comment(author, 'Held, shown, held again');
    const first = await report(rehold, readers[0]!, 'child_safety');
    const dismissed = await resolve(first.reportId, 'dismiss', 'Not a concern');
    await report(rehold, readers[1]!, 'child_safety');
    const res = await undo(dismissed.undo!.auditId);
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toBe(changed);
    expect((await commentRow(rehold))!.status).toBe('held');
    expect((await reportRows(rehold)).map((r) => r.status)).toEqual(['resolved', 'open']);

    atHour(560);
    const edited = await comment(author, 'Reported, dismissed, then edited');
    const filed = await report(edited, readers[0]!, 'unsafe_item');
    const kept = await resolve(filed.reportId, 'dismiss', 'Fine');
    setClock(now.getTime() + 10_000);
    await expectJson(
      call(app, 'PATCH', `/api/blog/comments/${edited}`, {
        token: author.token,
        body: { content: 'Reworded after the dismissal' },
      }),
      200,
    );
    const afterEdit = await undo(kept.undo!.auditId);
    expect(afterEdit.status).toBe(409);
    expect(await errorOf(afterEdit)).toBe(changed);
  });

  it('refuses entries that are not a dismissal or a restore (404) and ids that are not ids (400)', async () => {
    atHour(570);
    const id = await comment(author, 'Removed, not undoable');
    await resolve((await report(id, readers[0]!, 'child_safety')).reportId, 'remove', 'Unsafe');
    const entries = await audit();
    const hold = entries.find((e) => e.action === 'comment.hold' && e.targetId === String(id))!;
    const removal = entries.find((e) => e.action === 'comment.remove' && e.targetId === String(id))!;
    for (const auditId of [hold.id, removal.id, 99_999_999]) {
      const res = await undo(auditId);
      expect(res.status).toBe(404);
      expect(await errorOf(res)).toBe('There is no dismissal or restoration with that id to undo.');
    }
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const res = await undo(bad);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toBe('auditId: must be a positive integer');
    }
  });
});

describe('escalations in the console', () => {
  it('tells moderators an attempt failed, and only admins what the error was', async () => {
    atHour(600);
    const failing = await report(await comment(author, 'Escalated, failing'), readers[0]!, 'child_safety');
    const waiting = await report(await comment(author, 'Escalated, waiting'), readers[1]!, 'child_safety');
    const as = (parent: Parent) =>
      expectJson<EscalationStatus>(
        call(app, 'GET', '/api/moderation/escalations', { token: parent.token }),
        200,
      );
    const row = (await as(admin)).waiting.find((d) => d.reportId === failing.reportId)!;
    await markFailed(db, row.id, 'connect ECONNREFUSED 10.0.0.7:443', new Date(now.getTime() + 60_000));

    const forAdmin = (await as(admin)).waiting;
    expect(forAdmin.find((d) => d.reportId === failing.reportId)).toMatchObject({
      failed: true,
      lastError: 'connect ECONNREFUSED 10.0.0.7:443',
      attempts: 1,
    });
    expect(forAdmin.find((d) => d.reportId === waiting.reportId)).toMatchObject({
      failed: false,
      lastError: null,
    });
    const forModerator = (await as(moderator)).waiting;
    expect(forModerator.find((d) => d.reportId === failing.reportId)).toMatchObject({
      failed: true,
      lastError: null,
      attempts: 1,
    });
    expect(forModerator.find((d) => d.reportId === waiting.reportId)).toMatchObject({
      failed: false,
      lastError: null,
    });
    expect(forModerator.every((d) => d.lastError === null)).toBe(true);
  });
});
