// A full disk (docs/decisions/027): the SQLite database and the release folders on a small tmpfs
// that fills up for real (a file written until ENOSPC). Writes answer 507 (or 503) with a plain
// message, pages keep serving, a publish fails cleanly and leaves the live release serving and no
// folder behind, the database passes integrity_check, and everything works again once space is
// freed. Mounting needs root (the tests and CI run as root); elsewhere the file is skipped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type DB, openDatabase } from '../../api/db/database.ts';
import { liveRelease } from '../../api/db/queries/releases.ts';
import { DATABASE_UNREACHABLE, STORAGE_FULL, storageFailure } from '../../api/lib/storage-failure.ts';
import { createRateLimiters } from '../../api/middleware/rate-limit.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import { createPublisher, type Publisher } from '../../scripts/lib/publisher.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { CONTENT_DIR, onPostgres } from '../helpers/test-db.ts';

const asRoot = process.getuid?.() === 0;

describe.runIf(!onPostgres() && asRoot)('a full disk (a 24 MB tmpfs; runs as root only)', () => {
  const mount = tempDir('nestling-full-disk-');
  let db: DB | undefined;
  let server: RunningServer | undefined;
  let publisher: Publisher | undefined;
  afterAll(async () => {
    await publisher?.close();
    await server?.close();
    execFileSync('umount', ['-l', mount]);
  });

  it('refuses writes plainly, keeps serving, fails a publish cleanly, and recovers once space is freed', async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mount]);
    const file = path.join(mount, 'nestling.db');
    fs.copyFileSync(inject('templates').seeded, file);
    db = openDatabase(file);
    const siteDir = path.join(mount, 'site');
    // A build that writes its pages for real: a home page and 2 MB of bundle.
    publisher = createPublisher({
      db,
      contentDir: CONTENT_DIR,
      siteDir,
      buildEnv: {},
      log: () => {},
      build: async (outDir, env) => {
        fs.mkdirSync(outDir, { recursive: true });
        fs.writeFileSync(path.join(outDir, 'index.html'), `<h1>Release ${env.NESTLING_RELEASE_ID}</h1>`);
        fs.writeFileSync(path.join(outDir, 'bundle.js'), Buffer.alloc(2 * 1024 * 1024, 'x'));
      },
    });
    const publish = async () => (await publisher!.finished((await publisher!.request('start')).id)).state;
    expect(await publish()).toBe('succeeded');
    const live = (await liveRelease(db))!;
    server = await startServer({
      db,
      siteDir,
      host: '127.0.0.1',
      port: 0,
      deps: {
        ...createRateLimiters(db, { comments: 10_000, writes: 10_000, reports: 10_000 }),
        verifyToken: async () => ({
          uid: 'full-disk',
          name: 'Fran Full',
          email: 'fran@example.com',
          picture: null,
        }),
        safety: { holdFirstComment: false, escalationUrl: null, siteUrl: 'http://nestling.test' },
        publisher,
      },
    });
    const { postId } = (
      (await (await fetch(`${server.url}/api/blog/posts`)).json()) as { postId: number }[]
    )[0]!;
    const comment = (content: string) =>
      fetch(`${server!.url}/api/blog/posts/${postId}/comments`, {
        method: 'POST',
        headers: { Authorization: 'Bearer any', 'Content-Type': 'application/json' },
        body: JSON.stringify({ content }),
      });
    expect((await comment('Before the disk filled.')).status).toBe(201);

    // Fill the disk to the last byte.
    const filler = path.join(mount, 'filler');
    const fd = fs.openSync(filler, 'w');
    for (const size of [1024 * 1024, 4096, 1]) {
      const chunk = Buffer.alloc(size, 'f');
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
    fs.closeSync(fd);

    // Writes: refused plainly once SQLite cannot grow its files (the WAL may have room for a few).
    let refused: Response | undefined;
    const statuses: number[] = [];
    for (let i = 0; i < 200 && !refused; i += 1) {
      const response = await comment(`On a full disk ${i}: ${'words '.repeat(300)}`);
      statuses.push(response.status);
      if (response.status !== 201) refused = response;
    }
    expect([507, 503]).toContain(refused?.status);
    expect(refused?.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect([STORAGE_FULL, DATABASE_UNREACHABLE]).toContain(
      ((await refused!.json()) as { error: string }).error,
    );
    // Comments sent at once share a commit (docs/decisions/031-group-commit.md): each is answered
    // plainly, and one refused leaves nothing behind (checked once space is freed).
    const together = Array.from({ length: 10 }, (_, i) => `Together on a full disk ${i}.`);
    const togetherStatus = await Promise.all(
      together.map(async (content) => (await comment(content)).status),
    );
    for (const status of togetherStatus) expect([201, 507, 503]).toContain(status);
    // Pages come from the release's folder.
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`Release ${live.id}`);

    // A publish fails cleanly: the live release is the same and whole, and no folder is left behind.
    const folders = () => fs.readdirSync(siteDir).filter((name) => !name.startsWith('.'));
    const before = folders();
    // Either the request itself cannot be written (the admin's button answers 507, the command
    // prints one line), or the run fails while writing the release's files.
    const failed = await publish().catch((error: unknown) => `refused with ${storageFailure(error)?.status}`);
    expect(['failed', 'refused with 507', 'refused with 503']).toContain(failed);
    expect((await liveRelease(db))!.id).toBe(live.id);
    expect(folders()).toEqual(before);
    expect(fs.existsSync(path.join(siteDir, live.folder, 'bundle.js'))).toBe(true);
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    expect(check.rows[0]!.integrity_check).toBe('ok');

    // Room for the database's few pages but not for a release's files: the run fails writing them,
    // its folder is removed (freeing what it took), and the failure is recorded.
    fs.rmSync(filler);
    const { bavail, bsize } = fs.statfsSync(mount);
    fs.writeFileSync(filler, Buffer.alloc(bavail * bsize - 1024 * 1024, 'f'));
    expect(await publish()).toBe('failed');
    expect((await liveRelease(db))!.id).toBe(live.id);
    expect(folders()).toEqual(before);
    expect((await fetch(`${server.url}/`)).status).toBe(200);

    // Space freed: writes and publishing work again.
    fs.rmSync(filler);
    expect((await comment('After the disk was freed.')).status).toBe(201);
    const storedTogether = await db
      .selectFrom('comments')
      .select('content')
      .where('content', 'like', 'Together on a full disk %')
      .orderBy('comment_id')
      .execute();
    expect(storedTogether.map((row) => row.content)).toEqual(
      together.filter((_, i) => togetherStatus[i] === 201),
    );
    expect(await publish()).toBe('succeeded');
    expect((await liveRelease(db))!.id).toBeGreaterThan(live.id);
    console.log(
      `full disk: ${statuses.length} comments sent on the full disk, ${statuses.filter((s) => s === 201).length} ` +
        `acknowledged, refused with ${refused!.status}; the publish ${failed}; with 1 MB left the run failed cleanly; integrity ok`,
    );
  }, 60_000);
});
