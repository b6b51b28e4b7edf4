// Vitest globalSetup for the e2e projects (e2e, e2e-pg and smoke). The run has one of each, shared
// by every project that asks (tests/helpers/run-shared.ts):
// - server "demo": `npm start` with the defaults (demo mode) on a fresh SQLite file, which publishes
//   its first release and so builds the demo site (the smoke project needs only this one);
// - the real Auth emulator;
// - server "auth": `npm start` configured for Firebase against that emulator, likewise building its
//   site, with first comments not held for review (tests/e2e/moderation.test.ts covers
//   pre-moderation through the links rule), child-safety escalations sent to a port where nothing
//   listens until a test starts a listener there (an escalation target that is down at first), and
//   mail to SMTP_URL on another such port (tests/e2e/account.test.ts starts an SMTP server there).
// Those two builds are the run's only site builds apart from tests/e2e/publish.test.ts's one real
// publish. In e2e-pg the same two configurations run on databases of their own in the run's
// PostgreSQL cluster, seeded and released as a fresh server would be, serving a copy of the build
// (startFromBuild). Everything is stopped when the run ends.
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { EMULATOR_PROJECT_ID } from '../../scripts/lib/auth-emulator.ts';
import { freePort } from '../../scripts/lib/ports.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { E2E_LISTINGS_TOKEN } from './listings.ts';
import { acquire, sharedAuthEmulator } from './run-shared.ts';
import { type BuiltSites, type StartedServer, startFromBuild, startServer } from './start-server.ts';
import { createDatabase } from './test-db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The demo-mode server (the default configuration). */
    baseURL: string;
    /** The server whose sign-in runs against the Auth emulator. */
    authBaseURL: string;
    authEmulatorHost: string;
    /** The run's two site builds, for tests that start a server of their own from a copy. */
    builtSites: BuiltSites;
    /** How the auth server's database is named to a script (DATABASE_URL or DATABASE_PATH). */
    authDatabaseEnv: Record<string, string>;
    /** Where the auth server sends child-safety escalations (http://127.0.0.1:<port>/escalations). */
    escalationPort: number;
    /** Where the auth server sends mail (SMTP_URL=smtp://127.0.0.1:<port>). */
    smtpPort: number;
  }
}

interface Harness {
  baseURL: string;
  authBaseURL: string;
  authDatabaseEnv: Record<string, string>;
  escalationPort: number;
  smtpPort: number;
}

/** The auth server's settings beside its database: sign-in against the emulator, hooks on free ports. */
async function authSettings(emulatorHost: string) {
  const escalationPort = await freePort();
  const smtpPort = await freePort();
  const env = {
    PUBLIC_FIREBASE_API_KEY: 'emulator-api-key',
    PUBLIC_FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
    FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    MODERATION_HOLD_FIRST: '0',
    SAFETY_ESCALATION_URL: `http://127.0.0.1:${escalationPort}/escalations`,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: 'Nestling <no-reply@nestling.test>',
    // The marketplace's intake, with photos from the tests' own listeners on this machine.
    LISTINGS_TOKEN: E2E_LISTINGS_TOKEN,
    LISTING_PHOTO_HOSTS: '127.0.0.1',
  };
  return { env, escalationPort, smtpPort };
}

/** Stops what started if one of them failed, so a failed setup leaves no server behind. */
async function allOrNothing(starts: (() => Promise<StartedServer>)[]): Promise<StartedServer[]> {
  const started: StartedServer[] = [];
  try {
    for (const start of starts) started.push(await start());
    return started;
  } catch (error) {
    for (const server of started) await server.stop();
    throw error;
  }
}

/** The demo SQLite server, built by its own first publish. */
async function startDemoOnSqlite() {
  const dir = tempDir('nestling-e2e-demo-');
  const server = await startServer({
    DATABASE_PATH: path.join(dir, 'demo.db'),
    SITE_DIR: path.join(dir, 'site'),
  });
  return { value: { baseURL: server.url, builtSite: await server.liveFolder() }, stop: server.stop };
}

