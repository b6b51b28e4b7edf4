// Graduated pre-moderation (docs/product.md, "Pre-moderation"), with MODERATION_HOLD_FIRST on: a
// parent's comments wait until one has been approved, and any comment with more than 2 links waits.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Comment, CommentPosted, ModeratedComment } from '../../api/contract.ts';
import { call, createCommunityApp, expectJson, newParent, type Parent } from '../helpers/parents.ts';

type Setup = Awaited<ReturnType<typeof createCommunityApp>>;
let app: Setup['app'];
let db: Setup['db'];
let postId: number;
let slug: string;
let moderator: Parent;
let reader: Parent;

beforeAll(async () => {
  ({ app, db } = await createCommunityApp({
    safety: { holdFirstComment: true, escalationUrl: null, siteUrl: 'http://nestling.test' },
  }));
  const posts = await expectJson<{ postId: number; slug: string }[]>(app.request('/api/blog/posts'), 200);
  ({ postId, slug } = posts[2]!);
  moderator = await newParent(app, db, 'Mo Moderator', 'moderator');
  reader = await newParent(app, db, 'Rae Reader');
});

const post = (parent: Parent, content: string, parentCommentId: number | null = null) =>
  expectJson<CommentPosted>(
    call(app, 'POST', `/api/blog/posts/${postId}/comments`, {
      token: parent.token,
      body: { content, parentCommentId },
    }),
    201,
  );

const review = (id: number, body: unknown) =>
  call(app, 'POST', `/api/moderation/comments/${id}/review`, { token: moderator.token, body });

async function thread(viewer?: Parent): Promise<Comment[]> {
  return expectJson<Comment[]>(
    call(app, 'GET', `/api/blog/posts/${postId}/comments?limit=100`, { token: viewer?.token }),
    200,
  );
}

const count = async () =>
  (await expectJson<{ commentCount: number }>(app.request(`/api/blog/posts/${slug}/stats`), 200))
    .commentCount;

describe('a new parent', () => {
  it('sees their first comments as awaiting review; nobody else does; counts wait too', async () => {
    const parent = await newParent(app, db, 'Nia Newcomer');
    const before = await count();
    const first = await post(parent, 'Hello, first time here!');
    expect(first.comment).toMatchObject({
      status: 'pending',
      content: 'Hello, first time here!',
      is_own: true,
    });
    expect(first.commentCount).toBe(before);
    // Until one is approved, the next one waits as well.
    const second = await post(parent, 'Also, a question.');
    expect(second.comment.status).toBe('pending');
    expect(await count()).toBe(before);

    const ids = [first.comment.comment_id, second.comment.comment_id];
    for (const viewer of [undefined, reader]) {
      expect((await thread(viewer)).some((c) => ids.includes(c.comment_id))).toBe(false);
    }
    const own = (await thread(parent)).filter((c) => ids.includes(c.comment_id));
    expect(own.map((c) => [c.status, c.content])).toEqual([
      ['pending', 'Also, a question.'],
      ['pending', 'Hello, first time here!'],
    ]);
    const seenByModerator = (await thread(moderator)).filter((c) => ids.includes(c.comment_id));
    expect(seenByModerator.map((c) => c.status_reason)).toEqual([
      'First comment from a new parent',
      'First comment from a new parent',
    ]);

    const queue = await expectJson<ModeratedComment[]>(
      call(app, 'GET', '/api/moderation/comments', { token: moderator.token }),
      200,
    );
    expect(queue.filter((c) => ids.includes(c.commentId)).map((c) => c.content)).toEqual([
      'Hello, first time here!',
      'Also, a question.',
    ]);

    // Approving one shows and counts it; the parent's next comments go straight up.
    const approved = await expectJson<ModeratedComment>(
      review(ids[0]!, { action: 'approve', reason: null }),
      200,
    );
    expect(approved.status).toBe('visible');
    expect(await count()).toBe(before + 1);
    expect((await thread()).find((c) => c.comment_id === ids[0])).toMatchObject({
      status: 'visible',
      content: 'Hello, first time here!',
    });
    const third = await post(parent, 'Thanks for having me.');
    expect(third.comment.status).toBe('visible');
    expect(third.commentCount).toBe(before + 2);

    // Rejecting needs a reason, which its author then sees.
    const noReason = await review(ids[1]!, { action: 'reject', reason: '  ' });
    expect(noReason.status).toBe(400);
    expect(await noReason.json()).toEqual({ error: 'reason: say why the comment is rejected' });
    await expectJson(review(ids[1]!, { action: 'reject', reason: 'Off topic for this post.' }), 200);
    expect((await thread(parent)).find((c) => c.comment_id === ids[1])).toMatchObject({
      status: 'removed',
      content: '',
      status_reason: 'Off topic for this post.',
    });
    expect(await count()).toBe(before + 2);
    const twice = await review(ids[1]!, { action: 'approve', reason: null });
    expect(twice.status).toBe(409);
    expect(await twice.json()).toEqual({ error: 'This comment is not waiting for review (it is removed).' });

    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'actor_name', 'reason'])
      .where('target_id', 'in', ids.map(String))
      .orderBy('audit_id')
      .execute();
    expect(audit).toEqual([
      { action: 'comment.approve', actor_name: 'Mo Moderator', reason: null },
      { action: 'comment.reject', actor_name: 'Mo Moderator', reason: 'Off topic for this post.' },
    ]);
  });

  it('never holds a moderator back', async () => {
    const fresh = await newParent(app, db, 'Moe Newmod', 'moderator');
    expect((await post(fresh, 'Welcome, everyone.')).comment.status).toBe('visible');
  });
});

describe('links', () => {
  it('holds any comment with more than 2 links, also from an established parent and on edit', async () => {
    const before = await count();
    const two = await post(reader, 'See https://a.example and www.b.example');
    expect(two.comment.status).toBe('pending'); // still the reader's first comment
    await expectJson(review(two.comment.comment_id, { action: 'approve', reason: 'Useful links' }), 200);
    expect(await count()).toBe(before + 1);

    const ok = await post(reader, 'Two links: https://a.example https://b.example');
    expect(ok.comment.status).toBe('visible');
    const three = await post(reader, 'https://a.example https://b.example http://c.example');
    expect(three.comment).toMatchObject({
      status: 'pending',
      content: 'https://a.example https://b.example http://c.example',
    });
    expect(three.commentCount).toBe(before + 2);
    const reason = (await thread(moderator)).find(
      (c) => c.comment_id === three.comment.comment_id,
    )!.status_reason;
    expect(reason).toBe('More than 2 links');

    // An edit that adds links sends a visible comment back to review and out of the counts.
    const edited = await expectJson<CommentPosted>(
      call(app, 'PATCH', `/api/blog/comments/${ok.comment.comment_id}`, {
        token: reader.token,
        body: { content: 'Now: https://a.example https://b.example https://c.example' },
      }),
      200,
    );
    expect(edited.comment.status).toBe('pending');
    expect(edited.commentCount).toBe(before + 1);
  });
});
