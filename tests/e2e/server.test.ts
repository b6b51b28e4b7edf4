import { describe, expect, inject, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../api/contract.ts';
import { RawConnection, requestHead } from '../helpers/raw-http.ts';

// The real `npm start` server started by the e2e harness, over HTTP.
describe('npm start serves site and API on one port', () => {
  it('serves the home page and the items API', async () => {
    const base = inject('baseURL');
    const page = await fetch(`${base}/`, { headers: { 'Accept-Encoding': 'br' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('cache-control')).toBe('public, no-cache');
    expect(await page.text()).toContain('<html lang="en"');
    const items = await fetch(`${base}/api/items`);
    expect(items.status).toBe(200);
    expect(((await items.json()) as unknown[]).length).toBeGreaterThanOrEqual(30);
  });

  it('sends the security headers on pages and API answers', async () => {
    const base = inject('baseURL');
    for (const path of ['/', '/api/items', '/no-such-page', '/api/no-such-endpoint']) {
      const res = await fetch(`${base}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      if (path.startsWith('/api/')) {
        // JSON runs nothing and loads nothing: its policy allows nothing.
        expect(csp).toBe("default-src 'none'; frame-ancestors 'none'");
      } else {
        expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'( 'sha256-[A-Za-z0-9+/=]+')*(;|$)/);
        expect(res.headers.get('permissions-policy')).toContain('camera=()');
      }
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      await res.arrayBuffer();
    }
  });

  it('closes the connection after refusing a body that has not arrived, and the next request works', async () => {
    const base = inject('baseURL');
    const connection = await RawConnection.open(base);
    connection.write(
      requestHead('POST', '/api/blog/posts/no-such-post/view', {
        'Content-Type': 'application/json',
        'Content-Length': MAX_BODY_BYTES * 4,
      }),
    );
    const answer = await connection.response();
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/too large/) });
    connection.write(Buffer.alloc(MAX_BODY_BYTES * 4, 'a'));
    expect(await connection.ended).toBe('end');
    const next = await fetch(`${base}/api/items/categories`);
    expect(next.status).toBe(200);
    expect(await next.json()).toEqual(expect.any(Object));
  });
});
