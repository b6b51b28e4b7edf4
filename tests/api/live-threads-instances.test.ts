// Live threads across two instances of the real server on one PostgreSQL database, each with its
// own pool and its own listening connection, as scripts/start.ts wires them: a comment written
// through one reaches a stream open on the other, and so does a moderator's removal; a listener
// whose connection is cut reconnects by itself and catches up, each change once; after an outage
// of every connection, open streams go on and a page that reconnects resumes, each comment once.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Comment, CommentPosted, Reply } from '../../api/contract.ts';
import type { ThreadChange } from '../../api/contract/live-threads.ts';
import { type DB, openDatabase } from '../../api/db/database.ts';
import { setRoleByEmail } from '../../api/db/queries/profiles.ts';
import { createThreadHub, LISTENER_NAME } from '../../api/lib/thread-events.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import { createEmulatorUser, type EmulatorUser } from '../../scripts/lib/auth-emulator.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { changedId } from '../../src/lib/live-thread.ts';
import { emulatorAccounts, emulatorVerifier } from '../helpers/parents.ts';
import { createTestDb, onPostgres } from '../helpers/test-db.ts';

let servers: RunningServer[] = [];
let location: string;
let db: DB;
let postId: number;

/** The instances' own connections carry this name, so a test can cut them and no others. */
const INSTANCE_NAME = 'nestling-test-instance';

function instance(): Promise<RunningServer> {
  const url = new URL(location);
  url.searchParams.set('application_name', INSTANCE_NAME);
  const own = openDatabase(url.href);
  return startServer({
    db: own,
    siteDir: tempDir('nestling-empty-site-'),
    host: '127.0.0.1',
    port: 0,
    deps: {
      verifyToken: emulatorVerifier(),
      accounts: emulatorAccounts(),
      safety: { holdFirstComment: false, escalationUrl: null, siteUrl: 'http://nestling.test' },
      // A poll far longer than the test: what arrives, arrives by NOTIFY.
      threads: createThreadHub({ db: own, listenUrl: location, pollMs: 600_000 }),
    },
  });
}

/** A thread stream over real HTTP, read change by change. */
async function openStream(server: RunningServer, lastEventId?: number) {
  const res = await fetch(`${server.url}/api/blog/posts/${postId}/comments/stream`, {
    headers: lastEventId === undefined ? {} : { 'Last-Event-ID': String(lastEventId) },
  });
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const next = async (): Promise<{ event: string; data: string }> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        if (event) return { event, data: /^data: (.*)$/m.exec(block)?.[1] ?? '' };
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += value;
    }
  };
  const change = async () => {
    for (;;) {
      const { event, data } = await next();
      if (event === 'change') return JSON.parse(data) as ThreadChange<Reply>;
    }
  };
  // A resumed stream sends what the page missed before its `ready`.
  if (lastEventId === undefined) expect((await next()).event).toBe('ready');
  return { change, close: () => reader.cancel() };
}

async function send(server: RunningServer, method: string, path: string, token: string, body?: unknown) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function comment(server: RunningServer, parent: EmulatorUser, content: string): Promise<Reply> {
  const res = await send(server, 'POST', `/api/blog/posts/${postId}/comments`, parent.idToken, { content });
  expect(res.status).toBe(201);
  return ((await res.json()) as CommentPosted).comment;
}

const parent = (displayName: string) => createEmulatorUser(inject('authEmulatorHost'), { displayName });

