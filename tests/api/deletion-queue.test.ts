// The deletion queue for requests from the deletion form (api/db/queries/deletion-requests.ts,
// api/routes/admin.ts): an acknowledgement by email at once, due dates 30 days out and overdue
// marks for admins, erasure of the account that owns the address (found through the Admin SDK in
// the Auth emulator) or "no account found", a confirmation email either way, and the audit log.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditEntry, DeletionRequest, DeletionRequestList, PostSummary } from '../../api/contract.ts';
import type { DB } from '../../api/db/database.ts';
import type { DeliveryWorker } from '../../api/lib/deliveries.ts';
import { createEmulatorUser } from '../../scripts/lib/auth-emulator.ts';
import { createMailApp } from '../helpers/mail-app.ts';
import {
  call,
  createCommunityApp,
  emulatorAccounts,
  expectJson,
  newParent,
  type Parent,
} from '../helpers/parents.ts';
import type { TestSmtpServer } from '../helpers/smtp.ts';
import { TEST_NOW } from '../helpers/test-db.ts';

type App = Awaited<ReturnType<typeof createCommunityApp>>['app'];

let app: App;
let db: DB;
let mailApp: Awaited<ReturnType<typeof createMailApp>>;
let smtp: TestSmtpServer;
let worker: DeliveryWorker;
let admin: Parent;
let parent: Parent;
let now = new Date(TEST_NOW);

beforeAll(async () => {
  mailApp = await createMailApp({ now: () => now });
  ({ app, db, smtp, worker } = mailApp);
  admin = await newParent(app, db, 'Ada Admin', 'admin');
  parent = await newParent(app, db, 'Pat Parent');
});

afterAll(async () => {
  await mailApp?.stop();
});

const request = (email: string) =>
  call(app, 'POST', '/api/account/deletion-requests', {
    body: { email, reason: 'Privacy concerns', additionalInfo: 'Please hurry', confirmed: true },
  });

const list = () =>
  expectJson<DeletionRequestList>(
    call(app, 'GET', '/api/admin/deletion-requests', { token: admin.token }),
    200,
  );

async function audit(): Promise<AuditEntry[]> {
  return expectJson<AuditEntry[]>(
    call(app, 'GET', '/api/moderation/audit?limit=100', { token: admin.token }),
    200,
  );
}

describe('a request from the deletion form', () => {
  it('is acknowledged by email at once, with the date it will be done by', async () => {
    const count = smtp.received.length;
    expect(await expectJson(request('Someone.Else@Example.com'), 201)).toEqual({ received: true });
    const mail = (await smtp.waitFor(count + 1)).at(-1)!;
    expect(mail.to).toEqual(['someone.else@example.com']);
    expect(mail.subject).toBe('We received your request to delete your Nestling account');
    expect(mail.text).toContain('within 30 days, by 2026-12-22 (UTC)');
    expect(mail.text).toContain('privacy@nestling.test');
  });

  it('is filed once while it is open: a repeat adds no request and sends nothing', async () => {
    const count = smtp.received.length;
    const rows = await db.selectFrom('deletion_requests').selectAll().execute();
    expect(await expectJson(request('someone.else@example.com'), 201)).toEqual({ received: true });
    expect(await db.selectFrom('deletion_requests').selectAll().execute()).toHaveLength(rows.length);
    await worker.tick();
    expect(smtp.received).toHaveLength(count);
  });

  it('is listed for admins only, due 30 days after it arrived, and marked once overdue', async () => {
    expect((await call(app, 'GET', '/api/admin/deletion-requests')).status).toBe(401);
    const refused = await call(app, 'GET', '/api/admin/deletion-requests', { token: parent.token });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: 'Only admins may handle deletion requests. Ask an admin to run npm run user:role for you.',
    });
    const { open } = await list();
    expect(open).toEqual([
      {
        id: expect.any(Number),
        email: 'someone.else@example.com',
        reason: 'Privacy concerns',
        additionalInfo: 'Please hurry',
        createdAt: TEST_NOW.toISOString(),
        dueAt: '2026-12-22T12:00:00.000Z',
        overdue: false,
        status: 'open',
        closedAt: null,
        closedByName: null,
      },
    ]);
    now = new Date('2026-12-22T12:00:01Z');
    expect((await list()).open[0]!.overdue).toBe(true);
    now = new Date(TEST_NOW);
  });
});

