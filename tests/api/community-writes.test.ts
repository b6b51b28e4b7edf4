import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createFirebaseVerifier } from '../../api/auth/verifier.ts';
import { createRateLimiter } from '../../api/middleware/rate-limit.ts';
import {
  createEmulatorUser,
  EMULATOR_PROJECT_ID,
  type EmulatorUser,
} from '../../scripts/lib/auth-emulator.ts';
import { createTestApp } from '../helpers/test-db.ts';

type App = Awaited<ReturnType<typeof createTestApp>>['app'];
let app: App;
let host: string;
let alice: EmulatorUser;
let bob: EmulatorUser;
let slug: string;
let postId: number;

beforeAll(async () => {
  host = inject('authEmulatorHost');
  process.env.FIREBASE_AUTH_EMULATOR_HOST = host;
  ({ app } = await createTestApp({ verifyToken: createFirebaseVerifier(EMULATOR_PROJECT_ID) }));
  alice = await createEmulatorUser(host, { displayName: 'Alice Parent' });
  bob = await createEmulatorUser(host, {
    email: `bob.builder@${crypto.randomUUID().slice(0, 8)}.example.com`,
  });
  const posts = (await (await app.request('/api/blog/posts')).json()) as { slug: string; postId: number }[];
  ({ slug, postId } = posts[2]!);
});

