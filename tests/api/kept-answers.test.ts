// A kept answer is the answer the app gave: for every GET route, an anonymous request is sent twice
// over real HTTP to the real server, first made by the app (fresh), then given by the read cache
// before the app runs (kept, api/node/served-api.ts); status, headers and bytes must be the same,
// without compression and with Brotli and gzip. Routes are read from the app itself, so a new
// route is covered without a change here.
import { isThreadStreamPath } from '../../api/routes/thread-stream.ts';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { BlogPost } from '../../api/contract.ts';
import { openDatabase } from '../../api/db/database.ts';
import { liveReleaseSource } from '../../api/lib/live-release.ts';
import { readCache } from '../../api/middleware/read-cache.ts';
import { startServer } from '../../api/server.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { expectJson } from '../helpers/parents.ts';
import { createTestDb, TEST_NOW } from '../helpers/test-db.ts';

interface RawAnswer {
  status: number;
  /** Every header but Date, as [lower-case name, value], sorted. */
  headers: [string, string][];
  body: Buffer;
}

/** One GET with node:http, so the bytes are the server's (fetch would decompress them). */
function get(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const pairs: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
          }
          resolve({
            status: res.statusCode!,
            headers: pairs
              .filter(([name]) => name !== 'date')
              .sort((a, b) => a.join().localeCompare(b.join())),
            body: Buffer.concat(chunks),
          });
        });
      })
      .on('error', reject);
  });
}

const ENCODINGS: Record<string, Record<string, string>> = {
  identity: {},
  br: { 'Accept-Encoding': 'br' },
  gzip: { 'Accept-Encoding': 'gzip' },
};

describe('kept answers', () => {
  it('are the same status, headers and bytes as the fresh answer, for every cached route', async () => {
    const { db, location } = await createTestDb();
    const app = createApp({ db });
    const posts = await expectJson<BlogPost[]>(app.request('/api/blog/posts'), 200);
    const post = [...posts].sort((a, b) => b.commentCount - a.commentCount)[0]!;
    const params: Record<string, string> = { slug: post.slug, postId: String(post.postId) };
    // Routes that answer only with a query get one.
    const queries: Record<string, string> = {
      '/api/blog/threads': `?posts=${post.postId}`,
      [`/api/blog/posts/${post.postId}/comments/changes`]: '?after=0',
    };
    const unknownPost = '/api/blog/posts/no-such-post';
    const paths = [
      ...new Set(
        app.routes
          // A thread's stream never ends and is never kept (tests/api/live-threads.test.ts).
          .filter((r) => r.method === 'GET' && !isThreadStreamPath(r.path))
          .map((r) => r.path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? '1'))
          .map((path) => path + (queries[path] ?? '')),
      ),
      unknownPost,
    ];
    await db.destroy();

    const kept: string[] = [];
    for (const [encoding, headers] of Object.entries(ENCODINGS)) {
      // A server and cache of its own per encoding, so each first request is made by the app.
      const own = openDatabase(location);
      // The release stays known for the whole test: with the server's one second, a check that
      // came more than a second after the last read found it unknown, and the answer not kept.
      const release = liveReleaseSource(own, { ttlMs: 60 * 60_000 });
      const cache = readCache({ ttlMs: 60 * 60_000 });
      const server = await startServer({
        db: own,
        siteDir: tempDir('nestling-empty-site-'),
        host: '127.0.0.1',
        port: 0,
        deps: { now: () => TEST_NOW, release, readCache: cache },
      });
      try {
        for (const path of paths) {
          const url = `${server.url}${path}`;
          const fresh = await get(url, headers);
          // Only anonymous 200 and 404 JSON answers are kept; the rest (sign-in required) are not.
          if (cache.answer(new Request(url, { headers }), release.known()) === undefined) {
            expect(fresh.status, `${path} is not kept`).not.toBe(200);
            continue;
          }
          if (encoding === 'identity') kept.push(path);
          const again = await get(url, headers);
          expect(again, `${path} (${encoding})`).toEqual(fresh);
          // Answers of a kilobyte or more come compressed as asked (smaller ones are not worth it).
          if (encoding !== 'identity' && fresh.body.length >= 1024) {
            expect(fresh.headers, `${path} (${encoding})`).toContainEqual(['content-encoding', encoding]);
          }
        }
      } finally {
        await server.close();
      }
    }
    // The public reads are all among them: this test cannot pass by checking nothing.
    expect(kept).toEqual(
      expect.arrayContaining([
        '/api/items',
        '/api/items/categories',
        '/api/community/feed',
        '/api/blog/posts',
        `/api/blog/posts/${post.slug}`,
        `/api/blog/posts/${post.slug}/stats`,
        `/api/blog/posts/${post.postId}/comments`,
        `/api/blog/threads?posts=${post.postId}`,
        `/api/blog/posts/${post.postId}/comments/changes?after=0`,
        unknownPost,
      ]),
    );
  });
});
