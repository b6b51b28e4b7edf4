// Mail through the durable deliveries queue (api/lib/mail.ts, api/lib/deliveries.ts) against a real
// SMTP server in this process: a message arrives with its headers, a server that is down at first
// (or refuses the recipient) gets it once it is back, nothing is lost when the worker is made anew
// over a reopened database, and without SMTP_URL the outbox keeps every message for admins.
import { afterEach, describe, expect, it } from 'vitest';
import type { Outbox } from '../../api/contract.ts';
import { openDatabase } from '../../api/db/database.ts';
import { enqueueEmail } from '../../api/db/queries/mail.ts';
import { createDeliveryWorker, type DeliveryWorker } from '../../api/lib/deliveries.ts';
import { accountErasedEmail } from '../../api/lib/emails.ts';
import { createEmailSender, EMAIL_KIND, type EmailMessage, FORGOTTEN_RECIPIENT } from '../../api/lib/mail.ts';
import { call, createCommunityApp, expectJson, newParent } from '../helpers/parents.ts';
import { freePort } from '../../scripts/lib/ports.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';
import { createTestDb, TEST_MAIL, TEST_NOW } from '../helpers/test-db.ts';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function smtp(options: Parameters<typeof startSmtpServer>[0] = {}): Promise<TestSmtpServer> {
  const server = await startSmtpServer(options);
  stops.push(() => server.close());
  return server;
}

function worker(options: Parameters<typeof createDeliveryWorker>[0]): DeliveryWorker {
  const created = createDeliveryWorker({ log: () => {}, ...options });
  stops.push(() => created.stop());
  return created;
}

const FROM = 'Nestling <no-reply@nestling.test>';
const smtpSender = (url: string) => ({
  [EMAIL_KIND]: createEmailSender({ smtpUrl: url, from: FROM, timeoutMs: 5_000, log: () => {} }),
});

