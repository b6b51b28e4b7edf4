// Parents' control of their own words (docs/product.md, "Editing and deleting"): the 15-minute edit
// window on an injected clock, deletion with and without replies, and moderators' removals.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Comment, CommentPosted } from '../../api/contract.ts';
import { call, createCommunityApp, expectJson, newParent, type Parent } from '../helpers/parents.ts';
import { TEST_NOW } from '../helpers/test-db.ts';

type Setup = Awaited<ReturnType<typeof createCommunityApp>>;
let app: Setup['app'];
let db: Setup['db'];
let now = new Date(TEST_NOW);
let postId: number;
let slug: string;
let author: Parent;
let other: Parent;
let moderator: Parent;

beforeAll(async () => {
  ({ app, db } = await createCommunityApp({ now: () => now }));
  const posts = await expectJson<{ postId: number; slug: string }[]>(app.request('/api/blog/posts'), 200);
  ({ postId, slug } = posts[3]!);
  author = await newParent(app, db, 'Ada Author');
  other = await newParent(app, db, 'Oli Other');
  moderator = await newParent(app, db, 'Mo Moderator', 'moderator');
});

const at = (minutes: number) => new Date(TEST_NOW.getTime() + minutes * 60_000);

async function post(parent: Parent, content: string, parentCommentId: number | null = null) {
  return expectJson<CommentPosted>(
    call(app, 'POST', `/api/blog/posts/${postId}/comments`, {
      token: parent.token,
      body: { content, parentCommentId },
    }),
    201,
  );
}

const edit = (parent: Parent, id: number, content: unknown) =>
  call(app, 'PATCH', `/api/blog/comments/${id}`, { token: parent.token, body: { content } });

const remove = (parent: Parent | null, id: number, body?: unknown) =>
  call(app, 'DELETE', `/api/blog/comments/${id}`, { token: parent?.token, body });

async function thread(viewer?: Parent): Promise<Comment[]> {
  return expectJson<Comment[]>(
    call(app, 'GET', `/api/blog/posts/${postId}/comments`, { token: viewer?.token }),
    200,
  );
}

async function commentCount(): Promise<number> {
  return (await expectJson<{ commentCount: number }>(app.request(`/api/blog/posts/${slug}`), 200))
    .commentCount;
}

const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;

describe('editing', () => {
  it('lets the author edit for 15 minutes, marks it edited and leaves the counts', async () => {
    now = at(0);
    const { comment } = await post(author, 'First draft');
    expect(comment.can_edit_until).toBe(at(15).toISOString());
    const count = await commentCount();

    now = at(14.99);
    const edited = await expectJson<CommentPosted>(edit(author, comment.comment_id, '  Second draft  '), 200);
    expect(edited.comment).toMatchObject({
      comment_id: comment.comment_id,
      content: 'Second draft',
      edited_at: now.toISOString(),
      status: 'visible',
    });
    expect(edited.commentCount).toBe(count);
    const shown = (await thread()).find((c) => c.comment_id === comment.comment_id)!;
    expect(shown).toMatchObject({
      content: 'Second draft',
      edited_at: now.toISOString(),
      can_edit_until: null,
    });
    expect((await thread(author)).find((c) => c.comment_id === comment.comment_id)!.can_edit_until).toBe(
      at(15).toISOString(),
    );

    now = at(15);
    const late = await edit(author, comment.comment_id, 'Third draft');
    expect(late.status).toBe(403);
    expect(await errorOf(late)).toBe(
      'Comments can be edited for 15 minutes after posting; the time for this one is over.',
    );
    expect(
      (await thread(author)).find((c) => c.comment_id === comment.comment_id)!.can_edit_until,
    ).toBeNull();
  });

  it('refuses edits by anyone else, blank text, unknown comments and comments under review', async () => {
    now = at(100);
    const { comment } = await post(author, 'Mine to edit');
    const theirs = await edit(other, comment.comment_id, 'Hijacked');
    expect(theirs.status).toBe(403);
    expect(await errorOf(theirs)).toBe('You can edit only your own comments.');
    expect((await edit(moderator, comment.comment_id, 'Moderated words')).status).toBe(403);
    const blank = await edit(author, comment.comment_id, '   ');
    expect(blank.status).toBe(400);
    expect(await errorOf(blank)).toBe('content: must not be blank');
    expect((await edit(author, 99_999_999, 'Nothing there')).status).toBe(404);
    expect(
      (await call(app, 'PATCH', `/api/blog/comments/${comment.comment_id}`, { body: { content: 'x' } }))
        .status,
    ).toBe(401);

    await expectJson(
      call(app, 'POST', `/api/blog/comments/${comment.comment_id}/reports`, {
        token: other.token,
        body: { category: 'inappropriate_content', note: null },
      }),
      201,
    );
    const reported = await edit(author, comment.comment_id, 'Quietly changed');
    expect(reported.status).toBe(409);
    expect(await errorOf(reported)).toMatch(
      /reported and cannot be edited until a moderator has reviewed it/,
    );
  });
});

