// Thread pagination on the real app over a real SQLite file: newest first, ?limit and ?before,
// a Link header to the next page, and a walk over a 5,000-comment thread.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { THREAD_PAGE_DEFAULT, THREAD_PAGE_MAX } from '../../api/contract.ts';
import { createTestApp, onPostgres } from '../helpers/test-db.ts';

type Setup = Awaited<ReturnType<typeof createTestApp>>;
let app: Setup['app'];
let db: Setup['db'];
let bigPostId: number;
let smallPostId: number;
const TOTAL = 5_000;

interface ApiComment {
  comment_id: number;
  created_at: string;
  content: string;
  replies: { comment_id: number; content: string }[];
}

beforeAll(async () => {
  ({ app, db } = await createTestApp());
  const posts = await db
    .selectFrom('blog_posts')
    .select('post_id')
    .where('comment_count', '>', 0)
    .orderBy('post_id')
    .execute();
  bigPostId = posts[0]!.post_id;
  smallPostId = posts[1]!.post_id;
  await db.deleteFrom('comments').where('post_id', '=', bigPostId).execute();
  // 5,000 top-level comments, three to a timestamp (the cursor must break ties by id), and two
  // replies under each of Comment 100, 200, … 4900.
  const base = Date.parse('2026-01-01T00:00:00Z');
  const rows = Array.from({ length: TOTAL }, (_, i) => ({
    post_id: bigPostId,
    parent_comment_id: null,
    author_uid: null,
    author_name: `Parent ${i}`,
    author_avatar_url: null,
    content: `Comment ${i}`,
    created_at: new Date(base + Math.floor(i / 3) * 60_000).toISOString(),
    seed_key: null,
  }));
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('comments')
      .values(rows.slice(i, i + 500))
      .execute();
  }
  const parents = await db
    .selectFrom('comments')
    .select(['comment_id', 'created_at'])
    .where('post_id', '=', bigPostId)
    .where('content', 'like', 'Comment %00')
    .execute();
  for (const parent of parents) {
    for (const n of [1, 2]) {
      await db
        .insertInto('comments')
        .values({
          post_id: bigPostId,
          parent_comment_id: parent.comment_id,
          author_uid: null,
          author_name: 'Replier',
          author_avatar_url: null,
          content: `Reply ${n} to ${parent.comment_id}`,
          created_at: new Date(Date.parse(parent.created_at) + n * 1000).toISOString(),
          seed_key: null,
        })
        .execute();
    }
  }
});

async function page(postId: number, query = '') {
  const res = await app.request(`/api/blog/posts/${postId}/comments${query}`);
  return { res, body: (await res.json()) as ApiComment[] | { error: string } };
}

function nextLink(res: Response): string | null {
  const link = res.headers.get('Link');
  if (!link) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(match, link).not.toBeNull();
  return match![1]!;
}

