// Live threads (docs/product.md, "Comments"; docs/decisions/026-live-threads.md) through the real
// app over a real database, with parents from the real Auth emulator: a thread's stream gets new
// comments, replies, likes, edits, removals and deletions; a page resumes after the last change it
// saw, each change once; the polling fallback; heartbeats; 404s (a missing post, a withdrawn one);
// the three orders with their pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment, CommentPosted, Reply } from '../../api/contract.ts';
import {
  THREAD_EVENT_HEADER,
  type ThreadChange,
  type ThreadChanges,
} from '../../api/contract/live-threads.ts';
import { liveReleaseSource } from '../../api/lib/live-release.ts';
import { createThreadHub, type ThreadHub } from '../../api/lib/thread-events.ts';
import { createRateLimiter } from '../../api/middleware/rate-limit.ts';
import { call, emulatorVerifier, expectJson, newParent, type Parent } from '../helpers/parents.ts';
import { createTestApp, releaseNow } from '../helpers/test-db.ts';
import { openDatabase } from '../../api/db/database.ts';
import { startServer } from '../../api/server.ts';
import { tempDir } from '../../scripts/lib/temp.ts';

type Setup = Awaited<ReturnType<typeof createTestApp>>;
let app: Setup['app'];
let db: Setup['db'];
let location: string;
let hub: ThreadHub;
let postId: number;
let ada: Parent;
let ben: Parent;
let mo: Parent;

beforeAll(async () => {
  ({ app, db, location } = await createTestApp((db) => {
    hub = createThreadHub({ db });
    const generous = (scope: string) => createRateLimiter(db, { scope, limit: 10_000, windowMs: 60_000 });
    return {
      verifyToken: emulatorVerifier(),
      commentLimiter: generous('comments'),
      writeLimiter: generous('writes'),
      threads: hub,
      // The live release read at every request: a withdrawal is live as soon as its release is.
      release: liveReleaseSource(db, { ttlMs: 0 }),
    };
  }));
  const posts = await expectJson<{ postId: number }[]>(app.request('/api/blog/posts'), 200);
  postId = posts[2]!.postId;
  [ada, ben, mo] = await Promise.all([
    newParent(app, db, 'Ada'),
    newParent(app, db, 'Ben'),
    newParent(app, db, 'Mo', 'moderator'),
  ]);
});
afterAll(() => hub.close());

interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/** A thread's stream as a browser's EventSource reads it, one event at a time. */
async function openStream(options: { after?: number; lastEventId?: number; post?: number } = {}) {
  const query = options.after === undefined ? '' : `?after=${options.after}`;
  const res = await app.request(`/api/blog/posts/${options.post ?? postId}/comments/stream${query}`, {
    headers: options.lastEventId === undefined ? {} : { 'Last-Event-ID': String(options.lastEventId) },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const next = async (): Promise<SseEvent> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = { id: null as string | null, event: 'message', data: '' };
        for (const line of block.split('\n')) {
          if (line.startsWith(':') || line.startsWith('retry:')) continue;
          const [name, ...rest] = line.split(': ');
          const value = rest.join(': ');
          if (name === 'id') fields.id = value;
          if (name === 'event') fields.event = value;
          if (name === 'data') fields.data = value;
        }
        if (fields.data === '' && fields.id === null) continue;
        return fields;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += value;
    }
  };
  /** The next change (skipping the `ready` mark). */
  const change = async (): Promise<ThreadChange<Reply>> => {
    for (;;) {
      const event = await next();
      if (event.event === 'change') return JSON.parse(event.data) as ThreadChange<Reply>;
    }
  };
  return { next, change, close: () => reader.cancel() };
}

async function post(parent: Parent, content: string, parentCommentId: number | null = null): Promise<Reply> {
  const posted = await expectJson<CommentPosted>(
    call(app, 'POST', `/api/blog/posts/${postId}/comments`, {
      token: parent.token,
      body: { content, parentCommentId },
    }),
    201,
  );
  return posted.comment;
}

/** New top-level comments by id, as a page asks for them when its reader shows them. */
async function byId(ids: number[], token?: string): Promise<Comment[]> {
  return expectJson<Comment[]>(
    call(app, 'GET', `/api/blog/posts/${postId}/comments/by-id?ids=${ids.join(',')}`, { token }),
    200,
  );
}

async function threadEvent(): Promise<number> {
  const res = await app.request(`/api/blog/posts/${postId}/comments`);
  return Number(res.headers.get(THREAD_EVENT_HEADER));
}

