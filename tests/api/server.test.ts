import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readCache } from '../../api/middleware/read-cache.ts';
import { createApp } from '../../api/app.ts';
import { MAX_BODY_BYTES } from '../../api/contract.ts';
import { CSP_HASHES_FILE, RENDER_KEYS_FILE } from '../../api/lib/release-files.ts';
import { liveRelease } from '../../api/db/queries/releases.ts';
import { createBufferedRateLimiter } from '../../api/middleware/rate-limit.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import { RawConnection, requestHead } from '../helpers/raw-http.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { tempDir } from '../../scripts/lib/temp.ts';

// The server over a tiny hand-made build of the live release: what matters here is how it serves files.
let server: RunningServer;
/** SITE_DIR: the live release's folder in it is the hand-made site. */
let siteRoot: string;
let siteDir: string;
let post: { slug: string; postId: number };

beforeAll(async () => {
  const { db } = await createTestDb();
  siteRoot = tempDir('nestling-site-');
  siteDir = path.join(siteRoot, (await liveRelease(db))!.folder);
  fs.mkdirSync(path.join(siteDir, '_astro'), { recursive: true });
  fs.mkdirSync(path.join(siteDir, 'blog'));
  fs.writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><h1>Home</h1>');
  fs.writeFileSync(path.join(siteDir, '404.html'), '<!doctype html><h1>404 Page Not Found</h1>');
  fs.writeFileSync(path.join(siteDir, 'blog', '404.html'), '<!doctype html><h1>Post Not Found</h1>');
  const js = 'console.log("nestling");\n'.repeat(200);
  fs.writeFileSync(path.join(siteDir, '_astro', 'app.abc123.js'), js);
  fs.writeFileSync(path.join(siteDir, '_astro', 'app.abc123.js.br'), zlib.brotliCompressSync(js));
  // The release's bookkeeping, as a build writes it (an older build compressed it too).
  const keys = JSON.stringify({ codeKey: 'abc', pages: { '/': 'k1' }, posts: { '/blog/a': 1 } });
  fs.writeFileSync(path.join(siteDir, RENDER_KEYS_FILE), keys);
  fs.writeFileSync(path.join(siteDir, `${RENDER_KEYS_FILE}.br`), zlib.brotliCompressSync(keys));
  fs.writeFileSync(path.join(siteDir, CSP_HASHES_FILE), '["sha256-abc"]');
  // As in production: anonymous reads are cached (and compressed) for a second.
  server = await startServer({
    db,
    siteDir: siteRoot,
    host: '127.0.0.1',
    port: 0,
    deps: { readCache: readCache({ ttlMs: 1_000 }) },
  });
  post = ((await (await fetch(`${server.url}/api/blog/posts`)).json()) as (typeof post)[])[0]!;
});

afterAll(async () => {
  await server.close();
});