describe('GET /api/blog/posts/:postId/comments pages', () => {
  it('answers the newest 50 top-level comments by default, with a Link to the next page', async () => {
    const { res, body } = await page(bigPostId);
    expect(res.status).toBe(200);
    const list = body as ApiComment[];
    expect(list).toHaveLength(THREAD_PAGE_DEFAULT);
    expect(list[0]!.content).toBe(`Comment ${TOTAL - 1}`);
    const last = list.at(-1)!;
    expect(nextLink(res)).toBe(
      `/api/blog/posts/${bigPostId}/comments?limit=${THREAD_PAGE_DEFAULT}&before=${last.comment_id}`,
    );
  });

  it('walks the whole 5,000-comment thread by following Link, each comment once, in order', async () => {
    const seen: ApiComment[] = [];
    let url: string | null = `/api/blog/posts/${bigPostId}/comments?limit=${THREAD_PAGE_MAX}`;
    let pages = 0;
    while (url) {
      const res = await app.request(url);
      expect(res.status).toBe(200);
      const list = (await res.json()) as ApiComment[];
      expect(list.length).toBeLessThanOrEqual(THREAD_PAGE_MAX);
      seen.push(...list);
      url = nextLink(res);
      pages += 1;
    }
    expect(pages).toBe(TOTAL / THREAD_PAGE_MAX);
    expect(seen).toHaveLength(TOTAL);
    expect(new Set(seen.map((c) => c.comment_id)).size).toBe(TOTAL);
    // Newest first: by time, and by id among comments of the same second.
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1]!, seen[i]!];
      expect(
        a.created_at > b.created_at || (a.created_at === b.created_at && a.comment_id > b.comment_id),
      ).toBe(true);
    }
    const withReplies = seen.filter((c) => c.replies.length > 0);
    expect(withReplies).toHaveLength(TOTAL / 100 - 1);
    for (const c of withReplies) {
      expect(c.replies.map((r) => r.content)).toEqual([
        `Reply 1 to ${c.comment_id}`,
        `Reply 2 to ${c.comment_id}`,
      ]);
    }
  });

  it('has no Link on the last page', async () => {
    const { res, body } = await page(smallPostId, `?limit=${THREAD_PAGE_MAX}`);
    expect(res.status).toBe(200);
    expect((body as ApiComment[]).length).toBeLessThan(THREAD_PAGE_MAX);
    expect(res.headers.get('Link')).toBeNull();
  });

  it.each([
    ['?limit=0', 'limit: must be an integer from 1 to 100'],
    ['?limit=101', 'limit: must be an integer from 1 to 100'],
    ['?limit=ten', 'limit: must be an integer from 1 to 100'],
    ['?before=abc', 'before: must be a comment id'],
  ])('refuses %s with a 400 that says why', async (query, error) => {
    const { res, body } = await page(bigPostId, query);
    expect(res.status).toBe(400);
    expect(body).toEqual({ error });
  });

  it('refuses a cursor that is not a top-level comment of this post', async () => {
    const [foreign] = await db
      .selectFrom('comments')
      .select('comment_id')
      .where('post_id', '=', smallPostId)
      .where('parent_comment_id', 'is', null)
      .execute();
    const [reply] = await db
      .selectFrom('comments')
      .select('comment_id')
      .where('post_id', '=', bigPostId)
      .where('parent_comment_id', 'is not', null)
      .execute();
    for (const before of [foreign!.comment_id, reply!.comment_id, 987_654_321]) {
      const { res, body } = await page(bigPostId, `?before=${before}`);
      expect(res.status).toBe(400);
      expect(body).toEqual({ error: 'before: no such top-level comment on this post' });
    }
  });

  // The same question asked of each database's planner, side by side.
  it.skipIf(onPostgres())(
    'reads a page through the thread index, not by sorting the whole thread',
    async () => {
      const plan = await sql<{ detail: string }>`explain query plan
      select * from comments where post_id = ${bigPostId} and parent_comment_id is null
      order by created_at desc, comment_id desc limit 51`.execute(db);
      const details = plan.rows.map((r) => r.detail).join('\n');
      expect(details).toMatch(/USING INDEX comments_thread_page/);
      expect(details).not.toMatch(/TEMP B-TREE/);
    },
  );

  // On a table this small PostgreSQL's planner rightly prefers reading it whole; with that ruled
  // out, and the table's statistics up to date, the page must come straight from the index, in its
  // order, with no sort.
  it.runIf(onPostgres())(
    'can read a page through the thread index on PostgreSQL too, without a sort',
    async () => {
      await sql`analyze comments`.execute(db);
      const details = await db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const plan = await sql<{ 'QUERY PLAN': string }>`explain
        select * from comments where post_id = ${bigPostId} and parent_comment_id is null
        order by created_at desc, comment_id desc limit 51`.execute(trx);
        return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(details).toMatch(/Index Scan Backward using comments_thread_page/);
      expect(details).not.toMatch(/Sort/);
    },
  );
});