function send(path: string, options: { token?: string; body?: unknown; method?: string } = {}) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  return app.request(path, {
    method: options.method ?? 'POST',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

async function likeCount(): Promise<number> {
  const res = await app.request(`/api/blog/posts/${slug}`);
  return ((await res.json()) as { likeCount: number }).likeCount;
}

describe('post likes', () => {
  it('reports an anonymous status without a token', async () => {
    const res = await app.request(`/api/blog/posts/${slug}/like-status`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ liked: false, likeCount: await likeCount() });
  });

  it('refuses a like without a valid token', async () => {
    for (const token of [undefined, 'garbage', 'a.b.c']) {
      const res = await send(`/api/blog/posts/${slug}/like`, { token });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toMatch(/token|Authentication/);
    }
  });

  it('toggles one like per user, with the count from the database', async () => {
    const before = await likeCount();
    const liked = await send(`/api/blog/posts/${slug}/like`, { token: alice.idToken });
    expect(liked.status).toBe(200);
    expect(await liked.json()).toEqual({ liked: true, likeCount: before + 1 });
    const status = await app.request(`/api/blog/posts/${slug}/like-status`, {
      headers: { Authorization: `Bearer ${alice.idToken}` },
    });
    expect(await status.json()).toEqual({ liked: true, likeCount: before + 1 });
    const unliked = await send(`/api/blog/posts/${slug}/like`, { token: alice.idToken });
    expect(await unliked.json()).toEqual({ liked: false, likeCount: before });
    expect(await likeCount()).toBe(before);
  });

  it('counts exactly 50 likes from 50 users liking at once', async () => {
    const users = await Promise.all(Array.from({ length: 50 }, () => createEmulatorUser(host)));
    const before = await likeCount();
    const answers = await Promise.all(
      users.map((u) => send(`/api/blog/posts/${slug}/like`, { token: u.idToken })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(await likeCount()).toBe(before + 50);
    // Undo, so other tests see the seeded count.
    await Promise.all(users.map((u) => send(`/api/blog/posts/${slug}/like`, { token: u.idToken })));
    expect(await likeCount()).toBe(before);
  });

  it('keeps liked state and count consistent under rapid double toggles', async () => {
    const before = await likeCount();
    const answers = await Promise.all(
      Array.from({ length: 7 }, () => send(`/api/blog/posts/${slug}/like`, { token: bob.idToken })),
    );
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as {
      liked: boolean;
      likeCount: number;
    }[];
    for (const body of bodies) expect(body.likeCount).toBe(before + (body.liked ? 1 : 0));
    const status = (await (
      await app.request(`/api/blog/posts/${slug}/like-status`, {
        headers: { Authorization: `Bearer ${bob.idToken}` },
      })
    ).json()) as { liked: boolean; likeCount: number };
    expect(status.liked).toBe(true); // an odd number of toggles
    expect(status.likeCount).toBe(before + 1);
    await send(`/api/blog/posts/${slug}/like`, { token: bob.idToken });
  });

  it('answers 404 for an unknown post', async () => {
    expect((await send('/api/blog/posts/no-such-post/like', { token: alice.idToken })).status).toBe(404);
  });
});

interface ApiComment {
  comment_id: number;
  content: string;
  author_name: string;
  created_at: string;
  like_count: number;
  reply_count?: number;
  parent_comment_id?: null;
  replies?: ApiComment[];
}

interface Posted {
  comment: ApiComment;
  commentCount: number;
}

async function comments(id = postId): Promise<ApiComment[]> {
  const res = await app.request(`/api/blog/posts/${id}/comments`);
  expect(res.status).toBe(200);
  return (await res.json()) as ApiComment[];
}

describe('comments', () => {
  it('lists top-level comments newest first with replies oldest first, in snake_case', async () => {
    const posts = (await (await app.request('/api/blog/posts')).json()) as {
      postId: number;
      commentCount: number;
    }[];
    const busiest = [...posts].sort((a, b) => b.commentCount - a.commentCount)[0]!;
    const list = await comments(busiest.postId);
    expect(list.length).toBeGreaterThan(0);
    const total = list.length + list.reduce((n, c) => n + c.replies!.length, 0);
    expect(total).toBe(busiest.commentCount);
    for (const comment of list) {
      expect(Object.keys(comment).sort()).toEqual([
        'author_avatar_url',
        'author_name',
        'can_edit_until',
        'comment_id',
        'content',
        'created_at',
        'edited_at',
        'is_own',
        'like_count',
        'parent_comment_id',
        'replies',
        'reply_count',
        'status',
        'status_reason',
      ]);
      expect(comment).toMatchObject({
        status: 'visible',
        is_own: false,
        can_edit_until: null,
        status_reason: null,
      });
      expect(comment.parent_comment_id).toBeNull();
      expect(comment.reply_count).toBe(comment.replies!.length);
      for (const reply of comment.replies!) {
        expect(Object.keys(reply).sort()).toEqual([
          'author_avatar_url',
          'author_name',
          'can_edit_until',
          'comment_id',
          'content',
          'created_at',
          'edited_at',
          'is_own',
          'like_count',
          'status',
          'status_reason',
        ]);
      }
      const replyTimes = comment.replies!.map((r) => r.created_at);
      expect(replyTimes).toEqual([...replyTimes].sort());
    }
    const times = list.map((c) => c.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('adds a trimmed comment with the author from the profile, and counts it', async () => {
    const before = (await (await app.request(`/api/blog/posts/${slug}`)).json()) as { commentCount: number };
    const res = await send(`/api/blog/posts/${postId}/comments`, {
      token: alice.idToken,
      body: { content: '   Lovely tips, thank you!  ', parentCommentId: null },
    });
    expect(res.status).toBe(201);
    const { comment: created, commentCount } = (await res.json()) as Posted;
    expect(created.content).toBe('Lovely tips, thank you!');
    expect(created.author_name).toBe('Alice Parent');
    expect((await comments())[0]!.comment_id).toBe(created.comment_id);
    const after = (await (await app.request(`/api/blog/posts/${slug}`)).json()) as { commentCount: number };
    expect(after.commentCount).toBe(before.commentCount + 1);
    expect(commentCount).toBe(after.commentCount);
  });

  it('names an author without a display name by their email', async () => {
    const res = await send(`/api/blog/posts/${postId}/comments`, {
      token: bob.idToken,
      body: { content: 'Hi all' },
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as Posted).comment.author_name).toBe('bob.builder');
  });

  it('accepts a reply to a top-level comment only', async () => {
    const top = (await comments())[0]!;
    const reply = await send(`/api/blog/posts/${postId}/comments`, {
      token: bob.idToken,
      body: { content: 'Agreed!', parentCommentId: top.comment_id },
    });
    expect(reply.status).toBe(201);
    const replyId = ((await reply.json()) as Posted).comment.comment_id;
    const refreshed = (await comments()).find((c) => c.comment_id === top.comment_id)!;
    expect(refreshed.replies!.map((r) => r.comment_id)).toContain(replyId);
    expect(refreshed.reply_count).toBe(refreshed.replies!.length);

    const nested = await send(`/api/blog/posts/${postId}/comments`, {
      token: bob.idToken,
      body: { content: 'Too deep', parentCommentId: replyId },
    });
    expect(nested.status).toBe(400);
    expect(await nested.json()).toEqual({
      error: 'parentCommentId: replies are allowed only on top-level comments',
    });
  });

  it('refuses a reply to a comment of another post or to no comment', async () => {
    const posts = (await (await app.request('/api/blog/posts')).json()) as {
      postId: number;
      commentCount: number;
    }[];
    const other = posts.find((p) => p.postId !== postId && p.commentCount > 0)!;
    const foreign = (await comments(other.postId))[0]!;
    for (const parentCommentId of [foreign.comment_id, 99_999_999]) {
      const res = await send(`/api/blog/posts/${postId}/comments`, {
        token: bob.idToken,
        body: { content: 'Hello', parentCommentId },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'parentCommentId: no such comment on this post' });
    }
  });

  it.each([
    [{ content: '   ' }, 'content: must not be blank'],
    [{ content: 'x'.repeat(2001) }, 'content: must be at most 2000 characters'],
    [{ content: 42 }, 'content: must be a string'],
    [{}, 'content: must be a string'],
  ])('rejects %j with a message', async (body, message) => {
    const res = await send(`/api/blog/posts/${postId}/comments`, { token: bob.idToken, body });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: message });
  });

  it('accepts exactly 2000 characters', async () => {
    const res = await send(`/api/blog/posts/${postId}/comments`, {
      token: bob.idToken,
      body: { content: 'y'.repeat(2000) },
    });
    expect(res.status).toBe(201);
  });

  it('needs a signed-in user', async () => {
    const res = await send(`/api/blog/posts/${postId}/comments`, { body: { content: 'Anonymous' } });
    expect(res.status).toBe(401);
  });

  it('answers 400 for a malformed post id and 404 for an unknown one', async () => {
    expect((await app.request('/api/blog/posts/abc/comments')).status).toBe(400);
    expect((await app.request('/api/blog/posts/0/comments')).status).toBe(400);
    expect((await app.request('/api/blog/posts/987654/comments')).status).toBe(404);
  });
});

describe('comment likes', () => {
  it('toggles one like per user and reports the count', async () => {
    const target = (await comments())[0]!;
    const first = await send(`/api/blog/comments/${target.comment_id}/like`, { token: alice.idToken });
    expect(await first.json()).toEqual({ liked: true, likeCount: target.like_count + 1 });
    const second = await send(`/api/blog/comments/${target.comment_id}/like`, { token: alice.idToken });
    expect(await second.json()).toEqual({ liked: false, likeCount: target.like_count });
  });

  it('answers 404 for an unknown comment and 401 without a token', async () => {
    expect((await send('/api/blog/comments/99999999/like', { token: alice.idToken })).status).toBe(404);
    expect((await send('/api/blog/comments/1/like')).status).toBe(401);
  });
});

describe('comment rate limit', () => {
  it('allows 5 comments a minute per user, then 429 with Retry-After', async () => {
    let now = 0;
    const limited = await createTestApp((db) => ({
      verifyToken: createFirebaseVerifier(EMULATOR_PROJECT_ID),
      commentLimiter: createRateLimiter(db, {
        scope: 'comments',
        limit: 5,
        windowMs: 60_000,
        now: () => now,
      }),
    }));
    const carol = await createEmulatorUser(host);
    const post = (await (await limited.app.request('/api/blog/posts')).json()) as { postId: number }[];
    const path = `/api/blog/posts/${post[0]!.postId}/comments`;
    const postOne = () =>
      limited.app.request(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${carol.idToken}` },
        body: JSON.stringify({ content: 'Quick thought' }),
      });
    for (let i = 0; i < 5; i++) expect((await postOne()).status).toBe(201);
    const sixth = await postOne();
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('Retry-After'))).toBe(60);
    expect(((await sixth.json()) as { error: string }).error).toMatch(/wait 60 seconds/);
    now = 60_000;
    expect((await postOne()).status).toBe(201);
  });
});
