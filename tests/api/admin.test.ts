// POST/GET /api/admin/publish: admins only, with the real publisher over a real database. The
// site build is the publisher's injected step; here it writes a marker (tests/e2e/publish.test.ts
// runs the real build).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { createFirebaseVerifier } from '../../api/auth/verifier.ts';
import { setRoleByEmail } from '../../api/db/queries/profiles.ts';
import type { PublishStatus } from '../../api/contract.ts';
import { createPublisher } from '../../scripts/lib/publisher.ts';
import { createEmulatorUser, EMULATOR_PROJECT_ID, type EmulatorUser } from '../helpers/auth-emulator.ts';
import { CONTENT_DIR, createTestApp, tempDir } from '../helpers/test-db.ts';

let app: ReturnType<typeof createApp>;
let publisher: ReturnType<typeof createPublisher>;
let admin: EmulatorUser;
let parent: EmulatorUser;
let siteDir: string;

beforeAll(async () => {
  const host = inject('authEmulatorHost');
  process.env.FIREBASE_AUTH_EMULATOR_HOST = host;
  const verifyToken = createFirebaseVerifier(EMULATOR_PROJECT_ID);
  const bare = await createTestApp({ verifyToken });
  siteDir = path.join(tempDir(), 'site');
  publisher = createPublisher({
    db: bare.db,
    contentDir: CONTENT_DIR,
    siteDir,
    buildEnv: {},
    log: () => {},
    build: async (dir) => {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'built'), new Date().toISOString());
    },
  });
  app = createApp({ db: bare.db, verifyToken, publisher });
  admin = await createEmulatorUser(host, { displayName: 'Editor Admin' });
  parent = await createEmulatorUser(host, { displayName: 'Plain Parent' });
  // Both sign in once (creating their profiles); then one becomes an admin.
  for (const user of [admin, parent]) {
    expect(
      (await app.request('/api/profile', { headers: { Authorization: `Bearer ${user.idToken}` } })).status,
    ).toBe(200);
  }
  expect(await setRoleByEmail(bare.db, admin.email, 'admin', new Date())).toBe(1);
});

const call = (method: 'GET' | 'POST', token?: string) =>
  app.request('/api/admin/publish', {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });

describe('admin publishing', () => {
  it('refuses anyone without a token (401) and signed-in non-admins (403)', async () => {
    for (const method of ['GET', 'POST'] as const) {
      expect((await call(method)).status).toBe(401);
      const res = await call(method, parent.idToken);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: string }).error).toMatch(/Only admins may publish/);
    }
    expect(fs.existsSync(siteDir)).toBe(false);
  });

  it('lets an admin publish and read the run status', async () => {
    const started = await call('POST', admin.idToken);
    expect(started.status).toBe(202);
    const run = (await started.json()) as { id: number; trigger: string };
    expect(run.trigger).toContain(admin.email);
    await publisher.idle();
    const status = (await (await call('GET', admin.idToken)).json()) as PublishStatus;
    expect(status.current).toBeNull();
    expect(status.recent[0]).toMatchObject({ id: run.id, state: 'succeeded', error: null });
    expect(status.recent[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(fs.readFileSync(path.join(siteDir, 'built'), 'utf8')).not.toBe('');
  });
});