describe('GET /api/blog/threads (first pages of many threads at once)', () => {
  let postIds: number[];
  let mixedPostId: number;

  beforeAll(async () => {
    const posts = (await (await app.request('/api/blog/posts')).json()) as { postId: number }[];
    postIds = posts.map((p) => p.postId);
    mixedPostId = postIds.find((id) => id !== bigPostId && id !== smallPostId)!;
    // A thread with every status a reader can meet: placeholders of held and removed comments, a
    // deleted comment kept for its shown reply, and what anonymous readers never see.
    const base = Date.parse('2026-02-01T00:00:00Z');
    let minute = 0;
    const add = async (status: string, parent: number | null = null) => {
      const { comment_id } = await db
        .insertInto('comments')
        .values({
          post_id: mixedPostId,
          parent_comment_id: parent,
          author_uid: null,
          author_name: `A ${status} one`,
          author_avatar_url: null,
          content: `${status} ${minute}`,
          created_at: new Date(base + minute++ * 60_000).toISOString(),
          seed_key: null,
          status: status as 'visible',
        })
        .returning('comment_id')
        .executeTakeFirstOrThrow();
      return comment_id;
    };
    const visible = await add('visible');
    for (const status of ['visible', 'held', 'pending', 'removed']) await add(status, visible);
    for (const status of ['held', 'removed', 'pending']) await add(status);
    await add('visible', await add('deleted'));
    await add('pending', await add('deleted'));
    await add('deleted');
  });

  const threads = async (query: string) => {
    const res = await app.request(`/api/blog/threads?${query}`);
    return {
      res,
      body: (await res.json()) as { postId: number; comments: ApiComment[]; next: number | null }[],
    };
  };

  it.each([undefined, 2, THREAD_PAGE_MAX])(
    'gives each post the first page its own thread gives (limit %s)',
    async (limit) => {
      const query = limit === undefined ? '' : `?limit=${limit}`;
      const { res, body } = await threads(`posts=${postIds.join(',')}${query.replace('?', '&')}`);
      expect(res.status).toBe(200);
      expect(body.map((t) => t.postId)).toEqual(postIds);
      for (const { postId, comments, next } of body) {
        const single = await page(postId, query);
        expect(comments, `post ${postId}`).toEqual(single.body);
        const link = nextLink(single.res);
        expect(next, `post ${postId}`).toBe(link === null ? null : Number(/before=(\d+)/.exec(link)![1]));
      }
      // The comparison met what it is about: a page with more to follow and every placeholder.
      expect(body.find((t) => t.postId === bigPostId)!.next).not.toBeNull();
      const mixed = body.find((t) => t.postId === mixedPostId)!.comments;
      const statuses = new Set(
        mixed.flatMap((c) => [c, ...c.replies]).map((c) => (c as { status?: string }).status),
      );
      if (limit !== 2) expect([...statuses].sort()).toEqual(['deleted', 'held', 'removed', 'visible']);
    },
  );

  it('leaves out ids that are not live posts and answers each post once, in the order asked', async () => {
    const { res, body } = await threads(`posts=${smallPostId},987654321,${bigPostId},${smallPostId}&limit=1`);
    expect(res.status).toBe(200);
    expect(body.map((t) => t.postId)).toEqual([smallPostId, bigPostId]);
  });

  it.each([
    ['', 'posts: must be post ids separated by commas'],
    ['posts=1,,2', 'posts: must be post ids separated by commas'],
    ['posts=abc', 'posts: must be post ids separated by commas'],
    [`posts=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, 'posts: must name at most 100 posts'],
    ['posts=1&limit=0', 'limit: must be an integer from 1 to 100'],
  ])('refuses %s with a 400 that says why', async (query, error) => {
    const { res, body } = await threads(query);
    expect(res.status).toBe(400);
    expect(body).toEqual({ error });
  });
});