describe('a thread stream', () => {
  it('brings new comments, replies, likes, edits, removals and deletions as they happen', async () => {
    const stream = await openStream({ after: await threadEvent() });
    expect((await stream.next()).event).toBe('ready');

    // A new top-level comment is announced, and its content comes when a reader shows it.
    const first = await post(ada, 'Has anyone tried the fold-flat stroller?');
    const added = await stream.change();
    expect(added).toEqual({
      id: expect.any(Number),
      kind: 'new',
      commentId: first.comment_id,
      commentCount: expect.any(Number),
    });
    expect(await byId([first.comment_id])).toMatchObject([
      {
        comment_id: first.comment_id,
        content: 'Has anyone tried the fold-flat stroller?',
        is_own: false,
        replies: [],
      },
    ]);

    const reply = await post(ben, 'Yes, it fits a small car boot.', first.comment_id);
    expect(await stream.change()).toMatchObject({
      kind: 'comment',
      parentCommentId: first.comment_id,
      replyCount: 1,
      comment: { comment_id: reply.comment_id },
    });

    await expectJson(
      call(app, 'POST', `/api/blog/comments/${first.comment_id}/like`, { token: ben.token }),
      200,
    );
    expect(await stream.change()).toMatchObject({ comment: { comment_id: first.comment_id, like_count: 1 } });

    await expectJson(
      call(app, 'PATCH', `/api/blog/comments/${reply.comment_id}`, {
        token: ben.token,
        body: { content: 'Yes, it fits a small car boot, even with shopping.' },
      }),
      200,
    );
    const edited = await stream.change();
    expect(edited).toMatchObject({
      comment: { content: 'Yes, it fits a small car boot, even with shopping.' },
    });
    expect(edited.kind === 'comment' && edited.comment.edited_at).toBeTruthy();

    // A moderator's removal reaches the open page as the placeholder readers see.
    const removed = await call(app, 'DELETE', `/api/blog/comments/${reply.comment_id}`, {
      token: mo.token,
      body: { reason: 'Off topic' },
    });
    expect(removed.status).toBe(204);
    expect(await stream.change()).toMatchObject({
      kind: 'comment',
      replyCount: 0,
      comment: { comment_id: reply.comment_id, status: 'removed', content: '', status_reason: null },
    });

    // The author deletes a comment that has no reply readers find: it leaves the thread.
    const lone = await post(ada, 'A second thought.');
    expect(await stream.change()).toMatchObject({ kind: 'new', commentId: lone.comment_id });
    await call(app, 'DELETE', `/api/blog/comments/${lone.comment_id}`, {
      token: ada.token,
      body: { reason: null },
    });
    const gone = await stream.change();
    expect(gone).toMatchObject({ kind: 'gone', commentId: lone.comment_id });
    await stream.close();
  });

  it('resumes after the last change a page saw, each change once, and the polling fallback agrees', async () => {
    const stream = await openStream({ after: await threadEvent() });
    await post(ada, 'One');
    const seen = await stream.change();
    await stream.close();
    // While the page is away (hidden, offline), two comments come.
    const ids = [(await post(ada, 'Two')).comment_id, (await post(ben, 'Three')).comment_id];
    const resumed = await openStream({ after: 0, lastEventId: seen.id });
    // What the catch-up read, then `ready`, then what came live meanwhile: where `ready` falls
    // between the two depends on whether the instance had read "Three" when the page came back.
    const events = [await resumed.next(), await resumed.next(), await resumed.next()];
    expect(events.filter((e) => e.event === 'ready')).toHaveLength(1);
    const [two, three] = events
      .filter((e) => e.event === 'change')
      .map((e) => JSON.parse(e.data) as ThreadChange<Reply>);
    expect([two, three].map((c) => c?.kind === 'new' && c.commentId)).toEqual(ids);
    expect(three!.id).toBeGreaterThan(two!.id);
    // Then it goes on live, and nothing it already had comes again.
    const four = await post(ben, 'Four');
    expect(await resumed.change()).toMatchObject({ kind: 'new', commentId: four.comment_id });
    await resumed.close();

    const polled = await expectJson<ThreadChanges<Reply>>(
      app.request(`/api/blog/posts/${postId}/comments/changes?after=${seen.id}`),
      200,
    );
    expect(polled.reset).toBe(false);
    expect(polled.changes.map((c) => c.kind === 'new' && c.commentId)).toEqual([...ids, four.comment_id]);
    expect(polled.last).toBeGreaterThanOrEqual(polled.changes.at(-1)!.id);
  });

  it('is a 404 for a post that is not live, and a 400 for a change id that is not one', async () => {
    for (const path of [
      '/api/blog/posts/99999999/comments/stream',
      '/api/blog/posts/99999999/comments/changes?after=0',
    ]) {
      const res = await app.request(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'Post not found' });
    }
    const bad = await app.request(`/api/blog/posts/${postId}/comments/changes?after=soon`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^after: /);
  });

  it('is a 404 for a post withdrawn in the studio, once the release without it is live', async () => {
    const posts = await expectJson<{ postId: number }[]>(app.request('/api/blog/posts'), 200);
    // Not the thread the other tests write to.
    const withdrawn = posts.findLast((p) => p.postId !== postId)!.postId;
    const open = await openStream({ post: withdrawn });
    expect((await open.next()).event).toBe('ready');
    await open.close();

    const eda = await newParent(app, db, 'Eda', 'editor');
    await expectJson(call(app, 'POST', `/api/studio/posts/${withdrawn}/withdraw`, { token: eda.token }), 202);
    await releaseNow(db);
    for (const path of [
      `/api/blog/posts/${withdrawn}/comments/stream`,
      `/api/blog/posts/${withdrawn}/comments/changes?after=0`,
    ]) {
      const res = await app.request(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'Post not found' });
    }
  });

  it('is written straight to the response on the server: headers, catch-up, live changes, a stop ends it', async () => {
    const before = await post(ada, 'Said before the page came back.');
    // The server's own connection to the same database, and its own hub (a server's close ends both).
    const served = await startServer({
      db: openDatabase(location),
      siteDir: tempDir('nestling-empty-site-'),
      host: '127.0.0.1',
      port: 0,
      deps: {
        verifyToken: emulatorVerifier(),
        commentLimiter: createRateLimiter(db, { scope: 'comments', limit: 10_000, windowMs: 60_000 }),
        safety: { holdFirstComment: false, escalationUrl: null, siteUrl: 'http://nestling.test' },
      },
    });
    const missing = await fetch(`${served.url}/api/blog/posts/99999999/comments/stream`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'Post not found' });

    const res = await fetch(`${served.url}/api/blog/posts/${postId}/comments/stream`, {
      headers: { 'Last-Event-ID': String((await threadEvent()) - 1) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('Cache-Control')).toBe('no-store, no-transform');
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) return false;
        text += value;
      }
      return true;
    };
    // The catch-up first, then `ready`.
    expect(await until(/event: ready\n/)).toBe(true);
    expect(text.indexOf(`"commentId":${before.comment_id},`)).toBeGreaterThan(0);
    expect(text.indexOf(`"commentId":${before.comment_id},`)).toBeLessThan(text.indexOf('event: ready'));

    const posted = await expectJson<CommentPosted>(
      fetch(`${served.url}/api/blog/posts/${postId}/comments`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ben.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: 'Written through the server.', parentCommentId: null }),
      }),
      201,
    );
    expect(await until(new RegExp(`"commentId":${posted.comment.comment_id},`))).toBe(true);

    // A stop ends the open stream (the page reconnects elsewhere), and the server closes.
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return 'ended';
    })();
    await served.close();
    expect(await ended).toBe('ended');
  });

  it('sends heartbeats, comment lines a page ignores, to an open stream', async () => {
    const beating = createThreadHub({ db, heartbeatMs: 5 });
    const reader = (await beating.open(postId, null)).getReader();
    const decoder = new TextDecoder();
    let text = '';
    // After `retry` and `ready`, a heartbeat: a line of its own that starts with a colon.
    while (!/(^|\n\n): \n\n/.test(text)) {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toMatch(/event: ready\n/);
    expect(beating.stats().streams).toBe(1);
    await reader.cancel();
    await beating.close();
  });

  it('drops a reader who never reads, with what waited for them', async () => {
    const small = createThreadHub({ db, maxBufferedBytes: 2_000 });
    const body = await small.open(postId, null);
    expect(small.stats().streams).toBe(1);
    // Replies arrive (each with its content); the stream is taken but never read.
    body.getReader();
    const parent = await post(ben, 'Tell us about your mornings.');
    for (let i = 0; i < 20; i += 1)
      await post(ada, `Reply number ${i} with some words to fill the buffer.`, parent.comment_id);
    while (small.stats().streams > 0) {
      small.poke();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(small.stats().streams).toBe(0);
    await small.close();
  });
});