describe('the server', () => {
  it('serves pages and the API on one port', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>Home</h1>');
    expect(page.headers.get('cache-control')).toBe('public, no-cache');
    const items = await fetch(`${server.url}/api/items`);
    expect(items.status).toBe(200);
    expect(((await items.json()) as unknown[]).length).toBeGreaterThan(0);
  });

  it('revalidates HTML with If-Modified-Since', async () => {
    const first = await fetch(`${server.url}/`);
    const lastModified = first.headers.get('last-modified')!;
    expect(lastModified).toBeTruthy();
    const again = await fetch(`${server.url}/`, { headers: { 'If-Modified-Since': lastModified } });
    expect(again.status).toBe(304);
  });

  it('serves hashed assets precompressed with immutable caching', async () => {
    const res = await fetch(`${server.url}/_astro/app.abc123.js`, { headers: { 'Accept-Encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toContain('nestling');
  });

  it('never sends the release’s bookkeeping: the render keys and CSP hashes are for the server', async () => {
    for (const file of [RENDER_KEYS_FILE, `${RENDER_KEYS_FILE}.br`, CSP_HASHES_FILE]) {
      const res = await fetch(`${server.url}/${file}`, { headers: { 'Accept-Encoding': 'br' } });
      expect(res.status, file).toBe(404);
      expect(await res.text()).toContain('404 Page Not Found');
    }
    // The server itself still reads the hashes for its CSP.
    const page = await fetch(`${server.url}/`);
    expect(page.headers.get('content-security-policy')).toContain("'sha256-abc'");
  });

  it('compresses larger API answers in the encoding the client prefers', async () => {
    const get = (encoding: string) =>
      fetch(`${server.url}/api/blog/posts`, { headers: { 'Accept-Encoding': encoding } });
    const plain = await get('identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    const expected: unknown = await plain.json();
    for (const [accept, encoding] of [
      ['gzip', 'gzip'],
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0, gzip', 'gzip'],
    ]) {
      const res = await get(accept!);
      expect(res.headers.get('content-encoding'), accept).toBe(encoding);
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(await res.json()).toEqual(expected);
    }
    // A small answer is not worth compressing.
    const small = await fetch(`${server.url}/api/community/count`, {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.json()).toEqual({ total: expect.any(Number) });
  });

  it('sends the security headers on pages, API answers, cached answers and errors', async () => {
    const pages = [await fetch(`${server.url}/`), await fetch(`${server.url}/no/such/page`)];
    const api = [
      await fetch(`${server.url}/api/items`),
      // The same answer again, from the read cache, and in another encoding.
      await fetch(`${server.url}/api/items`),
      await fetch(`${server.url}/api/items`, { headers: { 'Accept-Encoding': 'br' } }),
      await fetch(`${server.url}/api/no-such-endpoint`),
      await fetch(`${server.url}/api/blog/posts/${post.slug}/like`, { method: 'POST' }),
      await fetch(`${server.url}/api/blog/posts/${post.slug}/view`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: 'x',
      }),
      // A write's answer, which the read cache does not keep.
      await fetch(`${server.url}/api/blog/posts/${post.slug}/view`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
      }),
    ];
    expect(pages.map((r) => r.status)).toEqual([200, 404]);
    expect(api.map((r) => r.status)).toEqual([200, 200, 200, 404, 401, 415, 200]);
    for (const res of [...pages, ...api]) {
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('strict-transport-security')).toBeNull();
      await res.arrayBuffer();
    }
    // Pages allow their own scripts; a JSON answer allows nothing at all.
    for (const res of pages) expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    for (const res of api) {
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      // Which release answered, on kept and unkept answers alike.
      expect(res.headers.get('x-nestling-release')).toMatch(/^\d+$/);
    }
    const behindTls = [
      await fetch(`${server.url}/api/items`, { headers: { 'X-Forwarded-Proto': 'https' } }),
      await fetch(`${server.url}/api/blog/posts/${post.slug}/view`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-Proto': 'https' },
      }),
    ];
    for (const res of behindTls) {
      expect(res.status).toBe(200);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      await res.arrayBuffer();
    }
    // The read cache keeps answers over HTTPS apart: plain HTTP still gets none.
    const plain = await fetch(`${server.url}/api/items`);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    await plain.arrayBuffer();
  });

  it('sends them on a 500 too, with no stack trace, and logs the error', async () => {
    const { db } = await createTestDb();
    // The live release cannot be read: the request fails before any route or the read cache.
    const failure = new Error('the database is unavailable');
    const app = createApp({
      db,
      readCache: readCache({ ttlMs: 1_000 }),
      release: { current: () => Promise.reject(failure), known: () => undefined },
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const res = await app.request('/api/items');
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: 'Internal server error' });
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(logged).toHaveBeenCalledWith(failure);
    } finally {
      logged.mockRestore();
      await db.destroy();
    }
  });

  it('answers unknown paths with the 404 screen and a 404 status', async () => {
    const res = await fetch(`${server.url}/no/such/page`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('404 Page Not Found');
    const post = await fetch(`${server.url}/blog/no-such-post`);
    expect(post.status).toBe(404);
    expect(await post.text()).toContain('Post Not Found');
  });

  it('redirects /privacy to the privacy policy', async () => {
    const res = await fetch(`${server.url}/privacy`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/privacy-policy');
  });
});

describe('graceful shutdown', () => {
  it('finishes the in-flight request, then closes the database', async () => {
    const { db } = await createTestDb();
    const own = await startServer({ db, siteDir: siteRoot, host: '127.0.0.1', port: 0 });
    // A request whose body is still to come: once the server says to go on (100 Continue), it
    // has the request in hand, so the stop below begins with it in flight.
    const connection = await RawConnection.open(own.url);
    const body = JSON.stringify({ email: 'parent@example.com', confirmed: true });
    connection.write(
      requestHead('POST', '/api/account/deletion-requests', {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        Expect: '100-continue',
        Connection: 'close',
      }),
    );
    expect((await connection.response()).status).toBe(100);
    const closed = own.close();
    connection.write(body);
    const answer = await connection.response();
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toEqual({ received: true });
    await closed;
    await expect(db.selectFrom('items').selectAll().execute()).rejects.toThrow();
    await expect(fetch(`${own.url}/`)).rejects.toThrow();
  });

  it('stops at once after serving files to a client that keeps its connections open', async () => {
    const { db } = await createTestDb();
    const own = await startServer({ db, siteDir: siteRoot, host: '127.0.0.1', port: 0 });
    // Fetch keeps each connection for as long as the server's keep-alive (65 s), and the stop comes
    // the moment the last file has been read: before the server has seen its response finish.
    expect(await (await fetch(`${own.url}/`)).text()).toContain('<h1>Home</h1>');
    const closed = own.close().then(() => 'closed');
    const slow = new Promise((resolve) => setTimeout(resolve, 10_000, 'still open after 10 s'));
    expect(await Promise.race([closed, slow])).toBe('closed');
  });

  it('stops at once while a client holds a connection it has sent nothing on (a preconnect)', async () => {
    const { db } = await createTestDb();
    const own = await startServer({ db, siteDir: siteRoot, host: '127.0.0.1', port: 0 });
    const spare = await RawConnection.open(own.url);
    // Node counts such a connection as waiting for headers, not idle: it held the stop until the
    // headers timeout (66 s).
    const closed = own.close().then(() => 'closed');
    const slow = new Promise((resolve) => setTimeout(resolve, 10_000, 'still open after 10 s'));
    expect(await Promise.race([closed, slow])).toBe('closed');
    expect(['end', 'reset']).toContain(await spare.ended);
  });
});

describe('request bodies through the server', () => {
  it('hands the API the body a request has, in full or chunked, and none when it has none', async () => {
    const json = JSON.stringify({ email: 'parent@example.com', confirmed: true });
    const connection = await RawConnection.open(server.url);
    const requests = [
      requestHead('POST', '/api/account/deletion-requests', {
        'Content-Type': 'application/json',
        'Content-Length': json.length,
      }) + json,
      requestHead('POST', '/api/account/deletion-requests', {
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
      }) +
        `${(10).toString(16)}\r\n${json.slice(0, 10)}\r\n${(json.length - 10).toString(16)}\r\n${json.slice(10)}\r\n0\r\n\r\n`,
      // A byte-order mark is not part of the JSON (as a web Request's text() reads it); a body
      // that is not JSON is the client's error.
      requestHead('POST', '/api/account/deletion-requests', {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(`\ufeff${json}`),
      }) + `\ufeff${json}`,
      requestHead('POST', '/api/account/deletion-requests', {
        'Content-Type': 'application/json',
        'Content-Length': json.length - 1,
      }) + json.slice(0, -1),
      // A view beacon as browsers send it, and as a client that declares no length at all.
      requestHead('POST', `/api/blog/posts/${post.slug}/view`, { 'Content-Length': 0 }),
      requestHead('POST', `/api/blog/posts/${post.slug}/view`),
    ];
    const answers = [];
    for (const request of requests) {
      connection.write(request);
      answers.push(await connection.response());
    }
    connection.close();
    expect(answers.map((a) => [a.status, JSON.parse(a.body)])).toEqual([
      [201, { received: true }],
      [201, { received: true }],
      [201, { received: true }],
      [400, { error: 'Malformed JSON in request body' }],
      [200, { viewCount: expect.any(Number) }],
      [200, { viewCount: expect.any(Number) }],
    ]);
  });
});

/** Writes the API refuses without reading their body, and the answer each gets. */
const REFUSED = [
  {
    name: '413 for a body over the limit',
    path: () => `/api/blog/posts/${post.slug}/view`,
    type: 'application/json',
    size: MAX_BODY_BYTES + 1,
    status: 413,
  },
  {
    name: '401 for a comment without a token',
    path: () => `/api/blog/posts/${post.postId}/comments`,
    type: 'application/json',
    size: 40,
    status: 401,
  },
  {
    name: '415 for a body that is not JSON',
    path: () => `/api/blog/posts/${post.slug}/view`,
    type: 'text/plain',
    size: 40,
    status: 415,
  },
];

const head = (path: string, type: string, size: number) =>
  requestHead('POST', path, { 'Content-Type': type, 'Content-Length': size });

describe('a connection after a body the API refused', () => {
  it.each(REFUSED)(
    '$name: says Connection: close while the body is still coming, ends cleanly, next request works',
    async (refused) => {
      const connection = await RawConnection.open(server.url);
      // The head alone: a client still uploading, or one whose upload is slow.
      connection.write(head(refused.path(), refused.type, refused.size));
      const answer = await connection.response();
      expect(answer.status).toBe(refused.status);
      expect(JSON.parse(answer.body)).toEqual({ error: expect.any(String) });
      expect(answer.headers.connection).toBe('close');
      // The client sends the rest of its body and is let go cleanly, not reset.
      connection.write(Buffer.alloc(refused.size, 'a'));
      expect(await connection.ended).toBe('end');
      // Its next request goes on a fresh connection, as the answer said.
      const next = await RawConnection.open(server.url);
      next.write(requestHead('GET', '/api/items/categories'));
      expect((await next.response()).status).toBe(200);
      next.close();
    },
  );

  it.each(REFUSED)(
    '$name: keeps the connection open when the body had all arrived; the next request on it works',
    async (refused) => {
      const connection = await RawConnection.open(server.url);
      connection.write(
        Buffer.concat([
          Buffer.from(head(refused.path(), refused.type, refused.size)),
          Buffer.alloc(refused.size, 'a'),
        ]),
      );
      const answer = await connection.response();
      expect(answer.status).toBe(refused.status);
      expect(answer.headers.connection).toBe('keep-alive');
      connection.write(requestHead('GET', '/api/items/categories'));
      const next = await connection.response();
      expect(next.status).toBe(200);
      expect(JSON.parse(next.body)).toEqual(expect.any(Object));
      connection.close();
    },
  );

  it('lets a keep-alive client that sends megabytes read its 413 and make its next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, body?: Buffer) =>
      new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
        const request = http.request(
          `${server.url}${path}`,
          { method, agent, headers: { 'Content-Type': 'application/json' } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () =>
              resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }),
            );
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    try {
      // Before the fix, about one round in three ended in ECONNRESET.
      for (let round = 0; round < 5; round++) {
        const tooBig = await send('POST', `/api/blog/posts/${post.slug}/view`, Buffer.alloc(5_000_000, 'a'));
        expect(tooBig.status).toBe(413);
        expect(tooBig.connection).toBe('close');
        expect(JSON.parse(tooBig.body)).toEqual({
          error: `Request body too large: at most ${MAX_BODY_BYTES} bytes`,
        });
        expect((await send('GET', '/api/items/categories')).status).toBe(200);
      }
    } finally {
      agent.destroy();
    }
  });
});

