// The moderation API (docs/product.md, "Trust and safety"): roles, the report queue with due times
// on an injected clock, decisions, suspensions, the audit log, the one-year purge of child-safety
// evidence, and counts that stay equal to a recount after every kind of action.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  AuditEntry,
  Comment,
  CommentPosted,
  EscalationStatus,
  ModeratedComment,
  ProfileAnswer,
  ReportFiled,
  ReportGroup,
  ReportResolved,
  Suspension,
} from '../../api/contract.ts';
import { retarget } from '../../api/db/queries/deliveries.ts';
import { purgeExpiredEvidence } from '../../api/db/queries/moderation.ts';
import { ESCALATION } from '../../api/db/queries/deliveries.ts';
import { call, createCommunityApp, expectJson, newParent, type Parent } from '../helpers/parents.ts';
import { TEST_NOW } from '../helpers/test-db.ts';

type Setup = Awaited<ReturnType<typeof createCommunityApp>>;
let app: Setup['app'];
let db: Setup['db'];
let now = new Date(TEST_NOW);
let postId: number;
let slug: string;
let author: Parent;
let readers: Parent[];
let moderator: Parent;
let admin: Parent;

const HOUR = 3_600_000;
const at = (hours: number) => new Date(TEST_NOW.getTime() + hours * HOUR);

beforeAll(async () => {
  ({ app, db } = await createCommunityApp({ now: () => now }));
  const posts = await expectJson<{ postId: number; slug: string }[]>(app.request('/api/blog/posts'), 200);
  ({ postId, slug } = posts[0]!);
  author = await newParent(app, db, 'Ada Author');
  readers = await Promise.all(['Ben', 'Cleo', 'Dev'].map((n) => newParent(app, db, `${n} Reader`)));
  moderator = await newParent(app, db, 'Mo Moderator', 'moderator');
  admin = await newParent(app, db, 'Ari Admin', 'admin');
});

async function post(parent: Parent, content: string, parentCommentId: number | null = null) {
  const posted = await expectJson<CommentPosted>(
    call(app, 'POST', `/api/blog/posts/${postId}/comments`, {
      token: parent.token,
      body: { content, parentCommentId },
    }),
    201,
  );
  return posted.comment.comment_id;
}

const report = (id: number, parent: Parent, category: string, note: string | null = null) =>
  expectJson<ReportFiled>(
    call(app, 'POST', `/api/blog/comments/${id}/reports`, { token: parent.token, body: { category, note } }),
    201,
  );

const queue = async (status = 'open') =>
  expectJson<ReportGroup[]>(
    call(app, 'GET', `/api/moderation/reports?status=${status}`, { token: moderator.token }),
    200,
  );

const resolve = (reportId: number, body: unknown, as: Parent = moderator) =>
  call(app, 'POST', `/api/moderation/reports/${reportId}/resolve`, { token: as.token, body });

async function shown(id: number, viewer?: Parent): Promise<Comment | undefined> {
  const list = await expectJson<Comment[]>(
    call(app, 'GET', `/api/blog/posts/${postId}/comments?limit=100`, { token: viewer?.token }),
    200,
  );
  return list.find((c) => c.comment_id === id);
}

const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;

describe('roles', () => {
  const reads = ['/reports?status=open', '/comments', '/suspensions', '/escalations', '/audit'];
  it('refuses the console API without a token (401) and to plain parents (403, JSON)', async () => {
    for (const path of reads) {
      expect((await call(app, 'GET', `/api/moderation${path}`)).status).toBe(401);
      const res = await call(app, 'GET', `/api/moderation${path}`, { token: readers[0]!.token });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        error:
          'Only moderators and admins may use the moderation console. Ask an admin if you should be one.',
      });
    }
    const writes: [string, unknown][] = [
      ['/reports/1/resolve', { action: 'dismiss', reason: 'x' }],
      ['/comments/1/review', { action: 'approve', reason: null }],
      [`/users/${author.uid}/suspend`, { days: 1, reason: 'x' }],
      [`/users/${author.uid}/lift`, { reason: 'x' }],
    ];
    for (const [path, body] of writes) {
      expect(
        (await call(app, 'POST', `/api/moderation${path}`, { token: readers[0]!.token, body })).status,
      ).toBe(403);
    }
  });

  it('lets moderators and admins in', async () => {
    for (const parent of [moderator, admin]) {
      for (const path of reads) {
        expect((await call(app, 'GET', `/api/moderation${path}`, { token: parent.token })).status).toBe(200);
      }
    }
  });
});