/** The auth SQLite server, built by its own first publish. */
async function startAuthOnSqlite(emulatorHost: string) {
  const dir = tempDir('nestling-e2e-auth-');
  const auth = await authSettings(emulatorHost);
  const database = path.join(dir, 'auth.db');
  const server = await startServer({
    DATABASE_PATH: database,
    SITE_DIR: path.join(dir, 'site'),
    ...auth.env,
  });
  const value = {
    authBaseURL: server.url,
    authDatabaseEnv: { DATABASE_PATH: database },
    escalationPort: auth.escalationPort,
    smtpPort: auth.smtpPort,
    builtSite: await server.liveFolder(),
  };
  return { value, stop: server.stop };
}

/** The same two servers on PostgreSQL, serving copies of the SQLite servers' builds. */
async function startOnPostgres(postgresUrl: string, emulatorHost: string, builtSites: BuiltSites) {
  const auth = await authSettings(emulatorHost);
  const databases = {
    demo: await createDatabase(postgresUrl, 'e2e_demo'),
    auth: await createDatabase(postgresUrl, 'e2e_auth'),
  };
  const [demo, authServer] = await allOrNothing([
    () => startFromBuild(builtSites.demo, { DATABASE_URL: databases.demo }),
    () => startFromBuild(builtSites.auth, { DATABASE_URL: databases.auth, ...auth.env }),
  ]);
  const value: Harness = {
    baseURL: demo!.url,
    authBaseURL: authServer!.url,
    authDatabaseEnv: { DATABASE_URL: databases.auth },
    escalationPort: auth.escalationPort,
    smtpPort: auth.smtpPort,
  };
  return {
    value,
    stop: async () => {
      for (const server of [demo!, authServer!]) await server.stop();
    },
  };
}

export default async function setup(project: TestProject) {
  const releases: (() => Promise<void>)[] = [];
  const releaseAll = async () => {
    for (const release of releases.reverse()) await release();
  };
  try {
    // The two site builds run side by side: each leaves part of the two cores idle while it waits on
    // files and its workers, so together they take a few seconds less (27–30 s against 31–33 s).
    const demoStarted = acquire('e2e demo sqlite', startDemoOnSqlite);
    // The smoke project (one browser test on another Node) needs only the demo server.
    if (project.name === 'smoke') {
      const demo = await demoStarted;
      releases.push(demo.release);
      project.provide('baseURL', demo.value.baseURL);
      return releaseAll;
    }
    const emulatorStarted = sharedAuthEmulator();
    const sqliteStarted = emulatorStarted.then((emulator) =>
      acquire('e2e auth sqlite', () => startAuthOnSqlite(emulator.value)),
    );
    const started = await Promise.allSettled([demoStarted, emulatorStarted, sqliteStarted]);
    for (const outcome of started) if (outcome.status === 'fulfilled') releases.push(outcome.value.release);
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    const [demo, emulator, sqlite] = [await demoStarted, await emulatorStarted, await sqliteStarted];
    const builtSites: BuiltSites = { demo: demo.value.builtSite, auth: sqlite.value.builtSite };
    const postgresUrl = project.getProvidedContext().postgresUrl;
    let harness: Harness = { baseURL: demo.value.baseURL, ...sqlite.value };
    if (postgresUrl) {
      const onPostgres = await acquire(`e2e servers ${postgresUrl}`, () =>
        startOnPostgres(postgresUrl, emulator.value, builtSites),
      );
      releases.push(onPostgres.release);
      harness = onPostgres.value;
    }
    project.provide('baseURL', harness.baseURL);
    project.provide('authBaseURL', harness.authBaseURL);
    project.provide('authDatabaseEnv', harness.authDatabaseEnv);
    project.provide('escalationPort', harness.escalationPort);
    project.provide('smtpPort', harness.smtpPort);
    project.provide('authEmulatorHost', emulator.value);
    project.provide('builtSites', builtSites);
  } catch (error) {
    await releaseAll();
    throw error;
  }
  return releaseAll;
}
