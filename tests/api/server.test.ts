import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../api/server.ts';
import { createTestDb, tempDir } from '../helpers/test-db.ts';

// The server over a tiny hand-made site folder: what matters here is how it serves files.
let server: RunningServer;
let siteDir: string;

beforeAll(async () => {
  siteDir = tempDir('nestling-site-');
  fs.mkdirSync(path.join(siteDir, '_astro'));
  fs.mkdirSync(path.join(siteDir, 'blog'));
  fs.writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><h1>Home</h1>');
  fs.writeFileSync(path.join(siteDir, '404.html'), '<!doctype html><h1>404 Page Not Found</h1>');
  fs.writeFileSync(path.join(siteDir, 'blog', '404.html'), '<!doctype html><h1>Post Not Found</h1>');
  const js = 'console.log("nestling");\n'.repeat(200);
  fs.writeFileSync(path.join(siteDir, '_astro', 'app.abc123.js'), js);
  fs.writeFileSync(path.join(siteDir, '_astro', 'app.abc123.js.br'), zlib.brotliCompressSync(js));
  const { db } = await createTestDb();
  server = await startServer({ db, distDir: () => siteDir, host: '127.0.0.1', port: 0 });
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

  it('compresses API answers', async () => {
    const res = await fetch(`${server.url}/api/blog/posts`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
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
    const own = await startServer({ db, distDir: () => siteDir, host: '127.0.0.1', port: 0 });
    const inFlight = fetch(`${own.url}/api/blog/posts`);
    await new Promise((r) => setTimeout(r, 5));
    const closed = own.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBeGreaterThan(0);
    await closed;
    await expect(db.selectFrom('items').selectAll().execute()).rejects.toThrow();
    await expect(fetch(`${own.url}/`)).rejects.toThrow();
  });
});
