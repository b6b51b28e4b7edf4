// What a load balancer asks an instance, and a graceful stop (docs/deploy.md, "Behind a load
// balancer"): /api/health reports the database and the live release; /api/health/ready is 503 until
// a live release is known and again once a stop has begun. SIGTERM to the real server process
// (`npm start`): no new connections, the request in flight finishes and is saved, an open thread
// stream ends, and the process exits 0.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../../api/contract.ts';
import { openDatabase } from '../../api/db/database.ts';
import { migrateToLatest } from '../../api/db/migrate.ts';
import { liveReleaseSource } from '../../api/lib/live-release.ts';
import { createHealth } from '../../api/node/health.ts';
import { startServer } from '../../api/server.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { RawConnection } from '../helpers/raw-http.ts';
import { type StartedServer, startFromBuild } from '../helpers/start-server.ts';
import { onPostgres, releaseNow } from '../helpers/test-db.ts';

/** A site folder as a build leaves it, as small as a test needs. */
function tinySite(): string {
  const dir = tempDir('nestling-tiny-site-');
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Nestling</title><h1>Home</h1>');
  return dir;
}

describe.runIf(!onPostgres())('health and readiness', () => {
  it('is not ready before a live release is known, then ready, and not ready once the stop begins', async () => {
    const db = openDatabase(path.join(tempDir(), 'health.db'));
    await migrateToLatest(db);
    const server = await startServer({
      db,
      siteDir: tempDir('nestling-empty-site-'),
      host: '127.0.0.1',
      port: 0,
      deps: { release: liveReleaseSource(db, { ttlMs: 0 }) },
    });
    const get = async (what: string) => {
      const response = await fetch(`${server.url}${what}`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    try {
      expect(await get('/api/health/ready')).toEqual({
        status: 503,
        body: { ready: false, reason: 'no live release yet' },
      });
      expect(await get('/api/health')).toEqual({
        status: 200,
        body: { database: 'up', release: null, ready: false, stopping: false },
      });
      const id = await releaseNow(db, new Date());
      expect(await get('/api/health/ready')).toEqual({ status: 200, body: { ready: true } });
      expect(await get('/api/health')).toEqual({
        status: 200,
        body: { database: 'up', release: { id }, ready: true, stopping: false },
      });
      // Never a kept answer: the server answers it before the API app and its read cache.
      expect((await fetch(`${server.url}/api/health`)).headers.get('Cache-Control')).toBe('no-store');
      // What a connection still open is told once the stop has begun (server.close calls stop()).
      const health = createHealth({ db, release: liveReleaseSource(db) });
      health.stop();
      const stopping = await health.fetch(new Request('http://nestling.test/api/health/ready'));
      expect([stopping.status, await stopping.json()]).toEqual([503, { ready: false, reason: 'stopping' }]);
    } finally {
      await server.close();
    }
  });
});

describe.runIf(!onPostgres())('SIGTERM to the server process', () => {
  let server: StartedServer | undefined;
  afterAll(() => server?.stop());

  it('takes no new connection, finishes the request in flight, ends streams and exits 0', async () => {
    server = await startFromBuild(tinySite(), { MODERATION_HOLD_FIRST: '0' });
    const { url } = server;
    expect((await fetch(`${url}/api/health/ready`)).status).toBe(200);
    const posts = (await (await fetch(`${url}/api/blog/posts`)).json()) as { postId: number }[];
    const postId = posts[0]!.postId;

    // An open thread stream, and a comment whose body has not all arrived when the signal does.
    const stream = await fetch(`${url}/api/blog/posts/${postId}/comments/stream`);
    expect(stream.status).toBe(200);
    const streamEnded = stream.text().then(
      () => 'ended',
      () => 'ended',
    );
    const content = `Sent across a stop ${crypto.randomUUID()}`;
    const body = JSON.stringify({ content });
    const inFlight = await RawConnection.open(url);
    inFlight.write(
      `POST /api/blog/posts/${postId}/comments HTTP/1.1\r\nHost: nestling.test\r\n` +
        `Authorization: Bearer ${DEMO_TOKEN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    const exited = new Promise<number | null>((resolve) => server!.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    // The listener closes: a new connection is refused.
    await expect
      .poll(() =>
        fetch(`${url}/api/health/ready`).then(
          () => 'answered',
          () => 'refused',
        ),
      )
      .toBe('refused');
    inFlight.write(body.slice(10));
    const answer = await inFlight.response(20_000);
    expect(answer.status).toBe(201);
    expect(await streamEnded).toBe('ended');
    expect(await exited).toBe(0);
    expect(server.output()).toContain('Received SIGTERM');

    const db = openDatabase(/Preparing the database: (\S+) /.exec(server.output())![1]!);
    try {
      const saved = await db
        .selectFrom('comments')
        .select('content')
        .where('content', '=', content)
        .execute();
      expect(saved).toHaveLength(1);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