/** A view beacon from one loopback address; a fresh connection each time, as separate visits. */
function beacon(base: string, localAddress: string, forwardedFor?: string) {
  return new Promise<{ status: number; retryAfter?: string; body: string }>((resolve, reject) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (forwardedFor) headers['X-Forwarded-For'] = forwardedFor;
    const request = http.request(
      `${base}/api/blog/posts/${post.slug}/view`,
      { method: 'POST', localAddress, agent: false, headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], body: text }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('per-address limits through the server', () => {
  it('counts each client address on its own, and a limited one is told when to retry', async () => {
    const { db } = await createTestDb();
    const limited = await startServer({
      db,
      siteDir: siteRoot,
      host: '127.0.0.1',
      port: 0,
      deps: { viewLimiter: createBufferedRateLimiter(db, { scope: 'views', limit: 3, windowMs: 60_000 }) },
    });
    const view = (localAddress: string, forwardedFor?: string) =>
      beacon(limited.url, localAddress, forwardedFor);
    try {
      const first: number[] = [];
      for (let i = 0; i < 3; i++) first.push((await view('127.0.0.2')).status);
      expect(first).toEqual([200, 200, 200]);
      const refused = await view('127.0.0.2');
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
      expect(JSON.parse(refused.body)).toEqual({ error: expect.stringMatching(/Too many views/) });
      // Another address has its own allowance.
      const other = await view('127.0.0.3');
      expect(other.status).toBe(200);
      expect(JSON.parse(other.body)).toEqual({ viewCount: expect.any(Number) });
      // X-Forwarded-For from a client that is not a trusted balancer changes nothing.
      expect((await view('127.0.0.2', '203.0.113.9')).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('counts the address a trusted load balancer forwards, each parent on its own', async () => {
    const { db } = await createTestDb();
    const balanced = await startServer({
      db,
      siteDir: siteRoot,
      host: '127.0.0.1',
      port: 0,
      deps: {
        viewLimiter: createBufferedRateLimiter(db, { scope: 'views', limit: 2, windowMs: 60_000 }),
        trustedProxies: new Set(['127.0.0.4']),
      },
    });
    const view = (forwardedFor: string) => beacon(balanced.url, '127.0.0.4', forwardedFor);
    try {
      expect([await view('203.0.113.1'), await view('203.0.113.1')].map((r) => r.status)).toEqual([200, 200]);
      expect((await view('203.0.113.1')).status).toBe(429);
      // Another parent through the same balancer has their own allowance; the last address is the
      // one the balancer saw (what came before it is the client's to write).
      expect((await view('203.0.113.2')).status).toBe(200);
      expect((await view('203.0.113.1, 203.0.113.3')).status).toBe(200);
    } finally {
      await balanced.close();
    }
  });
});
