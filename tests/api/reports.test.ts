// Reports of comments (docs/product.md, "Reports"): through the real app over a real database, with
// parents from the real Auth emulator.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Comment, CommentPosted, ReportFiled, ReportGroup } from '../../api/contract.ts';
import { createRateLimiter } from '../../api/middleware/rate-limit.ts';
import {
  call,
  createCommunityApp,
  emulatorVerifier,
  expectJson,
  newParent,
  type Parent,
} from '../helpers/parents.ts';
import { createTestApp, TEST_NOW } from '../helpers/test-db.ts';

type Setup = Awaited<ReturnType<typeof createTestApp>>;
let app: Setup['app'];
let db: Setup['db'];
let postId: number;
let slug: string;
let author: Parent;
let readers: Parent[];
let moderator: Parent;
/** The app's clock: the tests' fixed time unless a test moves it. */
let clock = TEST_NOW;

beforeAll(async () => {
  ({ app, db } = await createCommunityApp({
    now: () => clock,
    safety: {
      holdFirstComment: false,
      escalationUrl: 'http://hooks.nestling.test/safety',
      siteUrl: 'https://nestling.test',
    },
  }));
  const posts = await expectJson<{ postId: number; slug: string }[]>(app.request('/api/blog/posts'), 200);
  ({ postId, slug } = posts[1]!);
  author = await newParent(app, db, 'Ada Author');
  readers = await Promise.all(['Ben', 'Cleo', 'Dev', 'Eli'].map((n) => newParent(app, db, `${n} Reader`)));
  moderator = await newParent(app, db, 'Mo Moderator', 'moderator');
});

async function postComment(content: string): Promise<number> {
  const posted = await expectJson<CommentPosted>(
    call(app, 'POST', `/api/blog/posts/${postId}/comments`, { token: author.token, body: { content } }),
    201,
  );
  return posted.comment.comment_id;
}

const report = (commentId: number, parent: Parent | null, body: unknown) =>
  call(app, 'POST', `/api/blog/comments/${commentId}/reports`, { token: parent?.token, body });

async function shown(commentId: number, viewer?: Parent): Promise<Comment | undefined> {
  const res = await call(app, 'GET', `/api/blog/posts/${postId}/comments`, { token: viewer?.token });
  return (await expectJson<Comment[]>(res, 200)).find((c) => c.comment_id === commentId);
}

async function commentCount(): Promise<number> {
  return (await expectJson<{ commentCount: number }>(app.request(`/api/blog/posts/${slug}`), 200))
    .commentCount;
}

describe('reporting a comment', () => {
  it('asks signed-out readers to sign in', async () => {
    const id = await postComment('Signed-out readers cannot report this.');
    const res = await report(id, null, { category: 'unsafe_item', note: null });
    expect(res.status).toBe(401);
    expect((await res.json()) as { error: string }).toEqual({
      error: 'Authentication required: send an Authorization: Bearer token',
    });
  });

  it('files one report per parent: 201 the first time, the same report (200) after', async () => {
    const id = await postComment('A stroller for sale, barely used.');
    const first = await expectJson<ReportFiled>(
      report(id, readers[0]!, { category: 'unsafe_item', note: '  The brakes were recalled.  ' }),
      201,
    );
    expect(first).toMatchObject({ status: 'open', comment: { comment_id: id, status: 'visible' } });
    expect(typeof first.reportId).toBe('number');
    const again = await expectJson<ReportFiled>(
      report(id, readers[0]!, { category: 'inappropriate_content', note: null }),
      200,
    );
    expect(again.reportId).toBe(first.reportId);
    const rows = await db.selectFrom('comment_reports').selectAll().where('comment_id', '=', id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      category: 'unsafe_item',
      note: 'The brakes were recalled.',
      status: 'open',
    });
  });

  it.each([
    [{ category: 'spam', note: null }, /^category: must be one of child_safety, unsafe_item/],
    [{ note: null }, /^category: must be one of/],
    [{ category: 'unsafe_item', note: 'x'.repeat(1001) }, /^note: must be at most 1000 characters$/],
    [{ category: 'unsafe_item', note: 5 }, /^note: must be a string or null$/],
  ])('refuses %j with a message', async (body, message) => {
    const id = await postComment('Validation target.');
    const res = await report(id, readers[1]!, body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
  });

  it('takes a note of exactly 1,000 characters, and no note at all', async () => {
    const id = await postComment('Note lengths.');
    await expectJson(
      report(id, readers[1]!, { category: 'suspicious_behavior', note: 'n'.repeat(1000) }),
      201,
    );
    await expectJson(report(id, readers[2]!, { category: 'suspected_non_parent' }), 201);
  });

  it('refuses a report of your own comment (400), an unknown one (404) and a malformed id (400)', async () => {
    const id = await postComment('My own words.');
    const own = await report(id, author, { category: 'unsafe_item', note: null });
    expect(own.status).toBe(400);
    expect(((await own.json()) as { error: string }).error).toMatch(/cannot report your own comment/);
    expect((await report(99_999_999, readers[0]!, { category: 'unsafe_item', note: null })).status).toBe(404);
    expect((await report(0, readers[0]!, { category: 'unsafe_item', note: null })).status).toBe(400);
  });
});

