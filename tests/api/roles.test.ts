// People and roles (docs/product.md, "Roles"): admins find a person by email, see everyone with a
// role, and change a role, with an audit entry, never their own; `npm run user:role` sets every
// role with its audit entry too. Through the real app over a real database (SQLite here,
// PostgreSQL in api-pg), with Auth emulator parents, and the real script as a child process.
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, PersonWithRole, ProfileAnswer, StaffList } from '../../api/contract.ts';
import type { DB } from '../../api/db/database.ts';
import { setRoleByEmail } from '../../api/db/queries/profiles.ts';
import { createRateLimiter } from '../../api/middleware/rate-limit.ts';
import {
  call,
  createCommunityApp,
  emulatorAccounts,
  emulatorVerifier,
  expectJson,
  newParent,
  type Parent,
} from '../helpers/parents.ts';
import { databaseEnv, runScript } from '../helpers/run-script.ts';
import { createTestApp, TEST_NOW } from '../helpers/test-db.ts';

type Setup = Awaited<ReturnType<typeof createCommunityApp>>;
type App = Setup['app'];
let app: App;
let db: DB;
let location: string;
/** The app's clock: each change happens at a time of its own. */
let now = new Date(TEST_NOW);
let admin: Parent;
let otherAdmin: Parent;
let moderator: Parent;
let editor: Parent;
let parent: Parent;

const HOUR = 3_600_000;
const atHour = (hours: number) => (now = new Date(TEST_NOW.getTime() + hours * HOUR));

beforeAll(async () => {
  ({ app, db, location } = await createCommunityApp({ now: () => now }));
  admin = await newParent(app, db, 'Ari Admin', 'admin');
  otherAdmin = await newParent(app, db, 'Bea Admin', 'admin');
  moderator = await newParent(app, db, 'Mo Moderator', 'moderator');
  editor = await newParent(app, db, 'Eda Editor');
  // Given at a known time: the staff list shows when a role changed.
  await setRoleByEmail(db, editor.email, 'editor', TEST_NOW);
  parent = await newParent(app, db, 'Pat Parent');
});

const findPerson = (email: string, as: Parent = admin) =>
  call(app, 'GET', `/api/admin/people?email=${encodeURIComponent(email)}`, { token: as.token });
const changeRole = (email: string, role: string, as: Parent = admin, on: App = app) =>
  call(on, 'PUT', '/api/admin/people/role', { token: as.token, body: { email, role } });
const staff = (as: Parent = admin) =>
  expectJson<StaffList>(call(app, 'GET', '/api/admin/staff', { token: as.token }), 200);

async function roleAudit(): Promise<AuditEntry[]> {
  const entries = await expectJson<AuditEntry[]>(
    call(app, 'GET', '/api/moderation/audit?limit=100', { token: admin.token }),
    200,
  );
  return entries.filter((entry) => entry.action === 'user.role');
}

const roleOf = async (person: Parent) =>
  (await expectJson<ProfileAnswer>(call(app, 'GET', '/api/profile', { token: person.token }), 200)).role;

describe('who may see and change roles', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', `/api/admin/people?email=someone%40example.com`],
    ['GET', '/api/admin/staff'],
    ['PUT', '/api/admin/people/role', { email: 'someone@example.com', role: 'editor' }],
  ];

  it('asks an anonymous caller to sign in (401), whatever the request carries', async () => {
    for (const [method, path, body] of routes) {
      const res = await call(app, method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(await res.json()).toEqual({
        error: 'Authentication required: send an Authorization: Bearer token',
      });
    }
    // Even an invalid body is refused for who sends it before what it says.
    expect((await call(app, 'PUT', '/api/admin/people/role', { body: { role: 'king' } })).status).toBe(401);
  });

  it('refuses parents, moderators and editors (403), saying it is for admins', async () => {
    for (const who of [parent, moderator, editor]) {
      for (const [method, path, body] of routes) {
        const res = await call(app, method, path, { token: who.token, body });
        expect(res.status, `${who.name}: ${method} ${path}`).toBe(403);
        expect(await res.json()).toEqual({
          error: 'Only admins may change roles. Ask an admin to run npm run user:role for you.',
        });
      }
    }
    expect(await roleOf(parent)).toBe('user');
  });
});

