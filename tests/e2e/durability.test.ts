import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../api/db/database.ts';
import { createEmulatorUser, EMULATOR_PROJECT_ID } from '../../scripts/lib/auth-emulator.ts';
import { type StartedServer, startFromBuild, startServer } from '../helpers/start-server.ts';
import { tempDir } from '../../scripts/lib/temp.ts';

const servers: StartedServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
});

describe('acknowledged writes survive a crash', () => {
  it('keeps every acknowledged comment and like after SIGKILL and restart', async () => {
    const host = inject('authEmulatorHost');
    const dir = tempDir();
    const dbFile = path.join(dir, 'crash.db');
    const env = {
      DATABASE_PATH: dbFile,
      SITE_DIR: path.join(dir, 'site'),
      PUBLIC_FIREBASE_API_KEY: 'emulator-api-key',
      FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: host,
      RATE_LIMIT_COMMENTS_PER_MINUTE: '1000',
      // New parents' first comments would wait for review; this test is about durability.
      MODERATION_HOLD_FIRST: '0',
    };
    // Seeded, released and served from a copy of the run's build, so the server starts without building.
    const first = await startFromBuild(inject('builtSites').auth, env);
    servers.push(first);
    const db = openDatabase(dbFile);
    const post = await db.selectFrom('blog_posts').select(['post_id', 'slug']).executeTakeFirstOrThrow();
    await db.destroy();
    const users = await Promise.all(Array.from({ length: 10 }, () => createEmulatorUser(host)));
    const send = (url: string, token: string, body?: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    const answers = await Promise.all([
      ...users.flatMap((u, i) =>
        [0, 1, 2].map((n) =>
          send(`${first.url}/api/blog/posts/${post.post_id}/comments`, u.idToken, {
            content: `Crash test ${i}-${n}`,
          }),
        ),
      ),
      ...users.map((u) => send(`${first.url}/api/blog/posts/${post.slug}/like`, u.idToken)),
    ]);
    const acknowledged = (
      await Promise.all(
        answers
          .filter((r) => r.status === 201)
          .map((r) => r.json() as Promise<{ comment: { comment_id: number } }>),
      )
    ).map((c) => c.comment.comment_id);
    const likesAcknowledged = answers.filter((r) => r.status === 200).length;
    expect(acknowledged).toHaveLength(30);
    expect(likesAcknowledged).toBe(10);
    const likeCountBefore = (
      (await (await fetch(`${first.url}/api/blog/posts/${post.slug}`)).json()) as { likeCount: number }
    ).likeCount;

    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await startServer(env);
    servers.push(second);
    const comments = (await (
      await fetch(`${second.url}/api/blog/posts/${post.post_id}/comments?limit=100`)
    ).json()) as {
      comment_id: number;
    }[];
    const stored = new Set(comments.map((c) => c.comment_id));
    for (const id of acknowledged) expect(stored.has(id), `comment ${id}`).toBe(true);
    const after = (await (await fetch(`${second.url}/api/blog/posts/${post.slug}`)).json()) as {
      likeCount: number;
    };
    expect(after.likeCount).toBe(likeCountBefore);
    // Two whole servers start (each 10–20 s on a busy machine), beside ten parents made in the emulator.
  }, 180_000);
});