describe('holding on report', () => {
  it('hides a comment once 3 different parents have open reports, and it leaves the counts', async () => {
    const id = await postComment('Something people find objectionable.');
    const before = await commentCount();
    for (const [i, parent] of readers.slice(0, 2).entries()) {
      const filed = await expectJson<ReportFiled>(
        report(id, parent, {
          category: i === 0 ? 'inappropriate_content' : 'suspicious_behavior',
          note: null,
        }),
        201,
      );
      expect(filed.comment.status).toBe('visible');
      expect(filed.commentCount).toBe(before);
    }
    const third = await expectJson<ReportFiled>(
      report(id, readers[2]!, { category: 'inappropriate_content', note: null }),
      201,
    );
    expect(third.comment).toMatchObject({ status: 'held', content: '' });
    expect(third.commentCount).toBe(before - 1);
    expect(await commentCount()).toBe(before - 1);

    // It keeps its place as a placeholder; nobody but moderators gets its words.
    for (const viewer of [undefined, readers[3]!, author]) {
      expect(await shown(id, viewer)).toMatchObject({
        status: 'held',
        content: '',
        author_name: 'Ada Author',
      });
    }
    expect(await shown(id, moderator)).toMatchObject({
      status: 'held',
      content: 'Something people find objectionable.',
      status_reason: 'Reported by 3 parents',
    });
    const audit = await db.selectFrom('audit_log').selectAll().where('target_id', '=', String(id)).execute();
    expect(audit.map((a) => [a.action, a.actor_uid, a.reason])).toEqual([
      ['comment.hold', null, 'Reported by 3 parents'],
    ]);

    // A held comment takes further reports, counted for the moderators ("4 parents reported it"),
    // and the same parent again is answered with their first report and counted once.
    const fourth = await expectJson<ReportFiled>(
      report(id, readers[3]!, { category: 'unsafe_item', note: null }),
      201,
    );
    expect(fourth.comment.status).toBe('held');
    const again = await expectJson<ReportFiled>(
      report(id, readers[3]!, { category: 'suspicious_behavior', note: null }),
      200,
    );
    expect(again.reportId).toBe(fourth.reportId);
    const queue = await expectJson<ReportGroup[]>(
      call(app, 'GET', '/api/moderation/reports?status=open', { token: moderator.token }),
      200,
    );
    expect(queue.find((g) => g.comment.commentId === id)?.reporterCount).toBe(4);
    // It takes no likes or replies.
    expect(
      (await call(app, 'POST', `/api/blog/comments/${id}/like`, { token: readers[3]!.token })).status,
    ).toBe(404);
    const reply = await call(app, 'POST', `/api/blog/posts/${postId}/comments`, {
      token: readers[3]!.token,
      body: { content: 'Replying to a hidden comment', parentCommentId: id },
    });
    expect(reply.status).toBe(409);
  });

  it('hides a child-safety report at once and queues its escalation with the comment and a console link', async () => {
    const id = await postComment('Message me privately about your kids.');
    const before = await commentCount();
    const filed = await expectJson<ReportFiled>(
      report(id, readers[0]!, { category: 'child_safety', note: 'Asking children to message privately.' }),
      201,
    );
    expect(filed.comment.status).toBe('held');
    expect(filed.commentCount).toBe(before - 1);
    const deliveries = await db.selectFrom('deliveries').selectAll().execute();
    const escalation = deliveries.find((d) => JSON.parse(d.payload).report.reportId === filed.reportId)!;
    expect(escalation).toMatchObject({
      kind: 'webhook',
      purpose: 'safety_escalation',
      target: 'http://hooks.nestling.test/safety',
      delivered_at: null,
    });
    expect(JSON.parse(escalation.payload)).toMatchObject({
      type: 'nestling.child_safety_report',
      consoleUrl: `https://nestling.test/moderation#report-${filed.reportId}`,
      report: { category: 'child_safety', note: 'Asking children to message privately.' },
      comment: {
        commentId: id,
        content: 'Message me privately about your kids.',
        authorName: 'Ada Author',
        postUrl: `https://nestling.test/blog/${slug}`,
      },
    });
    const reports = await db
      .selectFrom('comment_reports')
      .selectAll()
      .where('report_id', '=', filed.reportId)
      .execute();
    expect(Date.parse(reports[0]!.due_at) - Date.parse(reports[0]!.created_at)).toBe(60 * 60_000);
  });

  it('queues no escalation for other categories, and gives them 24 hours', async () => {
    const id = await postComment('An ordinary disagreement.');
    const count = async () => (await db.selectFrom('deliveries').select('delivery_id').execute()).length;
    const before = await count();
    const filed = await expectJson<ReportFiled>(
      report(id, readers[0]!, { category: 'unsafe_item', note: null }),
      201,
    );
    expect(await count()).toBe(before);
    const row = await db
      .selectFrom('comment_reports')
      .selectAll()
      .where('report_id', '=', filed.reportId)
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.due_at) - Date.parse(row.created_at)).toBe(24 * 60 * 60_000);
  });
});