describe('the report queue', () => {
  it('groups by comment, child safety first then oldest, with due times and overdue marks', async () => {
    now = at(0);
    const older = await post(author, 'Selling a cot with loose bars');
    await report(older, readers[0]!, 'unsafe_item', 'The bars come loose.');
    now = at(1);
    await report(older, readers[1]!, 'unsafe_item');
    await report(older, readers[2]!, 'suspicious_behavior', 'Asked to pay outside the site.');
    now = at(2);
    const newer = await post(author, 'Plain rudeness');
    await report(newer, readers[0]!, 'inappropriate_content');
    now = at(3);
    const urgent = await post(author, 'Something about children');
    const childSafety = await report(urgent, readers[1]!, 'child_safety', 'Please look now.');

    now = at(3.5);
    const mine = (await queue()).filter((g) => [older, newer, urgent].includes(g.comment.commentId));
    expect(mine.map((g) => g.comment.commentId)).toEqual([urgent, older, newer]);
    const [first, second, third] = mine;
    expect(first).toMatchObject({
      reportId: childSafety.reportId,
      status: 'open',
      childSafety: true,
      reporterCount: 1,
      categories: [{ category: 'child_safety', count: 1 }],
      openedAt: at(3).toISOString(),
      dueAt: at(4).toISOString(),
      overdue: false,
      comment: {
        commentId: urgent,
        content: 'Something about children',
        authorName: 'Ada Author',
        authorUid: author.uid,
        status: 'held',
        postId,
        postSlug: slug,
      },
      notes: [{ reportId: childSafety.reportId, category: 'child_safety', note: 'Please look now.' }],
    });
    expect(second).toMatchObject({
      childSafety: false,
      reporterCount: 3,
      categories: [
        { category: 'unsafe_item', count: 2 },
        { category: 'suspicious_behavior', count: 1 },
      ],
      openedAt: at(0).toISOString(),
      dueAt: at(24).toISOString(),
      comment: { status: 'held', statusReason: 'Reported by 3 parents' },
    });
    expect(second!.notes.map((n) => n.note)).toEqual([
      'The bars come loose.',
      'Asked to pay outside the site.',
    ]);
    expect(third).toMatchObject({ reporterCount: 1, dueAt: at(26).toISOString(), overdue: false });

    now = at(4.01);
    expect((await queue()).find((g) => g.comment.commentId === urgent)!.overdue).toBe(true);
    now = at(24.5);
    const late = (await queue()).filter((g) => [older, newer].includes(g.comment.commentId));
    expect(late.map((g) => g.overdue)).toEqual([true, false]);
  });

  it('validates the status filter', async () => {
    const res = await call(app, 'GET', '/api/moderation/reports?status=closed', { token: moderator.token });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe('status: must be open or resolved');
  });
});

