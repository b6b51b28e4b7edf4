// The read cache in each encoding, on the real app over a real database: a compressed answer is
// the same JSON as the plain one.
import zlib from 'node:zlib';
import type { KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
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
  const app = createApp({ db: db.withPlugin(counter), now: () => TEST_NOW, readCacheMs: 60_000 });
  return { app, db, queries: () => queries };
}

describe('the read cache, shared', () => {
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
