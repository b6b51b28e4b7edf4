// The database goes away under load (docs/decisions/027-when-the-database-cannot-answer.md): the
// real server process (`npm start`, scripts/start.ts) over a PostgreSQL cluster of this test's own,
// shut down as an administrator's restart does while readers and commenting parents keep coming,
// then started again. The process never dies, writes answer 503 with Retry-After and a plain
// message, the release's pages keep serving, and every comment answered 201 is in the database.
// On SQLite a full database file answers 507 (a real SQLITE_FULL, from max_page_count).
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../../api/contract.ts';
import { openDatabase } from '../../api/db/database.ts';
import { createRateLimiters } from '../../api/middleware/rate-limit.ts';
import { DATABASE_UNREACHABLE, STORAGE_FULL } from '../../api/lib/storage-failure.ts';
import { type Cluster, startCluster } from '../../scripts/lib/postgres-cluster.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { type StartedServer, startFromBuild } from '../helpers/start-server.ts';
import { createDatabase, createTestApp, onPostgres } from '../helpers/test-db.ts';

interface Answer {
  kind: 'page' | 'comment';
  status: number;
  retryAfter: string | null;
  body: string;
  /** For a comment: its text, to be found in the database once acknowledged. */
  content?: string;
  phase: 'before' | 'down' | 'after';
  /** When it was answered (Date.now), for the recovery figure of docs/benchmarks.md. */
  at: number;
}

/** A site folder as a build leaves it, as small as a test needs: two pages. */
function tinySite(): string {
  const dir = tempDir('nestling-tiny-site-');
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Nestling</title><h1>Home</h1>');
  fs.mkdirSync(path.join(dir, 'blog'));
  fs.writeFileSync(path.join(dir, 'blog', 'index.html'), '<!doctype html><title>Blog</title><h1>Blog</h1>');
  return dir;
}

