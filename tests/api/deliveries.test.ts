// The durable deliveries queue and its worker (api/lib/deliveries.ts) against real HTTP listeners:
// an escalation goes out at once, a failed one is retried with backoff until it arrives, nothing is
// lost across a restart, and two workers never send the same row twice. The clock is injected.
import { afterEach, describe, expect, it } from 'vitest';
import type { ReportFiled } from '../../api/contract.ts';
import { openDatabase } from '../../api/db/database.ts';
import { enqueueDelivery, retarget } from '../../api/db/queries/deliveries.ts';
import { ESCALATION } from '../../api/db/queries/deliveries.ts';
import {
  backoffMs,
  createDeliveryWorker,
  createWebhookSender,
  type DeliveryWorker,
} from '../../api/lib/deliveries.ts';
import { startListener, type Listener } from '../helpers/listener.ts';
import { call, createCommunityApp, expectJson, newParent } from '../helpers/parents.ts';
import { freePort } from '../../scripts/lib/ports.ts';
import { createTestDb, TEST_NOW } from '../helpers/test-db.ts';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

function worker(options: Parameters<typeof createDeliveryWorker>[0]): DeliveryWorker {
  const created = createDeliveryWorker({ log: () => {}, ...options });
  stops.push(() => created.stop());
  return created;
}

async function listener(options: Parameters<typeof startListener>[0] = {}): Promise<Listener> {
  const started = await startListener(options);
  stops.push(() => started.close());
  return started;
}

const webhook = { webhook: createWebhookSender({ timeoutMs: 5_000 }) };

describe('child-safety escalation', () => {
  it('reaches the webhook at once with the report, the comment and a link to the console', async () => {
    const hook = await listener();
    const { app, db } = await createCommunityApp({
      safety: {
        holdFirstComment: false,
        escalationUrl: `${hook.url}/safety`,
        siteUrl: 'https://nestling.test',
      },
      // The worker is made below, over the same database; the app pokes it after an escalation.
      deliveries: { poke: () => deliveries.poke() },
    });
    const deliveries = worker({ db, senders: webhook });
    deliveries.start();
    const author = await newParent(app, db, 'Ada Author');
    const reporter = await newParent(app, db, 'Rae Reporter');
    const [post] = await expectJson<{ postId: number }[]>(app.request('/api/blog/posts'), 200);
    const posted = await expectJson<{ comment: { comment_id: number } }>(
      call(app, 'POST', `/api/blog/posts/${post!.postId}/comments`, {
        token: author.token,
        body: { content: 'Words a parent is worried about' },
      }),
      201,
    );
    const filed = await expectJson<ReportFiled>(
      call(app, 'POST', `/api/blog/comments/${posted.comment.comment_id}/reports`, {
        token: reporter.token,
        body: { category: 'child_safety', note: 'Please look' },
      }),
      201,
    );
    const [request] = await hook.waitFor(1);
    expect(request).toMatchObject({
      method: 'POST',
      path: '/safety',
      headers: { 'content-type': 'application/json' },
      body: {
        type: 'nestling.child_safety_report',
        consoleUrl: `https://nestling.test/moderation#report-${filed.reportId}`,
        report: { reportId: filed.reportId, category: 'child_safety', note: 'Please look' },
        comment: { commentId: posted.comment.comment_id, content: 'Words a parent is worried about' },
      },
    });
    await deliveries.stop();
    const row = await db.selectFrom('deliveries').selectAll().executeTakeFirstOrThrow();
    expect(row.delivered_at).not.toBeNull();
    expect(row.attempts).toBe(1);
  });
});

