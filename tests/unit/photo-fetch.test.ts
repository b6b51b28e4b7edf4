// Fetching a listing's photo (api/screening/photos/fetch.ts) from real HTTP servers on this machine,
// no mocks: an allowed host, hosts not listed, redirects to elsewhere and too many of them, a body
// too large with no Content-Length, a host dripping bytes past the clock, other schemes. 127.0.0.1
// and localhost reach the same servers but are two host names: one is listed, the other is not.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CUT_OFF,
  fetchPhoto,
  HAS_CREDENTIALS,
  hostError,
  HOST_NOT_ALLOWED,
  NOT_AN_ADDRESS,
  NOT_HTTP,
  REDIRECT_NOT_ALLOWED,
  TOO_SLOW,
  tooLarge,
  tooManyRedirects,
} from '../../api/screening/photos/fetch.ts';

let jpeg: Buffer;
let server: http.Server;
let base: string;
/** The same server by another name, not listed. */
let otherBase: string;
const listed = ['127.0.0.1'];

beforeAll(async () => {
  jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c86432' } })
    .jpeg()
    .toBuffer();
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/photo.jpg':
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.byteLength });
        res.end(jpeg);
        return;
      case '/elsewhere':
        res.writeHead(302, { location: `${otherBase}/photo.jpg` });
        res.end();
        return;
      case '/hop': {
        // /hop?n=3 → /hop?n=2 → … → /photo.jpg
        const n = Number(url.searchParams.get('n'));
        res.writeHead(302, { location: n > 1 ? `/hop?n=${n - 1}` : '/photo.jpg' });
        res.end();
        return;
      }
      case '/huge': {
        // 1 MiB in 64 KiB chunks, chunked: no Content-Length to refuse it early.
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        const chunk = Buffer.alloc(64 * 1024, 0xff);
        let sent = 0;
        const more = () => {
          while (sent < 16) {
            sent++;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        more();
        return;
      }
      case '/declared-huge':
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': 20 * 1024 * 1024 });
        res.write(jpeg);
        // Never finishes: the client must stop at the header.
        return;
      case '/drip': {
        // Answers at once, then a byte every 50 ms for ever.
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.write(jpeg.subarray(0, 2));
        const timer = setInterval(() => res.write(Buffer.from([0])), 50);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case '/cut':
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.byteLength });
        res.write(jpeg.subarray(0, 10));
        setTimeout(() => res.destroy(), 20);
        return;
      default:
        res.writeHead(404);
        res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  otherBase = `http://localhost:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('fetchPhoto', () => {
  it('fetches a photo from a listed host', async () => {
    const result = await fetchPhoto(`${base}/photo.jpg`, { allowedHosts: listed });
    expect(result).toEqual({ ok: true, bytes: jpeg, contentType: 'image/jpeg' });
  });

  it('compares host names without case', async () => {
    const result = await fetchPhoto(`${otherBase}/photo.jpg`, { allowedHosts: ['LocalHost'] });
    expect(result.ok).toBe(true);
  });

  it('refuses a host not listed, though it is the same server', async () => {
    expect(await fetchPhoto(`${otherBase}/photo.jpg`, { allowedHosts: listed })).toEqual({
      ok: false,
      reason: HOST_NOT_ALLOWED,
    });
  });

  it('refuses this server itself when nothing local is listed', async () => {
    const allowedHosts = ['photos.example.com', '*.example.com'];
    for (const url of [
      `${base}/photo.jpg`,
      `${otherBase}/photo.jpg`,
      'http://[::1]/',
      'http://2130706433/',
    ]) {
      expect(await fetchPhoto(url, { allowedHosts })).toEqual({ ok: false, reason: HOST_NOT_ALLOWED });
    }
  });

  it('takes a wildcard entry for subdomains only, never for numbers or localhost', async () => {
    // Refused before any request: the host is checked first.
    const allowedHosts = ['*.localhost', '*.0.0.1'];
    expect(await fetchPhoto(`${otherBase}/photo.jpg`, { allowedHosts })).toEqual({
      ok: false,
      reason: HOST_NOT_ALLOWED,
    });
    expect(await fetchPhoto(`${base}/photo.jpg`, { allowedHosts })).toEqual({
      ok: false,
      reason: HOST_NOT_ALLOWED,
    });
  });

  it('refuses a redirect to a host not listed', async () => {
    expect(await fetchPhoto(`${base}/elsewhere`, { allowedHosts: listed })).toEqual({
      ok: false,
      reason: REDIRECT_NOT_ALLOWED,
    });
  });

  it('follows redirects on a listed host up to the limit, and no further', async () => {
    expect((await fetchPhoto(`${base}/hop?n=3`, { allowedHosts: listed })).ok).toBe(true);
    expect(await fetchPhoto(`${base}/hop?n=4`, { allowedHosts: listed })).toEqual({
      ok: false,
      reason: tooManyRedirects(3),
    });
    expect(await fetchPhoto(`${base}/hop?n=1`, { allowedHosts: listed, maxRedirects: 0 })).toEqual({
      ok: false,
      reason: tooManyRedirects(0),
    });
  });

  it('stops a body past maxBytes while it streams, with no Content-Length', async () => {
    const started = Date.now();
    expect(await fetchPhoto(`${base}/huge`, { allowedHosts: listed, maxBytes: 200 * 1024 })).toEqual({
      ok: false,
      reason: tooLarge(200 * 1024),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a declared Content-Length past maxBytes before reading the body', async () => {
    expect(await fetchPhoto(`${base}/declared-huge`, { allowedHosts: listed })).toEqual({
      ok: false,
      reason: 'The photo is larger than 15 MB.',
    });
  });

  it('gives up on a host that drips bytes past the timeout', async () => {
    const started = Date.now();
    expect(await fetchPhoto(`${base}/drip`, { allowedHosts: listed, timeoutMs: 300 })).toEqual({
      ok: false,
      reason: TOO_SLOW,
    });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(3_000);
  });

  it('says when a download is cut off or the host answers with an error', async () => {
    expect(await fetchPhoto(`${base}/cut`, { allowedHosts: listed })).toEqual({ ok: false, reason: CUT_OFF });
    expect(await fetchPhoto(`${base}/missing.jpg`, { allowedHosts: listed })).toEqual({
      ok: false,
      reason: hostError(404),
    });
  });

  it('refuses other schemes, credentials and text that is no address', async () => {
    const allowedHosts = [...listed, 'example.com'];
    for (const url of ['file:///etc/passwd', 'ftp://example.com/a.jpg', 'data:image/jpeg;base64,AAAA']) {
      expect(await fetchPhoto(url, { allowedHosts })).toEqual({ ok: false, reason: NOT_HTTP });
    }
    expect(await fetchPhoto(`http://user:secret@127.0.0.1/photo.jpg`, { allowedHosts })).toEqual({
      ok: false,
      reason: HAS_CREDENTIALS,
    });
    for (const url of ['', 'photo.jpg', 'http://', '://x']) {
      expect(await fetchPhoto(url, { allowedHosts })).toEqual({ ok: false, reason: NOT_AN_ADDRESS });
    }
  });
});