describe('new comments by id', () => {
  it("gives the ones a page shows as its viewer sees them, newest first, and nothing of another thread's", async () => {
    const asked = await post(ada, 'Which car seat fits behind a tall driver?');
    const answer = await post(ben, 'The slim one from the fair did for us.', asked.comment_id);
    const later = await post(ben, 'Anyone selling a bouncer?');
    const others = await expectJson<{ postId: number }[]>(app.request('/api/blog/posts'), 200);
    const elsewhere = await expectJson<CommentPosted>(
      call(app, 'POST', `/api/blog/posts/${others.find((p) => p.postId !== postId)!.postId}/comments`, {
        token: ada.token,
        body: { content: 'On another post.', parentCommentId: null },
      }),
      201,
    );
    const ids = [
      asked.comment_id,
      answer.comment_id,
      later.comment_id,
      elsewhere.comment.comment_id,
      99999999,
    ];
    const shown = await byId(ids);
    expect(shown.map((c) => c.comment_id)).toEqual([later.comment_id, asked.comment_id]);
    expect(shown[1]).toMatchObject({
      content: 'Which car seat fits behind a tall driver?',
      is_own: false,
      reply_count: 1,
      replies: [{ comment_id: answer.comment_id, content: 'The slim one from the fair did for us.' }],
    });
    // The author sees their own as theirs (they may still edit it).
    const mine = await byId([asked.comment_id], ada.token);
    expect(mine[0]).toMatchObject({ is_own: true, can_edit_until: expect.any(String) });
    // One removed before it was shown comes as the placeholder readers see.
    await call(app, 'DELETE', `/api/blog/comments/${later.comment_id}`, {
      token: mo.token,
      body: { reason: 'Selling belongs in the marketplace' },
    });
    expect(await byId([later.comment_id])).toMatchObject([{ status: 'removed', content: '' }]);
  });

  it('names what is wrong with the ids, and is a 404 for a post that is not live', async () => {
    const path = `/api/blog/posts/${postId}/comments/by-id`;
    for (const [query, error] of [
      ['', 'ids: must be comment ids separated by commas'],
      ['?ids=1,,2', 'ids: must be comment ids separated by commas'],
      ['?ids=seven', 'ids: must be comment ids separated by commas'],
      [
        `?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`,
        'ids: must name at most 100 comments',
      ],
    ]) {
      const res = await app.request(`${path}${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.json()).toEqual({ error });
    }
    const missing = await app.request('/api/blog/posts/99999999/comments/by-id?ids=1');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'Post not found' });
  });
});

describe('thread orders', () => {
  it('reads newest, oldest and best, each page by page, and refuses any other order by name', async () => {
    const { app: sorted, db: sortedDb } = await createTestApp((db) => ({
      verifyToken: emulatorVerifier(),
      commentLimiter: createRateLimiter(db, { scope: 'comments', limit: 10_000, windowMs: 60_000 }),
      writeLimiter: createRateLimiter(db, { scope: 'writes', limit: 10_000, windowMs: 60_000 }),
    }));
    const target = (await expectJson<{ postId: number }[]>(sorted.request('/api/blog/posts'), 200))[3]!
      .postId;
    await sortedDb.deleteFrom('comments').where('post_id', '=', target).execute();
    // Five comments a minute apart; likes: c0 none, c1 40 (an old favourite), c2 one, c3 five, c4 none.
    const base = Date.parse('2026-11-01T00:00:00Z');
    const ids: number[] = [];
    for (const [i, likes] of [0, 40, 1, 5, 0].entries()) {
      const row = await sortedDb
        .insertInto('comments')
        .values({
          post_id: target,
          parent_comment_id: null,
          author_uid: null,
          author_name: `Parent ${i}`,
          author_avatar_url: null,
          content: `c${i}`,
          created_at: new Date(base + i * 60_000).toISOString(),
          seed_key: null,
          like_count: likes,
        })
        .returning('comment_id')
        .executeTakeFirstOrThrow();
      ids.push(row.comment_id);
    }
    async function walk(sort: string) {
      const seen: string[] = [];
      let url: string | null = `/api/blog/posts/${target}/comments?limit=2${sort ? `&sort=${sort}` : ''}`;
      while (url) {
        const res = await sorted.request(url);
        expect(res.status).toBe(200);
        seen.push(...((await res.json()) as Comment[]).map((c) => c.content));
        url = /<([^>]+)>; rel="next"/.exec(res.headers.get('Link') ?? '')?.[1] ?? null;
      }
      return seen;
    }
    expect(await walk('')).toEqual(['c4', 'c3', 'c2', 'c1', 'c0']);
    expect(await walk('newest')).toEqual(['c4', 'c3', 'c2', 'c1', 'c0']);
    expect(await walk('oldest')).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    // One like on a new comment stays below forty on an old one; among equals, newest first.
    expect(await walk('best')).toEqual(['c1', 'c3', 'c2', 'c4', 'c0']);

    const bad = await sorted.request(`/api/blog/posts/${target}/comments?sort=loudest`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'sort: must be newest, oldest, best, not "loudest"' });
    await sortedDb.destroy();
  });
});