describe('an admin closes a request', () => {
  it('as "no account found" when no account uses the address, and tells the requester', async () => {
    const [open] = (await list()).open;
    const erase = await call(app, 'POST', `/api/admin/deletion-requests/${open!.id}/erase`, {
      token: admin.token,
    });
    expect(erase.status).toBe(404);
    expect(await erase.json()).toEqual({
      error: 'No account uses this address. Close the request as "no account found" instead.',
    });
    const count = smtp.received.length;
    const closed = await expectJson<DeletionRequest>(
      call(app, 'POST', `/api/admin/deletion-requests/${open!.id}/close`, { token: admin.token }),
      200,
    );
    expect(closed).toMatchObject({
      id: open!.id,
      status: 'no_account',
      email: '',
      additionalInfo: null,
      closedAt: TEST_NOW.toISOString(),
      closedByName: 'Ada Admin',
      overdue: false,
    });
    const mail = (await smtp.waitFor(count + 1)).at(-1)!;
    expect(mail.to).toEqual(['someone.else@example.com']);
    expect(mail.text).toContain('found no account with it');
    const again = await call(app, 'POST', `/api/admin/deletion-requests/${open!.id}/close`, {
      token: admin.token,
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error: 'This request was already closed (no_account) by Ada Admin.',
    });
    expect((await list()).closed[0]).toMatchObject({ id: open!.id, status: 'no_account' });
  });

  it('by erasing the account that owns the address, with the confirmation and every step in the audit log', async () => {
    // A parent who signed in and commented here, then asked through the form.
    const leaver = await newParent(app, db, 'Lee Leaver');
    const [post] = await expectJson<PostSummary[]>(app.request('/api/blog/posts'), 200);
    await expectJson(
      call(app, 'POST', `/api/blog/posts/${post!.postId}/comments`, {
        token: leaver.token,
        body: { content: 'Bye everyone', parentCommentId: null },
      }),
      201,
    );
    await expectJson(request(leaver.email), 201);
    const open = (await list()).open.find((r) => r.email === leaver.email)!;
    const refused = await call(app, 'POST', `/api/admin/deletion-requests/${open.id}/close`, {
      token: admin.token,
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: 'An account uses this address: erase it instead.' });
    expect(
      (await call(app, 'POST', `/api/admin/deletion-requests/${open.id}/erase`, { token: parent.token }))
        .status,
    ).toBe(403);

    const closed = await expectJson<DeletionRequest>(
      call(app, 'POST', `/api/admin/deletion-requests/${open.id}/erase`, { token: admin.token }),
      200,
    );
    expect(closed).toMatchObject({ id: open.id, status: 'erased', email: '', closedByName: 'Ada Admin' });
    expect(await emulatorAccounts().findByEmail(leaver.email)).toBeNull();
    expect(
      await db.selectFrom('users_profile').selectAll().where('firebase_uid', '=', leaver.uid).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('comments').selectAll().where('content', '=', 'Bye everyone').execute(),
    ).toEqual([]);
    const mail = await smtp.message(leaver.email, 'Your Nestling account has been deleted');
    expect(mail.text).toContain('have been deleted');

    const entries = await audit();
    const about = (id: number) =>
      entries.filter((e) => e.targetType === 'deletion_request' && e.targetId === String(id));
    expect(about(open.id).map((e) => [e.action, e.actorName])).toEqual([
      ['deletion_request.erase', 'Ada Admin'],
      ['deletion_request.receive', 'Nestling (automatic)'],
    ]);
    const erasure = entries.find((e) => e.action === 'account.erase')!;
    expect(erasure).toMatchObject({
      actorUid: admin.uid,
      actorName: 'Ada Admin',
      targetType: 'user',
      targetId: expect.stringMatching(/^erased-[0-9a-f]{16}$/),
      reason: 'Deletion request',
      details: { comments: 1, commentsRemoved: 1, deletionRequests: String(open.id) },
    });
    expect(JSON.stringify(entries)).not.toContain(leaver.uid);
    expect(JSON.stringify(entries)).not.toContain(leaver.email);
  });

  it('erases an account that never signed in here, found through the Admin SDK', async () => {
    const stranger = await createEmulatorUser(inject('authEmulatorHost'));
    await expectJson(request(stranger.email), 201);
    const open = (await list()).open.find((r) => r.email === stranger.email)!;
    await expectJson(
      call(app, 'POST', `/api/admin/deletion-requests/${open.id}/erase`, { token: admin.token }),
      200,
    );
    expect(await emulatorAccounts().findByEmail(stranger.email)).toBeNull();
  });

  it('answers a bad or unknown request id with a 4xx that says so', async () => {
    const bad = await call(app, 'POST', '/api/admin/deletion-requests/abc/erase', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'requestId: must be a positive integer' });
    const unknown = await call(app, 'POST', '/api/admin/deletion-requests/99999/close', {
      token: admin.token,
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'Deletion request not found' });
  });
});