describe('decisions', () => {
  it('removes a comment with a reason: placeholder in place, replies stay, the author sees why', async () => {
    now = at(30);
    const id = await post(author, 'Buy my recalled car seat');
    const replyId = await post(readers[2]!, 'Is it safe?', id);
    const filed = await report(id, readers[0]!, 'unsafe_item');
    const second = await report(id, readers[1]!, 'unsafe_item');
    const count = (await expectJson<{ commentCount: number }>(app.request(`/api/blog/posts/${slug}`), 200))
      .commentCount;

    for (const reason of [undefined, '   ']) {
      const res = await resolve(filed.reportId, { action: 'remove', reason });
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatch(/^reason: must (be a string|not be blank): say why$/);
    }
    const bad = await resolve(filed.reportId, { action: 'delete', reason: 'x' });
    expect(await errorOf(bad)).toBe('action: must be remove, restore or dismiss');

    const done = await expectJson<ReportResolved>(
      resolve(filed.reportId, { action: 'remove', reason: 'Recalled car seats may not be sold.' }),
      200,
    );
    expect(done.resolvedReportIds).toEqual([filed.reportId, second.reportId]);
    expect(done.comment).toMatchObject({
      status: 'removed',
      statusReason: 'Recalled car seats may not be sold.',
    });
    expect(
      (await expectJson<{ commentCount: number }>(app.request(`/api/blog/posts/${slug}`), 200)).commentCount,
    ).toBe(count - 1);

    const anonymous = (await shown(id))!;
    expect(anonymous).toMatchObject({ status: 'removed', content: '', status_reason: null });
    expect(anonymous.replies.map((r) => r.comment_id)).toEqual([replyId]);
    expect(await shown(id, author)).toMatchObject({
      status: 'removed',
      content: '',
      status_reason: 'Recalled car seats may not be sold.',
    });

    const again = await resolve(second.reportId, { action: 'dismiss', reason: 'Second look' });
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toMatch(/^This report was already resolved \(remove\) by Mo Moderator/);
    expect((await resolve(99_999_999, { action: 'dismiss', reason: 'x' })).status).toBe(404);

    const resolved = (await queue('resolved')).find((g) => g.comment.commentId === id)!;
    expect(resolved).toMatchObject({
      status: 'resolved',
      reporterCount: 2,
      resolution: { action: 'remove', reason: 'Recalled car seats may not be sold.', byName: 'Mo Moderator' },
    });
    expect((await queue()).some((g) => g.comment.commentId === id)).toBe(false);
  });

  it('restores a held comment and dismisses reports of a visible one', async () => {
    now = at(40);
    const held = await post(author, 'Misunderstood joke');
    const reports = [];
    for (const reader of readers) reports.push(await report(held, reader, 'inappropriate_content'));
    expect((await shown(held))!.status).toBe('held');
    const restored = await expectJson<ReportResolved>(
      resolve(reports[0]!.reportId, { action: 'restore', reason: 'A joke, not abuse.' }),
      200,
    );
    expect(restored.comment.status).toBe('visible');
    expect((await shown(held))!).toMatchObject({ status: 'visible', content: 'Misunderstood joke' });

    const fine = await post(author, 'A fair question');
    const lone = await report(fine, readers[0]!, 'suspected_non_parent');
    const dismissed = await expectJson<ReportResolved>(
      resolve(lone.reportId, { action: 'dismiss', reason: 'Clearly a parent.' }),
      200,
    );
    expect(dismissed).toMatchObject({ comment: { status: 'visible' }, resolvedReportIds: [lone.reportId] });
  });

  it('keeps content removed for child safety out of sight for a year, then purges it', async () => {
    now = at(50);
    const id = await post(author, 'Evidence of grooming');
    const filed = await report(id, readers[0]!, 'child_safety', 'Urgent');
    await expectJson(
      resolve(filed.reportId, { action: 'remove', reason: 'Child safety: removed and escalated.' }),
      200,
    );
    const kept = await db
      .selectFrom('comments')
      .selectAll()
      .where('comment_id', '=', id)
      .executeTakeFirstOrThrow();
    const year = new Date(now.getTime() + 365 * 24 * HOUR).toISOString();
    expect(kept).toMatchObject({ status: 'removed', content: 'Evidence of grooming', purge_after: year });
    for (const viewer of [undefined, author, readers[1]!])
      expect((await shown(id, viewer))!.content).toBe('');
    expect((await shown(id, moderator))!.content).toBe('Evidence of grooming');

    // As a start-up with SAFETY_ESCALATION_URL set does: the escalation now keeps where it goes.
    expect(await retarget(db, ESCALATION.purpose, 'http://hooks.nestling.test/safety', now)).toBeGreaterThan(
      0,
    );
    expect(await purgeExpiredEvidence(db, new Date(Date.parse(year) - 1))).toBe(0);
    expect(await purgeExpiredEvidence(db, new Date(year))).toBe(1);
    const purged = await db
      .selectFrom('comments')
      .selectAll()
      .where('comment_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(purged).toMatchObject({ status: 'removed', content: '', purge_after: null });
    // Every table, as the schema lists them now, so a table added later is covered too.
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name)).toContain('deliveries');
    for (const table of tables) {
      const { rows } = await sql`select * from ${sql.table(table.name)}`.execute(db);
      expect(JSON.stringify(rows), table.name).not.toContain('Evidence of grooming');
    }
    const escalation = await db
      .selectFrom('deliveries')
      .select(['target', 'payload'])
      .where('purpose', '=', ESCALATION.purpose)
      .where('payload', 'like', `%"commentId":${id},%`)
      .executeTakeFirstOrThrow();
    expect(escalation.target).toBeNull();
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', String(id))
      .orderBy('audit_id')
      .execute();
    expect(audit.map((a) => [a.action, a.actor_uid])).toEqual([
      ['comment.hold', null],
      ['comment.remove', moderator.uid],
      ['comment.purge', null],
    ]);
    expect(await purgeExpiredEvidence(db, new Date(year))).toBe(0);
  });
});