describe('finding a person', () => {
  it('shows their name, email and role, whatever the case of the address typed', async () => {
    const found = await expectJson<PersonWithRole>(findPerson(` ${editor.email.toUpperCase()} `), 200);
    expect(found).toEqual({
      name: 'Eda Editor',
      email: editor.email,
      role: 'editor',
      roleChangedAt: TEST_NOW.toISOString(),
      isYou: false,
    });
    const me = await expectJson<PersonWithRole>(findPerson(admin.email), 200);
    expect(me).toMatchObject({ name: 'Ari Admin', role: 'admin', isYou: true });
  });

  it('says when nobody has signed in with the address (404), and when it is not one (400)', async () => {
    expect(await expectJson(findPerson('nobody-here@example.com'), 404)).toEqual({
      error: 'No one has signed in with that email yet.',
    });
    expect(await expectJson(findPerson('not-an-email'), 400)).toEqual({
      error: 'email: must be a valid email address',
    });
    expect(
      await expectJson(call(app, 'GET', '/api/admin/people', { token: admin.token }), 400),
    ).toMatchObject({ error: expect.stringMatching(/^email: /) });
  });
});

describe('changing a role', () => {
  it('makes a parent an author, then an editor: each change answered, in force and audited', async () => {
    const reader = await newParent(app, db, 'Rae Reader');
    const before = (await roleAudit()).length;

    atHour(1);
    const author = await expectJson<PersonWithRole>(changeRole(reader.email, 'author'), 200);
    expect(author).toEqual({
      name: 'Rae Reader',
      email: reader.email,
      role: 'author',
      roleChangedAt: now.toISOString(),
      isYou: false,
    });
    expect(await roleOf(reader)).toBe('author');

    atHour(2);
    const promoted = await expectJson<PersonWithRole>(changeRole(reader.email, 'editor', otherAdmin), 200);
    expect(promoted).toMatchObject({ role: 'editor', roleChangedAt: now.toISOString() });
    expect(await roleOf(reader)).toBe('editor');

    const entries = await roleAudit();
    expect(entries).toHaveLength(before + 2);
    // Newest first: who did it, to whom (by name, never a uid), from what to what.
    expect(entries.slice(0, 2)).toEqual([
      expect.objectContaining({
        at: new Date(TEST_NOW.getTime() + 2 * HOUR).toISOString(),
        actorUid: otherAdmin.uid,
        actorName: 'Bea Admin',
        targetType: 'user',
        targetId: reader.uid,
        target: { name: 'Rae Reader', href: null },
        reason: null,
        details: { from: 'author', to: 'editor' },
      }),
      expect.objectContaining({
        at: new Date(TEST_NOW.getTime() + HOUR).toISOString(),
        actorName: 'Ari Admin',
        target: { name: 'Rae Reader', href: null },
        details: { from: 'user', to: 'author' },
      }),
    ]);
  });

  it('gives a new admin the admin screens at once, and takes them away again', async () => {
    const helper = await newParent(app, db, 'Hal Helper');
    expect((await call(app, 'GET', '/api/admin/staff', { token: helper.token })).status).toBe(403);
    await expectJson(changeRole(helper.email, 'admin'), 200);
    expect((await staff(helper)).map((p) => p.email)).toContain(helper.email);
    await expectJson(changeRole(helper.email, 'user'), 200);
    expect((await call(app, 'GET', '/api/admin/staff', { token: helper.token })).status).toBe(403);
  });

  it('leaves a role that is already so as it is, with no audit entry', async () => {
    const before = (await roleAudit()).length;
    const same = await expectJson<PersonWithRole>(changeRole(moderator.email, 'moderator'), 200);
    expect(same.role).toBe('moderator');
    expect((await roleAudit()).length).toBe(before);
  });

  it('refuses to change your own role (400), so the last admin cannot lock everyone out', async () => {
    const before = (await roleAudit()).length;
    for (const role of ['user', 'editor', 'admin']) {
      expect(await expectJson(changeRole(admin.email.toUpperCase(), role), 400)).toEqual({
        error: 'You cannot change your own role: ask another admin.',
      });
    }
    expect(await roleOf(admin)).toBe('admin');
    expect((await roleAudit()).length).toBe(before);
  });

  it('says what is wrong with a role, an address or a person it cannot find', async () => {
    expect(await expectJson(changeRole(parent.email, 'superuser'), 400)).toEqual({
      error: 'role: must be one of user, author, editor, moderator, admin',
    });
    expect(await expectJson(changeRole('nope', 'editor'), 400)).toEqual({
      error: 'email: must be a valid email address',
    });
    expect(
      await expectJson(call(app, 'PUT', '/api/admin/people/role', { token: admin.token, body: {} }), 400),
    ).toMatchObject({ error: expect.stringMatching(/^email: .*; role: /) });
    expect(await expectJson(changeRole('nobody-here@example.com', 'editor'), 404)).toEqual({
      error: 'No one has signed in with that email yet.',
    });
    expect(await roleOf(parent)).toBe('user');
  });

  it('limits how fast an admin changes roles (429 with Retry-After)', async () => {
    const limited = await createTestApp((limitedDb) => ({
      verifyToken: emulatorVerifier(),
      accounts: emulatorAccounts(),
      writeLimiter: createRateLimiter(limitedDb, { scope: 'writes', limit: 2, windowMs: 60_000 }),
    }));
    const boss = await newParent(limited.app, limited.db, 'Lee Limited', 'admin');
    const someone = await newParent(limited.app, limited.db, 'Sam Someone');
    await expectJson(changeRole(someone.email, 'author', boss, limited.app), 200);
    await expectJson(changeRole(someone.email, 'editor', boss, limited.app), 200);
    const refused = await changeRole(someone.email, 'user', boss, limited.app);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({
      error: expect.stringMatching(/^Too many role changes in a short time\. Try again in \d+ s\.$/),
    });
    await limited.db.destroy();
  });
});

