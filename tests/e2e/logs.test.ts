// What the server prints keeps no parent's address or words (docs/product.md, "Deleting your
// account"): logs are kept longer and read more widely than the database, and an erasure cannot
// reach them. The real `npm start` process, without SMTP_URL so every email goes through the
// outbox and its log line, serves a reply notification and an erasure; then everything it printed
// is scanned.
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../api/db/database.ts';
import { createEmulatorUser, EMULATOR_PROJECT_ID } from '../../scripts/lib/auth-emulator.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { type StartedServer, startFromBuild } from '../helpers/start-server.ts';

let server: StartedServer | undefined;
afterAll(async () => {
  await server?.stop();
});

const ADDRESS = /[^\s<>()[\]"',;:@]+@[^\s<>()[\]"',;:@]+\.[a-z]{2,}/i;

/** Resolves once the server has printed a line matching `pattern`. */
async function printed(pattern: RegExp, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!pattern.test(server!.output())) {
    if (Date.now() - started > timeoutMs) {
      throw new Error(`The server did not print ${String(pattern)}:\n${server!.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the server log', () => {
  it('names messages by number and purpose, never an address, a name or a comment, through a reply email and an erasure', async () => {
    const host = inject('authEmulatorHost');
    const dir = tempDir('nestling-logs-');
    const dbFile = path.join(dir, 'logs.db');
    server = await startFromBuild(inject('builtSites').auth, {
      DATABASE_PATH: dbFile,
      SITE_DIR: path.join(dir, 'site'),
      PUBLIC_FIREBASE_API_KEY: 'emulator-api-key',
      FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: host,
      MODERATION_HOLD_FIRST: '0',
    });
    const base = server.url;
    const tag = crypto.randomUUID().slice(0, 6);
    const [ann, ben] = await Promise.all(
      ['Ann', 'Ben'].map((first) =>
        createEmulatorUser(host, {
          email: `${first.toLowerCase()}-${tag}@example.com`,
          displayName: `${first} Logcheck${tag}`,
        }),
      ),
    );
    const call = async (method: string, url: string, token: string | null, body?: unknown) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status, `${method} ${url}: ${await res.clone().text()}`).toBeLessThan(300);
      return res.json() as Promise<unknown>;
    };
    const db = openDatabase(dbFile);
    try {
      const post = await db.selectFrom('blog_posts').select('post_id').executeTakeFirstOrThrow();
      const annText = `Where did you find the blue stroller ${tag}?`;
      const benText = `At the parents' market on Saturday ${tag}.`;

      // Ann comments and asks for reply emails, then confirms her address from the email.
      const posted = (await call('POST', `/api/blog/posts/${post.post_id}/comments`, ann!.idToken, {
        content: annText,
      })) as { comment: { comment_id: number } };
      await call('PUT', `/api/notifications/threads/${post.post_id}`, ann!.idToken, { subscribed: true });
      await printed(/Email #\d+ \(reply_emails_confirm\) kept in the outbox/);
      const confirmation = await db
        .selectFrom('deliveries')
        .select('payload')
        .where('purpose', '=', 'reply_emails_confirm')
        .executeTakeFirstOrThrow();
      const token = /token=([0-9a-f]{64})/.exec(confirmation.payload)?.[1];
      expect(token).toBeDefined();
      await call('POST', '/api/notifications/confirm', null, { token });

      // Ben replies: Ann's reply email goes out.
      await call('POST', `/api/blog/posts/${post.post_id}/comments`, ben!.idToken, {
        content: benText,
        parentCommentId: posted.comment.comment_id,
      });
      await printed(/Email #\d+ \(reply_notification\) kept in the outbox/);

      // Ann erases her account: the confirmation goes to her address.
      await call('DELETE', '/api/account', ann!.idToken, { confirmEmail: ann!.email });
      await printed(/Email #\d+ \(account_erased\) kept in the outbox/);
    } finally {
      await db.destroy();
    }

    const log = server.output();
    expect(log).not.toMatch(ADDRESS);
    for (const secret of [
      ann!.email,
      ben!.email,
      `Logcheck${tag}`,
      `blue stroller ${tag}`,
      `market on Saturday ${tag}`,
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});