/** Waits until both instances' listening connections are back (each reconnects by itself). */
async function bothListening(): Promise<void> {
  const listening = async () =>
    (
      await sql`select pid from pg_stat_activity
        where application_name = ${LISTENER_NAME} and datname = current_database()
          and query ilike 'LISTEN%'`.execute(db)
    ).rows.length;
  while ((await listening()) < 2) await new Promise((resolve) => setTimeout(resolve, 100));
}
describe.runIf(onPostgres())('live threads on two instances of one PostgreSQL database', () => {
  beforeAll(async () => {
    ({ db, location } = await createTestDb());
    ({ post_id: postId } = await db
      .selectFrom('blog_posts')
      .select('post_id')
      .where('is_published', '=', 1)
      .orderBy('post_id')
      .executeTakeFirstOrThrow());
    servers = [await instance(), await instance()];
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await db?.destroy();
  });

  it('brings a comment written on one, and its removal, to a page served by the other', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const onB = await openStream(b);
    const ada = await parent('Ada');
    const written = await comment(a, ada, 'Written through instance A');
    // Announced on B's page, whose reader then shows it from B.
    expect(await onB.change()).toMatchObject({ kind: 'new', commentId: written.comment_id });
    const shown = await send(
      b,
      'GET',
      `/api/blog/posts/${postId}/comments/by-id?ids=${written.comment_id}`,
      ada.idToken,
    );
    expect(shown.status).toBe(200);
    expect(((await shown.json()) as Comment[]).map((c) => c.content)).toEqual(['Written through instance A']);

    const mo = await parent('Mo');
    expect((await send(a, 'GET', '/api/profile', mo.idToken)).status).toBe(200);
    await setRoleByEmail(db, mo.email, 'moderator', new Date());
    const removed = await send(a, 'DELETE', `/api/blog/comments/${written.comment_id}`, mo.idToken, {
      reason: 'Not for this thread',
    });
    expect(removed.status).toBe(204);
    expect(await onB.change()).toMatchObject({
      kind: 'comment',
      comment: { comment_id: written.comment_id, status: 'removed', content: '' },
    });
    await onB.close();
  });

  it('reconnects a listener whose connection is cut and catches up, each change once', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const onB = await openStream(b);
    const ben = await parent('Ben');
    // Both listeners lose their connections (a failover, a restart of PostgreSQL's side).
    const cut = await sql<{ cut: boolean }>`select pg_terminate_backend(pid) as cut from pg_stat_activity
      where application_name = ${LISTENER_NAME} and datname = current_database()`.execute(db);
    expect(cut.rows.length).toBe(2);
    // Written while b's listener is away: b learns of it when it is back.
    const first = await comment(a, ben, 'While the listener was away');
    const second = await comment(a, ben, 'And one more');
    const seen = [await onB.change(), await onB.change()];
    expect(seen.map(changedId)).toEqual([first.comment_id, second.comment_id]);
    // b's listener is back (it caught up when it was); a's comes back by itself too.
    await bothListening();
    // And nothing comes twice: the next change is the next comment.
    const third = await comment(a, ben, 'After the reconnect');
    expect(changedId(await onB.change())).toBe(third.comment_id);
    await onB.close();
  });

  it('resumes every stream from its last change after the instances lose every database connection', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const kept = await openStream(b);
    const page = await openStream(b);
    const cy = await parent('Cy');
    const before = await comment(a, cy, 'Before the outage');
    expect(changedId(await kept.change())).toBe(before.comment_id);
    const last = await page.change();
    expect(changedId(last)).toBe(before.comment_id);
    // One page loses its connection to b; then both instances lose all of theirs to the database
    // (pools and listeners), as in a restart of PostgreSQL.
    await page.close();
    const cut = await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and application_name in (${INSTANCE_NAME}, ${LISTENER_NAME})`.execute(
      db,
    );
    expect(cut.rows.length).toBeGreaterThan(2);
    // Back once both listeners are (their pools reconnect on their next query).
    await bothListening();

    const during = [await comment(a, cy, 'While the page was away'), await comment(a, cy, 'And another')];
    // The page comes back to b from the last change it saw: what it missed, once.
    const resumed = await openStream(b, last.id);
    const after = await comment(a, cy, 'After the page came back');
    // One change at a time: a stream is read in order.
    const ids = async (stream: { change: () => Promise<ThreadChange<Reply>> }) => {
      const seen: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const c = await stream.change();
        seen.push(changedId(c));
      }
      return seen;
    };
    const expected = [...during, after].map((c) => c.comment_id);
    expect(await ids(resumed)).toEqual(expected);
    expect(await ids(kept)).toEqual(expected);
    await resumed.close();
    await kept.close();
  });
});