describe('the staff list', () => {
  it('lists everyone with a role other than parent, admins first, with when it was set', async () => {
    const writer = await newParent(app, db, 'Wren Writer');
    atHour(5);
    await expectJson(changeRole(writer.email, 'author'), 200);

    const list = await staff();
    const emails = list.map((p) => p.email);
    expect(emails).toEqual(expect.arrayContaining([admin.email, otherAdmin.email, moderator.email]));
    expect(emails).toEqual(expect.arrayContaining([editor.email, writer.email]));
    expect(emails).not.toContain(parent.email);
    expect(list.find((p) => p.email === writer.email)).toEqual({
      name: 'Wren Writer',
      email: writer.email,
      role: 'author',
      roleChangedAt: now.toISOString(),
      isYou: false,
    });
    expect(list.find((p) => p.email === admin.email)?.isYou).toBe(true);
    // Admins, then moderators, editors and authors; by name within a role.
    const ranks = list.map((p) => ['user', 'author', 'editor', 'moderator', 'admin'].indexOf(p.role));
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(list.slice(0, 2).map((p) => p.name)).toEqual(['Ari Admin', 'Bea Admin']);

    // Back to parent: off the list.
    await expectJson(changeRole(writer.email, 'user'), 200);
    expect((await staff()).map((p) => p.email)).not.toContain(writer.email);
  });
});

// Each run starts a process (a few seconds on a busy 2-core machine; two took over 30 s beside
// other test runs), hence the longer timeout.
describe('npm run user:role', { timeout: 120_000 }, () => {
  const run = (...args: string[]) => runScript('scripts/user-role.ts', args, databaseEnv(location));

  it('makes someone an author, then an editor, each with an audit entry of its own', async () => {
    const person = await newParent(app, db, 'Cy Command');
    const before = (await roleAudit()).length;

    const first = await run(person.email, 'author');
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain(`${person.email} is now author.`);
    expect(await roleOf(person)).toBe('author');

    const second = await run(person.email, 'editor');
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain(`${person.email} is now editor.`);
    expect(await roleOf(person)).toBe('editor');

    const entries = await roleAudit();
    expect(entries).toHaveLength(before + 2);
    expect(entries.slice(0, 2)).toEqual([
      expect.objectContaining({
        actorUid: null,
        actorName: 'Nestling (set on the server)',
        targetId: person.uid,
        target: { name: 'Cy Command', href: null },
        details: { from: 'author', to: 'editor' },
      }),
      expect.objectContaining({
        actorName: 'Nestling (set on the server)',
        details: { from: 'user', to: 'author' },
      }),
    ]);
  });

  it('lists the five roles when given another, and says when nobody has the address', async () => {
    const wrong = await run(parent.email, 'superuser');
    expect(wrong.code).toBe(2);
    expect(wrong.output).toContain(
      'Usage: npm run user:role -- <email> <user|author|editor|moderator|admin>',
    );
    expect(wrong.output).toContain('the role must be one of user, author, editor, moderator, admin');

    const nobody = await run('nobody-here@example.com', 'editor');
    expect(nobody.code).toBe(1);
    expect(nobody.output).toContain('No profile with the email nobody-here@example.com.');
    expect(await roleOf(parent)).toBe('user');
  });
});
