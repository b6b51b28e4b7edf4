import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPublisher, type PublisherOptions } from '../../scripts/lib/publisher.ts';
import { createContentDir, writePost } from '../helpers/content-fixture.ts';
import { TEST_NOW, createTestDb, tempDir } from '../helpers/test-db.ts';

// The pipeline's bookkeeping with a build we control: a build here writes a marker file and
// waits until the test lets it finish. The real build is exercised by tests/e2e/publish.test.ts.
function controllableBuild() {
  const builds: { release: () => void; fail: (e: Error) => void }[] = [];
  let waiting: (() => void) | undefined;
  const build = (siteDir: string) =>
    new Promise<void>((resolve, reject) => {
      fs.mkdirSync(siteDir, { recursive: true });
      fs.writeFileSync(path.join(siteDir, `build-${builds.length + 1}`), '');
      builds.push({ release: resolve, fail: reject });
      waiting?.();
    });
  const started = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => (builds.length >= n ? resolve() : (waiting = check));
      check();
    });
  return { build, builds, started };
}

/** A publisher over a test database and content folder, quiet and on the test clock unless told. */
function testPublisher(
  options: Pick<PublisherOptions, 'db' | 'contentDir' | 'build'> & Partial<PublisherOptions>,
) {
  return createPublisher({
    siteDir: tempDir(),
    buildEnv: {},
    now: () => TEST_NOW,
    log: () => {},
    ...options,
  });
}

describe('the publisher', () => {
  it('coalesces publishes that arrive during a build into one follow-up build', async () => {
    const { db } = await createTestDb({ seed: false });
    const contentDir = createContentDir([{ slug: 'first' }]);
    const control = controllableBuild();
    const publisher = testPublisher({ db, contentDir, build: control.build });

    const first = publisher.request('one');
    await control.started(1);
    expect(publisher.status().current?.state).toBe('building');
    const second = publisher.request('two');
    const third = publisher.request('three');
    expect(third.id).toBe(second.id);
    control.builds[0]!.release();
    await control.started(2);
    control.builds[1]!.release();
    await publisher.idle();

    expect(control.builds).toHaveLength(2);
    const runs = publisher.status().recent;
    expect(runs.map((r) => [r.id, r.state])).toEqual([
      [second.id, 'succeeded'],
      [first.id, 'succeeded'],
    ]);
    expect(runs[1]!.postsChanged).toBe(1);
    expect(runs[0]!.postsChanged).toBe(0);
    await db.destroy();
  });

  it('records a failed build and a broken post with a message naming the file', async () => {
    const { db } = await createTestDb({ seed: false });
    const contentDir = createContentDir([{ slug: 'fine' }]);
    const control = controllableBuild();
    const publisher = testPublisher({ db, contentDir, build: control.build });
    publisher.request('build fails');
    await control.started(1);
    control.builds[0]!.fail(new Error('Site build failed (exit code 1): boom'));
    await publisher.idle();
    expect(publisher.status().recent[0]).toMatchObject({
      state: 'failed',
      error: 'Site build failed (exit code 1): boom',
    });

    writePost(contentDir, { slug: 'broken', extra: 'featured: "perhaps"' });
    publisher.request('broken post');
    await publisher.idle();
    const run = publisher.status().recent[0]!;
    expect(run.state).toBe('failed');
    expect(run.error).toMatch(/broken\.md: /);
    expect(control.builds).toHaveLength(1); // the sync failed, so no build was attempted
    await db.destroy();
  });

  it('publishes a scheduled post once it is due', async () => {
    const { db } = await createTestDb({ seed: false });
    const contentDir = createContentDir([{ slug: 'later', publishedAt: '2026-11-22T12:30:00Z' }]);
    let now = TEST_NOW;
    const control = controllableBuild();
    const publisher = testPublisher({
      db,
      contentDir,
      build: control.build,
      now: () => now,
      builtAt: TEST_NOW,
    });
    publisher.request('initial');
    await control.started(1);
    control.builds[0]!.release();
    await publisher.idle();

    await publisher.checkSchedule();
    expect(control.builds).toHaveLength(1); // not due yet
    now = new Date('2026-11-22T12:30:30Z');
    await publisher.checkSchedule();
    await control.started(2);
    expect(publisher.status().current?.trigger).toBe('schedule (later)');
    control.builds[1]!.release();
    await publisher.idle();
    await publisher.checkSchedule();
    expect(control.builds).toHaveLength(2); // once only
    await db.destroy();
  });

  it('POSTs to the build hook after a successful sync, and publishes even when the hook is down', async () => {
    const received: { method: string; type: string; body: unknown }[] = [];
    const hook = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({
          method: req.method!,
          type: req.headers['content-type'] ?? '',
          body: JSON.parse(body),
        });
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const { port } = hook.address() as AddressInfo;
    const { db } = await createTestDb({ seed: false });
    const contentDir = createContentDir([{ slug: 'hooked' }]);
    const lines: string[] = [];
    const publisher = testPublisher({
      db,
      contentDir,
      build: async () => {},
      log: (line) => lines.push(line),
      hookUrl: `http://127.0.0.1:${port}/build-hook`,
    });
    publisher.request('editor');
    await publisher.idle();
    expect(received).toEqual([
      { method: 'POST', type: 'application/json', body: { run: 1, trigger: 'editor', postsChanged: 1 } },
    ]);
    expect(lines.join('\n')).toContain('build hook answered 202');

    await new Promise<void>((resolve) => hook.close(() => resolve()));
    publisher.request('editor again');
    await publisher.idle();
    expect(publisher.status().recent[0]!.state).toBe('succeeded');
    expect(lines.join('\n')).toMatch(/build hook failed/);
    await db.destroy();
  });
});
