// The read cache under concurrent readers and in each encoding, on the real app over a real
// database: readers of an expired answer share one set of queries, and a compressed answer is the
// same JSON as the plain one.
import zlib from 'node:zlib';
import type { KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { readCache } from '../../api/middleware/read-cache.ts';
import { createApp } from '../../api/app.ts';
import { createTestDb, TEST_NOW } from '../helpers/test-db.ts';

/** The app over a fresh database, counting the queries it runs. */
async function countingApp() {
  const { db } = await createTestDb();
  let queries = 0;
  const counter: KyselyPlugin = {
    transformQuery: ({ node }) => {
      queries += 1;
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const app = createApp({
    db: db.withPlugin(counter),
    now: () => TEST_NOW,
    readCache: readCache({ ttlMs: 60_000 }),
  });
  return { app, db, queries: () => queries };
}

describe('the read cache, shared', () => {
  it('lets readers who arrive while an answer is being made wait for it', async () => {
    const { app, db, queries } = await countingApp();
    const { post_id: postId } = await db
      .selectFrom('blog_posts')
      .select('post_id')
      .orderBy('comment_count', 'desc')
      .executeTakeFirstOrThrow();
    const path = `/api/blog/posts/${postId}/comments`;

    // What one reader costs: the queries of a single answer.
    const { app: single, queries: singleQueries } = await countingApp();
    const alone = await (await single.request(path)).text();
    const perAnswer = singleQueries();
    expect(perAnswer).toBeGreaterThan(0);

    const answers = await Promise.all(Array.from({ length: 20 }, () => app.request(path)));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(new Set(bodies)).toEqual(new Set([alone]));
    expect(queries()).toBe(perAnswer);
  });

  it('gives each reader of an answer it cannot keep that reader own answer', async () => {
    const { app } = await countingApp();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => app.request('/api/blog/posts/1/comments?limit=0')),
    );
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'limit: must be an integer from 1 to 100' });
    }
  });

  it('keeps an answer in the encodings asked for, each the same JSON', async () => {
    const { app } = await countingApp();
    const get = (encoding?: string) =>
      app.request('/api/blog/posts', { headers: encoding ? { 'Accept-Encoding': encoding } : {} });
    const plain = await get();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    const json: unknown = await plain.json();
    const br = await get('gzip, deflate, br, zstd');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString())).toEqual(
      json,
    );
    const gzip = await get('gzip;q=1, br;q=0.5');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString())).toEqual(json);
    const none = await get('br;q=0, gzip;q=0');
    expect(none.headers.get('content-encoding')).toBeNull();
    expect(await none.json()).toEqual(json);
  });
});
