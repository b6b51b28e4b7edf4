// POST/GET /api/admin/publish and POST /api/admin/publish/rollback: admins only, with the real
// publisher over a real database. The site build is the publisher's injected step; here it writes
// a marker (tests/e2e/publish.test.ts runs the real build).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { PublishRun, PublishStatus, RolledBack } from '../../api/contract.ts';
import { listAudit } from '../../api/db/queries/audit.ts';
import { liveReleaseSource } from '../../api/lib/live-release.ts';
import { createPublisher } from '../../scripts/lib/publisher.ts';
import { call, emulatorVerifier, expectJson, newParent, type Parent } from '../helpers/parents.ts';
import { CONTENT_DIR, createTestApp } from '../helpers/test-db.ts';
import { tempDir } from '../../scripts/lib/temp.ts';

let app: ReturnType<typeof createApp>;
let db: Awaited<ReturnType<typeof createTestApp>>['db'];
let publisher: ReturnType<typeof createPublisher>;
let admin: Parent;
let parent: Parent;
let siteDir: string;

beforeAll(async () => {
  const verifyToken = emulatorVerifier();
  // The test database starts with one release (the seed content), as after a first publish.
  ({ db } = await createTestApp({ verifyToken }));
  siteDir = path.join(tempDir(), 'site');
  publisher = createPublisher({
    db,
    contentDir: CONTENT_DIR,
    siteDir,
    buildEnv: {},
    log: () => {},
    build: async (dir) => {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'built'), new Date().toISOString());
    },
  });
  // No cache of the live release: each answer shows a switch at once.
  app = createApp({ db, verifyToken, publisher, release: liveReleaseSource(db, { ttlMs: 0 }) });
  admin = await newParent(app, db, 'Editor Admin', 'admin');
  parent = await newParent(app, db, 'Plain Parent');
});

describe('admin publishing', () => {
  it('refuses anyone without a token (401) and signed-in non-admins (403)', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/publish'],
      ['POST', '/api/admin/publish'],
      ['POST', '/api/admin/publish/rollback'],
    ] as const) {
      const body = method === 'POST' ? {} : undefined;
      expect((await call(app, method, url, { body })).status).toBe(401);
      const refused = await expectJson<{ error: string }>(
        call(app, method, url, { token: parent.token, body }),
        403,
      );
      expect(refused.error).toMatch(/Only admins may publish/);
    }
    expect(fs.readdirSync(siteDir)).toEqual([]);
  });

  it('lets an admin publish and read the run status', async () => {
    const run = await expectJson<PublishRun>(
      call(app, 'POST', '/api/admin/publish', { token: admin.token }),
      202,
    );
    expect(run.trigger).toContain(admin.email);
    await publisher.finished(run.id);
    const status = await expectJson<PublishStatus>(
      call(app, 'GET', '/api/admin/publish', { token: admin.token }),
      200,
    );
    expect(status.current).toBeNull();
    expect(status.recent[0]).toMatchObject({ id: run.id, state: 'succeeded', live: true, error: null });
    expect(status.recent[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(status.live?.id).toBe(run.id);
    expect(status.previous?.id).toBe(status.recent[1]!.id);
    expect(fs.readFileSync(path.join(siteDir, String(run.id), 'built'), 'utf8')).not.toBe('');
  });

  it('lets an admin roll back to the previous release, with a reason in the audit log', async () => {
    const before = await expectJson<PublishStatus>(
      call(app, 'GET', '/api/admin/publish', { token: admin.token }),
      200,
    );
    const done = await expectJson<RolledBack>(
      call(app, 'POST', '/api/admin/publish/rollback', {
        token: admin.token,
        body: { reason: 'Wrong post went out' },
      }),
      200,
    );
    expect(done.from).toMatchObject({ id: before.live!.id, state: 'rolled_back', live: false });
    expect(done.to).toMatchObject({ id: before.previous!.id, live: true });
    const after = await expectJson<PublishStatus>(
      call(app, 'GET', '/api/admin/publish', { token: admin.token }),
      200,
    );
    expect(after.live?.id).toBe(before.previous!.id);
    expect(after.previous).toBeNull();
    const { entries } = await listAudit(db, { limit: 1, before: null });
    expect(entries[0]).toMatchObject({
      actorUid: admin.uid,
      actorName: 'Editor Admin',
      action: 'release.rollback',
      reason: 'Wrong post went out',
    });

    // The oldest release has nothing before it.
    const refused = await expectJson<{ error: string }>(
      call(app, 'POST', '/api/admin/publish/rollback', { token: admin.token, body: {} }),
      409,
    );
    expect(refused.error).toBe('There is no earlier release to go back to.');
  });
});