const message = (to: string, subject = 'Hello from the queue'): EmailMessage => ({
  to,
  subject,
  text: 'First line\nhttp://nestling.test/blog/some-post#comment-7',
  headers: {
    'List-Unsubscribe': '<http://nestling.test/api/notifications/one-click?token=abc&scope=all>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
});

describe('email through the deliveries queue', () => {
  it('reaches the SMTP server with its From, text and headers, and a Message-ID that a resend would repeat', async () => {
    const server = await smtp();
    const { db } = await createTestDb({ seed: false });
    const id = await enqueueEmail(db, 'test', message('ada@example.com'), TEST_NOW);
    const w = worker({ db, senders: smtpSender(server.url), now: () => TEST_NOW });
    expect(await w.tick()).toBe(1);
    const [mail] = await server.waitFor(1);
    expect(mail!.to).toEqual(['ada@example.com']);
    expect(mail!.subject).toBe('Hello from the queue');
    expect(mail!.parsed.from?.text).toBe('"Nestling" <no-reply@nestling.test>');
    expect(mail!.text.trim()).toBe('First line\nhttp://nestling.test/blog/some-post#comment-7');
    expect(mail!.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mail!.header('List-Unsubscribe')).toBe(
      '<http://nestling.test/api/notifications/one-click?token=abc&scope=all>',
    );
    expect(mail!.parsed.messageId).toMatch(new RegExp(`^<delivery-${id}\\.[0-9a-f]{16}@nestling\\.test>$`));
    const row = await db
      .selectFrom('deliveries')
      .selectAll()
      .where('delivery_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'email', target: 'ada@example.com', attempts: 1, last_error: null });
    expect(row.delivered_at).toBe(TEST_NOW.toISOString());
  });

  it('keeps a message while the SMTP server is down and delivers it, once, when it is back', async () => {
    const { db } = await createTestDb({ seed: false });
    const port = await freePort();
    let now = new Date(TEST_NOW);
    const id = await enqueueEmail(db, 'test', message('bea@example.com'), now);
    const w = worker({
      db,
      senders: smtpSender(`smtp://127.0.0.1:${port}`),
      now: () => now,
      baseDelayMs: 1_000,
    });
    const row = () =>
      db.selectFrom('deliveries').selectAll().where('delivery_id', '=', id).executeTakeFirstOrThrow();

    expect(await w.tick()).toBe(0);
    expect(await row()).toMatchObject({
      attempts: 1,
      delivered_at: null,
      next_attempt_at: new Date(now.getTime() + 1_000).toISOString(),
    });
    expect((await row()).last_error).toMatch(/ECONNREFUSED/);
    now = new Date(now.getTime() + 1_000);
    expect(await w.tick()).toBe(0);
    expect(await row()).toMatchObject({
      attempts: 2,
      next_attempt_at: new Date(now.getTime() + 2_000).toISOString(),
    });

    const server = await smtp({ port });
    // Not due yet: the backoff holds even though the server is back.
    expect(await w.tick()).toBe(0);
    expect(server.received).toHaveLength(0);
    now = new Date(now.getTime() + 2_000);
    expect(await w.tick()).toBe(1);
    expect((await server.waitFor(1)).map((m) => m.to)).toEqual([['bea@example.com']]);
    expect(await row()).toMatchObject({ attempts: 3, delivered_at: now.toISOString(), last_error: null });
    now = new Date(now.getTime() + 3_600_000);
    expect(await w.tick()).toBe(0);
    expect(server.received).toHaveLength(1);
  });

  it('retries a message the server refuses, as it retries one it cannot reach, and logs no address', async () => {
    const refusing = await smtp({ reject: true });
    const { db } = await createTestDb({ seed: false });
    const id = await enqueueEmail(db, 'test', message('cy@example.com'), TEST_NOW);
    const logged: string[] = [];
    const w = worker({
      db,
      senders: smtpSender(refusing.url),
      now: () => TEST_NOW,
      log: (line) => logged.push(line),
    });
    expect(await w.tick()).toBe(0);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^Delivery #\d+ \(test\) failed: .*550.*<address>: Recipient address rejected/);
    expect(logged[0]).not.toContain('@');
    const row = await db
      .selectFrom('deliveries')
      .selectAll()
      .where('delivery_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.delivered_at).toBeNull();
    expect(row.last_error).toMatch(/550/);
    expect(refusing.received).toHaveLength(0);
  });

  it('loses nothing when the worker is made anew over a reopened database', async () => {
    const { db, location: file } = await createTestDb({ seed: false });
    const port = await freePort();
    let now = new Date(TEST_NOW);
    await enqueueEmail(db, 'test', message('dee@example.com', 'Survives a restart'), now);
    const first = createDeliveryWorker({
      db,
      senders: smtpSender(`smtp://127.0.0.1:${port}`),
      now: () => now,
      log: () => {},
    });
    expect(await first.tick()).toBe(0);
    await first.stop();
    await db.destroy();

    // A new process: the database from its file, a new worker, and the server is up now.
    const reopened = openDatabase(file);
    stops.push(() => reopened.destroy());
    const server = await smtp({ port });
    now = new Date(now.getTime() + 60_000);
    const second = worker({ db: reopened, senders: smtpSender(server.url), now: () => now });
    second.start();
    const [mail] = await server.waitFor(1);
    expect(mail!.subject).toBe('Survives a restart');
    await second.stop();
    const rows = await reopened.selectFrom('deliveries').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.delivered_at).not.toBeNull();
    expect(server.received).toHaveLength(1);
  });

  it('forgets the address of a message that asks for it once the server has it', async () => {
    const server = await smtp();
    const { db } = await createTestDb({ seed: false });
    const id = await enqueueEmail(
      db,
      'account_erased',
      accountErasedEmail(TEST_MAIL, 'gone@example.com'),
      TEST_NOW,
    );
    const w = worker({ db, senders: smtpSender(server.url), now: () => TEST_NOW });
    expect(await w.tick()).toBe(1);
    expect((await server.waitFor(1))[0]!.to).toEqual(['gone@example.com']);
    const row = await db
      .selectFrom('deliveries')
      .selectAll()
      .where('delivery_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.target).toBe(FORGOTTEN_RECIPIENT);
    expect(row.payload).not.toContain('gone@example.com');
    expect(JSON.parse(row.payload)).toMatchObject({
      to: FORGOTTEN_RECIPIENT,
      subject: 'Your Nestling account has been deleted',
    });
  });
});

describe('the outbox (no SMTP_URL)', () => {
  it('keeps each message, logs it in one line, and shows it to admins only, newest first, a page at a time', async () => {
    const { app, db } = await createCommunityApp();
    const admin = await newParent(app, db, 'Ada Admin', 'admin');
    const parent = await newParent(app, db, 'Pat Parent');
    const logged: string[] = [];
    const w = worker({
      db,
      senders: {
        [EMAIL_KIND]: createEmailSender({ smtpUrl: null, from: FROM, log: (line) => logged.push(line) }),
      },
      now: () => TEST_NOW,
    });
    for (const n of [1, 2, 3])
      await enqueueEmail(db, 'test', message(`reader${n}@example.com`, `Message ${n}`), TEST_NOW);
    expect(await w.tick()).toBe(3);
    expect(logged).toHaveLength(3);
    expect(logged[0]).toMatch(/^Email #\d+ \(test\) kept in the outbox \(no SMTP_URL\)$/);
    expect(logged.join('\n')).not.toMatch(/@|Message/);

    expect((await call(app, 'GET', '/api/admin/outbox')).status).toBe(401);
    const refused = await call(app, 'GET', '/api/admin/outbox', { token: parent.token });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: 'Only admins may read the mail log. Ask an admin to run npm run user:role for you.',
    });

    const res = await call(app, 'GET', '/api/admin/outbox?limit=2', { token: admin.token });
    const first = await expectJson<Outbox>(res, 200);
    expect(first.transport).toBe('outbox');
    expect(first.emails.map((e) => e.subject)).toEqual(['Message 3', 'Message 2']);
    expect(first.emails[0]).toMatchObject({
      to: 'reader3@example.com',
      state: 'sent',
      attempts: 1,
      lastError: null,
      sentAt: TEST_NOW.toISOString(),
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    const link = /<([^>]+)>; rel="next"/.exec(res.headers.get('Link') ?? '')?.[1];
    expect(link).toBe(`/api/admin/outbox?limit=2&before=${first.emails[1]!.id}`);
    const second = await expectJson<Outbox>(call(app, 'GET', link!, { token: admin.token }), 200);
    expect(second.emails.map((e) => e.subject)).toEqual(['Message 1']);

    const bad = await call(app, 'GET', '/api/admin/outbox?before=x', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'before: must be a message id' });
  });

  it('shows a message that waits for a retry as waiting, with its error', async () => {
    const { app, db } = await createCommunityApp({ mail: { ...TEST_MAIL, transport: 'smtp' } });
    const admin = await newParent(app, db, 'Ada Admin', 'admin');
    const port = await freePort();
    await enqueueEmail(db, 'test', message('wait@example.com'), TEST_NOW);
    await worker({ db, senders: smtpSender(`smtp://127.0.0.1:${port}`), now: () => TEST_NOW }).tick();
    const outbox = await expectJson<Outbox>(
      call(app, 'GET', '/api/admin/outbox', { token: admin.token }),
      200,
    );
    expect(outbox.transport).toBe('smtp');
    expect(outbox.emails[0]).toMatchObject({ state: 'waiting', attempts: 1, sentAt: null });
    expect(outbox.emails[0]!.lastError).toMatch(/ECONNREFUSED/);
  });
});