describe("the moderators' queue", () => {
  it('puts child safety first, then whatever is due soonest, though it was opened later', async () => {
    const [fay, gus] = await Promise.all([
      newParent(app, db, 'Fay Reader'),
      newParent(app, db, 'Gus Reader'),
    ]);
    const first = await postComment('Reported for an unsafe item, later for child safety.');
    const second = await postComment('Reported for child safety in between.');
    // The first comment's group opens first, but its child-safety report (due in an hour) comes last.
    const at = (minutes: number) => (clock = new Date(TEST_NOW.getTime() + minutes * 60_000));
    try {
      at(1);
      await expectJson<ReportFiled>(report(first, fay, { category: 'unsafe_item', note: null }), 201);
      at(2);
      await expectJson<ReportFiled>(report(second, gus, { category: 'child_safety', note: null }), 201);
      at(3);
      await expectJson<ReportFiled>(report(first, gus, { category: 'child_safety', note: null }), 201);
    } finally {
      clock = TEST_NOW;
    }
    const queue = await expectJson<ReportGroup[]>(
      call(app, 'GET', '/api/moderation/reports?status=open', { token: moderator.token }),
      200,
    );
    const ours = queue.filter((g) => [first, second].includes(g.comment.commentId));
    expect(ours.map((g) => g.comment.commentId)).toEqual([second, first]);
    expect(ours.every((g) => g.childSafety)).toBe(true);
    expect(ours[0]!.openedAt > ours[1]!.openedAt).toBe(true);
    expect(ours[0]!.dueAt < ours[1]!.dueAt).toBe(true);
    // Every child-safety group comes before every other, and each kind is in due order.
    const kinds = queue.map((g) => g.childSafety);
    expect(kinds).toEqual([...kinds].sort((a, b) => Number(b) - Number(a)));
    for (const kind of [true, false]) {
      const due = queue.filter((g) => g.childSafety === kind).map((g) => g.dueAt);
      expect(due).toEqual([...due].sort());
    }
  });
});

describe('report rate limit', () => {
  it('allows 5 reports a minute per parent, then 429 with Retry-After', async () => {
    let clock = 0;
    const limited = await createTestApp((db) => ({
      verifyToken: emulatorVerifier(),
      reportLimiter: createRateLimiter(db, {
        scope: 'reports',
        limit: 5,
        windowMs: 60_000,
        now: () => clock,
      }),
      commentLimiter: createRateLimiter(db, { scope: 'comments', limit: 100, windowMs: 60_000 }),
    }));
    const writer = await newParent(limited.app, limited.db, 'Wren Writer');
    const reporter = await newParent(limited.app, limited.db, 'Rae Reporter');
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      const posted = await expectJson<CommentPosted>(
        call(limited.app, 'POST', `/api/blog/posts/${postId}/comments`, {
          token: writer.token,
          body: { content: `Comment ${i}` },
        }),
        201,
      );
      ids.push(posted.comment.comment_id);
    }
    const file = (id: number) =>
      call(limited.app, 'POST', `/api/blog/comments/${id}/reports`, {
        token: reporter.token,
        body: { category: 'inappropriate_content', note: null },
      });
    for (const id of ids.slice(0, 5)) expect((await file(id)).status).toBe(201);
    const sixth = await file(ids[5]!);
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('Retry-After'))).toBe(60);
    expect(((await sixth.json()) as { error: string }).error).toBe(
      'Too many reports in a short time. Try again in 60 s.',
    );
    clock += 60_000;
    expect((await file(ids[5]!)).status).toBe(201);
  });
});