describe('deleting', () => {
  it('removes a comment without replies from the thread and the counts', async () => {
    now = at(200);
    const { comment } = await post(author, 'Posted in haste');
    const count = await commentCount();
    const res = await remove(author, comment.comment_id);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await commentCount()).toBe(count - 1);
    for (const viewer of [undefined, author, moderator]) {
      expect((await thread(viewer)).some((c) => c.comment_id === comment.comment_id)).toBe(false);
    }
    const row = await db
      .selectFrom('comments')
      .selectAll()
      .where('comment_id', '=', comment.comment_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'deleted', content: '', purge_after: null });
    expect((await remove(author, comment.comment_id)).status).toBe(404);
  });

  it('keeps a comment with replies as "deleted" without its author; its replies stay and count', async () => {
    now = at(300);
    const { comment } = await post(author, 'Asking for advice');
    const { comment: reply } = await post(other, 'Here is some advice', comment.comment_id);
    const count = await commentCount();
    expect((await remove(author, comment.comment_id)).status).toBe(204);
    expect(await commentCount()).toBe(count - 1);
    const shown = (await thread()).find((c) => c.comment_id === comment.comment_id)!;
    expect(shown).toMatchObject({
      status: 'deleted',
      content: '',
      author_name: '',
      author_avatar_url: null,
      reply_count: 1,
    });
    expect(shown.replies.map((r) => [r.comment_id, r.content])).toEqual([
      [reply.comment_id, 'Here is some advice'],
    ]);

    // Deleting the last reply then makes the deleted comment disappear, and counts follow.
    expect((await remove(other, reply.comment_id)).status).toBe(204);
    expect(await commentCount()).toBe(count - 2);
    expect((await thread()).some((c) => c.comment_id === comment.comment_id)).toBe(false);
  });

  it("refuses another parent's deletion; a moderator removes it with a reason its author sees", async () => {
    now = at(400);
    const { comment } = await post(author, 'Rude words');
    const { comment: reply } = await post(other, 'A calm reply', comment.comment_id);
    const count = await commentCount();
    const theirs = await remove(other, comment.comment_id);
    expect(theirs.status).toBe(403);
    expect(await errorOf(theirs)).toBe('You can delete only your own comments.');
    expect((await remove(null, comment.comment_id)).status).toBe(401);
    const noReason = await remove(moderator, comment.comment_id);
    expect(noReason.status).toBe(400);
    expect(await errorOf(noReason)).toBe("reason: say why you are removing another parent's comment");

    expect((await remove(moderator, comment.comment_id, { reason: 'Name-calling' })).status).toBe(204);
    expect(await commentCount()).toBe(count - 1);
    const anonymous = (await thread()).find((c) => c.comment_id === comment.comment_id)!;
    expect(anonymous).toMatchObject({
      status: 'removed',
      content: '',
      author_name: 'Ada Author',
      status_reason: null,
    });
    expect(anonymous.replies.map((r) => r.comment_id)).toEqual([reply.comment_id]);
    const own = (await thread(author)).find((c) => c.comment_id === comment.comment_id)!;
    expect(own).toMatchObject({
      status: 'removed',
      content: '',
      status_reason: 'Name-calling',
      is_own: true,
    });
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', String(comment.comment_id))
      .execute();
    expect(audit.map((a) => [a.action, a.actor_name, a.reason])).toEqual([
      ['comment.remove', 'Mo Moderator', 'Name-calling'],
    ]);
  });

  it('keeps the words of a deleted comment reported for child safety as evidence for a year', async () => {
    now = at(500);
    const { comment } = await post(author, 'Words that are evidence');
    await expectJson(
      call(app, 'POST', `/api/blog/comments/${comment.comment_id}/reports`, {
        token: other.token,
        body: { category: 'child_safety', note: null },
      }),
      201,
    );
    expect((await remove(author, comment.comment_id)).status).toBe(204);
    const row = await db
      .selectFrom('comments')
      .selectAll()
      .where('comment_id', '=', comment.comment_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'deleted', content: 'Words that are evidence' });
    expect(row.purge_after).toBe(new Date(now.getTime() + 365 * 86_400_000).toISOString());
    // Nobody but moderators is sent the words (and nobody sees a deleted comment without replies).
    expect((await thread(author)).some((c) => c.comment_id === comment.comment_id)).toBe(false);
  });
});