describe('the deliveries worker', () => {
  it('keeps a failed delivery and retries it with backoff until the listener is back', async () => {
    const { db } = await createTestDb({ seed: false });
    const port = await freePort();
    let now = new Date(TEST_NOW);
    const id = await enqueueDelivery(
      db,
      { ...ESCALATION, target: `http://127.0.0.1:${port}/hook`, payload: { hello: 'world' } },
      now,
    );
    const w = worker({ db, senders: webhook, now: () => now, baseDelayMs: 1_000, maxDelayMs: 600_000 });
    const row = () =>
      db.selectFrom('deliveries').selectAll().where('delivery_id', '=', id).executeTakeFirstOrThrow();

    expect(await w.tick()).toBe(0);
    expect(await row()).toMatchObject({
      attempts: 1,
      delivered_at: null,
      claimed_until: null,
      next_attempt_at: new Date(now.getTime() + 1_000).toISOString(),
    });
    expect((await row()).last_error).toMatch(/ECONNREFUSED/);
    // Not due yet: nothing is tried.
    expect(await w.tick()).toBe(0);
    expect((await row()).attempts).toBe(1);

    now = new Date(now.getTime() + 1_000);
    expect(await w.tick()).toBe(0);
    expect(await row()).toMatchObject({
      attempts: 2,
      next_attempt_at: new Date(now.getTime() + 2_000).toISOString(),
    });

    const hook = await listener({ port });
    now = new Date(now.getTime() + 2_000);
    expect(await w.tick()).toBe(1);
    expect(await row()).toMatchObject({ attempts: 3, delivered_at: now.toISOString(), last_error: null });
    expect(hook.received.map((r) => r.body)).toEqual([{ hello: 'world' }]);
    // Delivered once, never again.
    now = new Date(now.getTime() + 3_600_000);
    expect(await w.tick()).toBe(0);
    expect(hook.received).toHaveLength(1);
  });

  it('treats an answer other than 2xx as a failure', async () => {
    const { db } = await createTestDb({ seed: false });
    const hook = await listener({ status: 503 });
    const id = await enqueueDelivery(db, { ...ESCALATION, target: hook.url, payload: {} }, TEST_NOW);
    const w = worker({ db, senders: webhook, now: () => TEST_NOW });
    expect(await w.tick()).toBe(0);
    const row = await db
      .selectFrom('deliveries')
      .selectAll()
      .where('delivery_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.last_error).toBe(`${hook.url} answered 503`);
    expect(hook.received).toHaveLength(1);
  });

  it('loses nothing across a restart', async () => {
    const { db, location } = await createTestDb({ seed: false });
    const port = await freePort();
    const now = new Date(TEST_NOW);
    await enqueueDelivery(db, { ...ESCALATION, target: `http://127.0.0.1:${port}`, payload: { n: 1 } }, now);
    const first = worker({ db, senders: webhook, now: () => now });
    expect(await first.tick()).toBe(0);
    await first.stop();
    await db.destroy();

    // The server comes back (a new process: a new connection to the same file) and so does the listener.
    const hook = await listener({ port });
    const reopened = openDatabase(location);
    stops.push(() => reopened.destroy());
    const later = new Date(now.getTime() + 60_000);
    const second = worker({ db: reopened, senders: webhook, now: () => later });
    expect(await second.tick()).toBe(1);
    expect(hook.received.map((r) => r.body)).toEqual([{ n: 1 }]);
  });

  it('never lets two workers send the same row', async () => {
    const { db, location } = await createTestDb({ seed: false });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const hook = await listener({ hold: () => gate });
    for (let n = 0; n < 6; n++) {
      await enqueueDelivery(db, { ...ESCALATION, target: hook.url, payload: { n } }, TEST_NOW);
    }
    const other = openDatabase(location);
    stops.push(() => other.destroy());
    // One row at a time each, so both are sending while either holds a lease.
    const a = worker({ db, senders: webhook, now: () => TEST_NOW, batch: 1 });
    const b = worker({ db: other, senders: webhook, now: () => TEST_NOW, batch: 1 });
    const passA = a.tick();
    await hook.waitFor(1); // A holds a lease on one row while its receiver is slow …
    const passB = b.tick(); // … so B takes another.
    await hook.waitFor(2);
    release();
    const [sentByA, sentByB] = await Promise.all([passA, passB]);
    expect(sentByA).toBeGreaterThan(0);
    expect(sentByB).toBeGreaterThan(0);
    expect(sentByA + sentByB).toBe(6);
    expect(hook.received.map((r) => (r.body as { n: number }).n).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('waits without a target, and sends once one is configured', async () => {
    const { db } = await createTestDb({ seed: false });
    const id = await enqueueDelivery(
      db,
      { ...ESCALATION, target: null, payload: { waiting: true } },
      TEST_NOW,
    );
    const hook = await listener();
    const w = worker({ db, senders: webhook, now: () => TEST_NOW });
    expect(await w.tick()).toBe(0);
    expect(hook.received).toHaveLength(0);
    expect(await retarget(db, ESCALATION.purpose, hook.url, TEST_NOW)).toBe(1);
    expect(await w.tick()).toBe(1);
    const row = await db
      .selectFrom('deliveries')
      .selectAll()
      .where('delivery_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.target).toBe(hook.url);
  });

  it('backs off exponentially, capped at 10 minutes', () => {
    expect([0, 1, 2, 3].map((n) => backoffMs(n, 1_000, 600_000))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(backoffMs(10, 1_000, 600_000)).toBe(600_000);
    expect(backoffMs(1_000, 1_000, 600_000)).toBe(600_000);
  });
});