describe('escalations in the console', () => {
  it('lists escalations that have not arrived, and says none is configured', async () => {
    now = at(60);
    const id = await post(author, 'Another child-safety concern');
    const filed = await report(id, readers[2]!, 'child_safety');
    const status = await expectJson<EscalationStatus>(
      call(app, 'GET', '/api/moderation/escalations', { token: moderator.token }),
      200,
    );
    expect(status.configured).toBe(false);
    expect(status.waiting.find((d) => d.reportId === filed.reportId)).toMatchObject({
      kind: 'webhook',
      purpose: 'safety_escalation',
      target: null,
      attempts: 0,
    });
  });
});

describe('suspension', () => {
  const writes = (parent: Parent, commentId: number) => [
    call(app, 'POST', `/api/blog/posts/${postId}/comments`, {
      token: parent.token,
      body: { content: 'Hello' },
    }),
    call(app, 'POST', `/api/blog/posts/${postId}/comments`, {
      token: parent.token,
      body: { content: 'A reply', parentCommentId: commentId },
    }),
    call(app, 'PATCH', `/api/blog/comments/${commentId}`, {
      token: parent.token,
      body: { content: 'Edited' },
    }),
    call(app, 'DELETE', `/api/blog/comments/${commentId}`, { token: parent.token }),
    call(app, 'POST', `/api/blog/posts/${slug}/like`, { token: parent.token }),
    call(app, 'POST', `/api/blog/comments/${commentId}/like`, { token: parent.token }),
    call(app, 'POST', `/api/blog/comments/${commentId}/reports`, {
      token: parent.token,
      body: { category: 'unsafe_item', note: null },
    }),
  ];

  it('refuses every write of a suspended parent with why and until when, until it ends or is lifted', async () => {
    now = at(70);
    const target = await newParent(app, db, 'Sam Suspended');
    const own = await post(target, 'Before the suspension');
    const suspend = (body: unknown, as: Parent = moderator) =>
      call(app, 'POST', `/api/moderation/users/${target.uid}/suspend`, { token: as.token, body });

    for (const [body, message] of [
      [
        { days: 0, reason: 'x' },
        /^days: must be a whole number of days from 1 to 3650, or null \(until lifted\)$/,
      ],
      [{ reason: 'x' }, /^days: must be a whole number/],
      [{ days: 2.5, reason: 'x' }, /^days: must be a whole number/],
      [{ days: 7 }, /^reason: must be a string: say why$/],
    ] as const) {
      const res = await suspend(body);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatch(message);
    }
    const suspension = await expectJson<Suspension>(suspend({ days: 7, reason: 'Repeated insults' }), 201);
    expect(suspension).toMatchObject({
      uid: target.uid,
      userName: 'Sam Suspended',
      until: at(70 + 7 * 24).toISOString(),
      reason: 'Repeated insults',
      createdByName: 'Mo Moderator',
    });
    const until = at(70 + 7 * 24).toISOString();
    for (const res of await Promise.all(writes(target, own))) {
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toBe(
        `Your account is suspended until ${until.slice(0, 10)} ${until.slice(11, 16)} UTC (Repeated insults). You can still read, but you cannot comment, reply, like or report while it lasts.`,
      );
    }
    // Their profile says so, for the comment box to tell them before they type.
    const profile = async () =>
      (await expectJson<ProfileAnswer>(call(app, 'GET', '/api/profile', { token: target.token }), 200))
        .suspension;
    expect(await profile()).toEqual({ until, reason: 'Repeated insults' });
    // Reading still works.
    expect(
      (await call(app, 'GET', `/api/blog/posts/${postId}/comments`, { token: target.token })).status,
    ).toBe(200);
    const listed = await expectJson<Suspension[]>(
      call(app, 'GET', '/api/moderation/suspensions', { token: moderator.token }),
      200,
    );
    expect(listed.map((s) => s.uid)).toContain(target.uid);

    // It ends by itself after 7 days.
    now = at(70 + 7 * 24);
    expect(await profile()).toBeNull();
    const after = await call(app, 'POST', `/api/blog/posts/${slug}/like`, { token: target.token });
    expect(after.status).toBe(200);

    // Until lifted: refused until a moderator lifts it, with a reason.
    await expectJson(suspend({ days: null, reason: 'Threats' }), 201);
    expect(await profile()).toEqual({ until: null, reason: 'Threats' });
    const refused = await call(app, 'POST', `/api/blog/posts/${slug}/like`, { token: target.token });
    expect(await errorOf(refused)).toMatch(
      /^Your account is suspended until a moderator lifts it \(Threats\)\./,
    );
    const lift = (body: unknown) =>
      call(app, 'POST', `/api/moderation/users/${target.uid}/lift`, { token: moderator.token, body });
    expect((await lift({})).status).toBe(400);
    await expectJson(lift({ reason: 'Apologised' }), 200);
    expect(await profile()).toBeNull();
    expect((await lift({ reason: 'Again' })).status).toBe(404);
    expect((await call(app, 'POST', `/api/blog/posts/${slug}/like`, { token: target.token })).status).toBe(
      200,
    );
  });

  it('keeps moderators from suspending themselves, each other and admins', async () => {
    const self = await call(app, 'POST', `/api/moderation/users/${moderator.uid}/suspend`, {
      token: moderator.token,
      body: { days: 1, reason: 'x' },
    });
    expect(self.status).toBe(400);
    const peer = await newParent(app, db, 'Pat Peer', 'moderator');
    const byModerator = await call(app, 'POST', `/api/moderation/users/${peer.uid}/suspend`, {
      token: moderator.token,
      body: { days: 1, reason: 'x' },
    });
    expect(byModerator.status).toBe(403);
    expect(await errorOf(byModerator)).toBe('Only an admin may suspend a moderator.');
    await expectJson(
      call(app, 'POST', `/api/moderation/users/${peer.uid}/suspend`, {
        token: admin.token,
        body: { days: 1, reason: 'x' },
      }),
      201,
    );
    // A suspended moderator cannot moderate either.
    expect(
      (
        await call(app, 'POST', '/api/moderation/reports/1/resolve', {
          token: peer.token,
          body: { action: 'dismiss', reason: 'x' },
        })
      ).status,
    ).toBe(403);
    const ofAdmin = await call(app, 'POST', `/api/moderation/users/${admin.uid}/suspend`, {
      token: moderator.token,
      body: { days: 1, reason: 'x' },
    });
    expect(ofAdmin.status).toBe(403);
    const unknown = await call(app, 'POST', '/api/moderation/users/nobody-here/suspend', {
      token: moderator.token,
      body: { days: 1, reason: 'x' },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('the audit log', () => {
  it('says who did what to which comment or parent, when and why, newest first, a page at a time', async () => {
    const page = await call(app, 'GET', '/api/moderation/audit?limit=5', { token: admin.token });
    const entries = await expectJson<AuditEntry[]>(page, 200);
    expect(entries).toHaveLength(5);
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => b - a));
    expect(page.headers.get('Link')).toBe(
      `</api/moderation/audit?limit=5&before=${entries[4]!.id}>; rel="next"`,
    );
    const all = await expectJson<AuditEntry[]>(
      call(app, 'GET', '/api/moderation/audit?limit=100', { token: admin.token }),
      200,
    );
    const lift = all.find((e) => e.action === 'user.lift')!;
    expect(lift).toMatchObject({
      actorName: 'Mo Moderator',
      actorUid: moderator.uid,
      targetType: 'user',
      reason: 'Apologised',
    });
    expect(new Set(all.map((e) => e.action))).toEqual(
      new Set([
        'comment.hold',
        'comment.remove',
        'comment.restore',
        'report.dismiss',
        'comment.purge',
        'user.suspend',
        'user.lift',
      ]),
    );
  });

  it('cannot be edited or deleted through the API', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
      for (const path of ['/api/moderation/audit', '/api/moderation/audit/1']) {
        const res = await call(app, method, path, {
          token: admin.token,
          body: method === 'DELETE' ? undefined : {},
        });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    }
  });
});

describe('counts', () => {
  it('equal a recount from the rows after every kind of action', async () => {
    now = at(500);
    const a = await post(author, 'Count me');
    const b = await post(author, 'Count me too');
    const reply = await post(readers[0]!, 'A counted reply', a);
    const pendingReply = await post(readers[1]!, 'http://a.example http://b.example http://c.example', a);
    await expectJson(
      call(app, 'PATCH', `/api/blog/comments/${b}`, { token: author.token, body: { content: 'Edited' } }),
      200,
    );
    await call(app, 'POST', `/api/blog/comments/${reply}/like`, { token: author.token });
    const held = await report(b, readers[0]!, 'child_safety');
    await expectJson(resolve(held.reportId, { action: 'restore', reason: 'Fine after all' }), 200);
    for (const r of readers) await report(a, r, 'inappropriate_content');
    const group = (await queue()).find((g) => g.comment.commentId === a)!;
    await expectJson(resolve(group.reportId, { action: 'remove', reason: 'Abusive' }), 200);
    await expectJson<ModeratedComment>(
      call(app, 'POST', `/api/moderation/comments/${pendingReply}/review`, {
        token: moderator.token,
        body: { action: 'approve', reason: null },
      }),
      200,
    );
    expect(
      (await call(app, 'DELETE', `/api/blog/comments/${reply}`, { token: readers[0]!.token })).status,
    ).toBe(204);
    expect(
      (
        await call(app, 'DELETE', `/api/blog/comments/${b}`, {
          token: moderator.token,
          body: { reason: 'Spam' },
        })
      ).status,
    ).toBe(204);
    const c = await post(author, 'Deleted by its author');
    expect((await call(app, 'DELETE', `/api/blog/comments/${c}`, { token: author.token })).status).toBe(204);

    const { rows: posts } = await sql<{ post_id: number; stored: number; actual: number }>`
      select post_id, comment_count as stored,
        (select count(*) from comments c where c.post_id = blog_posts.post_id and c.status = 'visible') as actual
      from blog_posts`.execute(db);
    for (const row of posts) expect(Number(row.stored), `post ${row.post_id}`).toBe(Number(row.actual));
    const { rows: comments } = await sql<{ comment_id: number; stored: number; actual: number }>`
      select comment_id, reply_count as stored,
        (select count(*) from comments r where r.parent_comment_id = comments.comment_id and r.status = 'visible') as actual
      from comments`.execute(db);
    for (const row of comments)
      expect(Number(row.stored), `comment ${row.comment_id}`).toBe(Number(row.actual));
    // And the API's count agrees with the thread as anonymous readers get it.
    const stats = await expectJson<{ commentCount: number }>(
      app.request(`/api/blog/posts/${slug}/stats`),
      200,
    );
    const thread = await expectJson<Comment[]>(
      app.request(`/api/blog/posts/${postId}/comments?limit=100`),
      200,
    );
    const visible = thread.reduce(
      (n, t) => n + (t.status === 'visible' ? 1 : 0) + t.replies.filter((r) => r.status === 'visible').length,
      0,
    );
    expect(stats.commentCount).toBe(visible);
  });
});