describe.runIf(onPostgres())('PostgreSQL restarted under load', () => {
  let cluster: Cluster | undefined;
  let server: StartedServer | undefined;
  afterAll(async () => {
    if (process.env.OUTAGE_LOG) console.log(server?.output());
    await server?.stop();
    await cluster?.stop();
  });

  it('keeps the process up, answers writes 503 with Retry-After, serves pages, and loses no acknowledged comment', async () => {
    // A cluster of this test's own: the run's shared one must never be stopped.
    cluster = await startCluster();
    const url = await createDatabase(cluster.adminUrl, 'outage');
    server = await startFromBuild(tinySite(), {
      DATABASE_URL: url,
      RATE_LIMIT_COMMENTS_PER_MINUTE: '100000',
      MODERATION_HOLD_FIRST: '0',
    });
    const base = server.url;
    const posts = (await (await fetch(`${base}/api/blog/posts`)).json()) as { postId: number }[];
    const postId = posts[0]!.postId;

    const answers: Answer[] = [];
    let phase: Answer['phase'] = 'before';
    let sent = 0;
    const send = async (kind: Answer['kind']) => {
      const at = phase;
      sent += 1;
      const content = `Outage check ${sent} ${crypto.randomUUID()}`;
      const response = await (
        kind === 'page'
          ? fetch(`${base}${sent % 2 ? '/' : '/blog/'}`)
          : fetch(`${base}/api/blog/posts/${postId}/comments`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${DEMO_TOKEN}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ content }),
            })
      ).catch(() => null);
      // No answer at all (status 0): the process went away.
      answers.push({
        kind,
        status: response?.status ?? 0,
        retryAfter: response?.headers.get('Retry-After') ?? null,
        body: (await response?.text().catch(() => '')) ?? '',
        content: kind === 'comment' ? content : undefined,
        phase: at,
        at: Date.now(),
      });
    };
    let running = true;
    let startedAt: number | undefined;
    // Two readers and two commenting parents, each one request at a time.
    const loops = (['page', 'page', 'comment', 'comment'] as const).map(async (kind) => {
      while (running) await send(kind);
    });
    const answered = (p: Answer['phase'], kind: Answer['kind'], status?: number) =>
      answers.filter((a) => a.phase === p && a.kind === kind && (status === undefined || a.status === status))
        .length;
    const until = async (condition: () => boolean) => {
      while (!condition()) {
        if (server!.child.exitCode !== null || server!.child.signalCode !== null) {
          throw new Error(`The server process died:\n${server!.output()}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    try {
      await until(() => answered('before', 'comment', 201) >= 10);
      phase = 'down';
      await cluster.halt();
      // Down for as long as it takes the load to meet it: writes refused, pages served.
      await until(() => answered('down', 'comment') >= 20 && answered('down', 'page') >= 40);
      await cluster.start();
      startedAt = Date.now();
      phase = 'after';
      await until(() => answered('after', 'comment', 201) >= 10);
    } finally {
      running = false;
      await Promise.all(loops);
    }

    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();
    // No answer was a 500, and nothing else but 200, 201 and 503.
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].filter((s) => ![200, 201, 503].includes(s))).toEqual([]);
    // Pages come from the release on disk: every one was served, down or not.
    expect(answers.filter((a) => a.kind === 'page' && a.status !== 200)).toEqual([]);
    // A refused write says so plainly, and when to try again.
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.kind).toBe('comment');
      expect(answer.retryAfter).toBe('5');
      expect(JSON.parse(answer.body)).toEqual({ error: DATABASE_UNREACHABLE });
    }
    // Every comment answered 201 is there; none answered 503 is half written.
    const db = openDatabase(url);
    try {
      const stored = new Set(
        (
          await db
            .selectFrom('comments')
            .select('content')
            .where('content', 'like', 'Outage check %')
            .execute()
        ).map((row) => row.content),
      );
      const acknowledged = answers.filter((a) => a.status === 201).map((a) => a.content!);
      expect(acknowledged.filter((content) => !stored.has(content))).toEqual([]);
      const refusedStored = refused.filter((a) => stored.has(a.content!));
      // A commit whose answer was lost with its connection could be there; an insert without its
      // count is never there (one transaction): each stored comment is counted.
      const { count } = await db
        .selectFrom('comments')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('content', 'like', 'Outage check %')
        .executeTakeFirstOrThrow();
      expect(Number(count)).toBe(stored.size);
      // The figures of docs/benchmarks.md, "Faults".
      console.log(
        `outage: ${answers.length} requests; ${refused.length} answered 503 (all comments), ` +
          `${answers.filter((a) => a.status === 201).length} comments acknowledged, 0 lost; ` +
          `${refusedStored.length} refused comments stored; first write ` +
          `${(answers.find((a) => a.phase === 'after' && a.status === 201)!.at - startedAt!) / 1000} s after the restart`,
      );
    } finally {
      await db.destroy();
    }
    // Starting a server process and a cluster of its own takes a while on a busy machine.
  }, 180_000);
});

describe.runIf(!onPostgres())('SQLite out of space', () => {
  it('answers a write 507 with a plain message, and writes again once there is room', async () => {
    const { app, db } = await createTestApp((db) => ({
      ...createRateLimiters(db, { comments: 10_000, writes: 10_000, reports: 10_000 }),
      verifyToken: async () => ({
        uid: 'full-disk-parent',
        name: 'Fran Full',
        email: 'fran@example.com',
        picture: null,
      }),
      safety: { holdFirstComment: false, escalationUrl: null, siteUrl: 'http://nestling.test' },
    }));
    const posts = (await (await app.request('/api/blog/posts')).json()) as { postId: number }[];
    const comment = (content: string) =>
      app.request(`/api/blog/posts/${posts[0]!.postId}/comments`, {
        method: 'POST',
        headers: { Authorization: 'Bearer any', 'Content-Type': 'application/json' },
        body: JSON.stringify({ content }),
      });
    expect((await comment('Room for this one.')).status).toBe(201);
    // The file may grow no further: SQLite's own SQLITE_FULL, as on a full disk.
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(db);
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(db);
    let full: Response | undefined;
    for (let i = 0; i < 200 && !full; i += 1) {
      const response = await comment(`Filling the last page ${i}: ${'words '.repeat(100)}`);
      if (response.status !== 201) full = response;
    }
    expect(full?.status).toBe(507);
    expect(full?.headers.get('Retry-After')).toBe('60');
    expect(await full?.json()).toEqual({ error: STORAGE_FULL });
    const { rows: check } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    expect(check[0]!.integrity_check).toBe('ok');
    await sql.raw('pragma max_page_count = 1073741823').execute(db);
    expect((await comment('Room again.')).status).toBe(201);
  });
});
