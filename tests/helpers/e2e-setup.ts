// Vitest globalSetup for the e2e projects. It starts, for all browser tests:
// - the real Auth emulator;
// - server "demo": `npm start` with the defaults (demo mode), fresh database and site build;
// - server "auth": `npm start` configured for Firebase against that emulator, with first comments
//   not held for review (tests/e2e/moderation.test.ts covers pre-moderation through the links rule)
//   child-safety escalations sent to a port where nothing listens until a test starts a listener
//   there (an escalation target that is down at first), and mail to SMTP_URL on another such port
//   (tests/e2e/account.test.ts starts an SMTP server there).
// In e2e-pg both servers keep their data in a database of their own in the run's PostgreSQL cluster
// (tests/helpers/postgres-setup.ts runs first); in e2e, in SQLite files. Everything is stopped when
// the run ends.
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { describeDatabase } from '../../api/db/database.ts';
import { EMULATOR_PROJECT_ID, startAuthEmulator } from './auth-emulator.ts';
import { freePort } from './ports.ts';
import { startServer } from './start-server.ts';
import { createDatabase, tempDir } from './test-db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The demo-mode server (the default configuration). */
    baseURL: string;
    /** The server whose sign-in runs against the Auth emulator. */
    authBaseURL: string;
    authEmulatorHost: string;
    e2eDataDir: string;
    /** How the auth server's database is named to a script (DATABASE_URL or DATABASE_PATH). */
    authDatabaseEnv: Record<string, string>;
    /** Where the auth server sends child-safety escalations (http://127.0.0.1:<port>/escalations). */
    escalationPort: number;
    /** Where the auth server sends mail (SMTP_URL=smtp://127.0.0.1:<port>). */
    smtpPort: number;
  }
}

export default async function setup(project: TestProject) {
  const dir = tempDir('nestling-e2e-');
  const postgresUrl = project.getProvidedContext().postgresUrl;
  const database = async (name: string): Promise<Record<string, string>> =>
    postgresUrl
      ? { DATABASE_URL: await createDatabase(postgresUrl, name) }
      : { DATABASE_PATH: path.join(dir, `${name}.db`) };
  const [demoDatabase, authDatabase] = [await database('demo'), await database('auth')];
  const emulator = await startAuthEmulator();
  const escalationPort = await freePort();
  const smtpPort = await freePort();
  // One after the other: two concurrent `astro build`s share the project's .astro/ folder.
  const started: PromiseSettledResult<Awaited<ReturnType<typeof startServer>>>[] = [];
  const settle = <T>(promise: Promise<T>) =>
    promise.then(
      (value) => ({ status: 'fulfilled', value }) as const,
      (reason: unknown) => ({ status: 'rejected', reason }) as const,
    );
  started.push(
    await settle(
      startServer({
        ...demoDatabase,
        SITE_DIR: path.join(dir, 'site-demo'),
      }),
    ),
  );
  started.push(
    await settle(
      startServer({
        ...authDatabase,
        SITE_DIR: path.join(dir, 'site-auth'),
        PUBLIC_FIREBASE_API_KEY: 'emulator-api-key',
        PUBLIC_FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
        FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
        FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
        PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
        MODERATION_HOLD_FIRST: '0',
        SAFETY_ESCALATION_URL: `http://127.0.0.1:${escalationPort}/escalations`,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_FROM: 'Nestling <no-reply@nestling.test>',
      }),
    ),
  );
  const stopAll = async () => {
    for (const result of started) if (result.status === 'fulfilled') await result.value.stop();
    await emulator.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await stopAll();
    throw (failed as PromiseRejectedResult).reason;
  }
  const [demo, auth] = started.map(
    (r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof startServer>>>).value,
  );
  // Each server says which database it prepared: the one it was given, not a default.
  for (const [server, given] of [
    [demo!, demoDatabase],
    [auth!, authDatabase],
  ] as const) {
    const expected = describeDatabase(given.DATABASE_URL ?? given.DATABASE_PATH ?? '');
    if (!server.output().includes(`Preparing the database: ${expected} `)) {
      await stopAll();
      throw new Error(`A test server did not use ${expected}:\n${server.output()}`);
    }
  }
  project.provide('baseURL', demo!.url);
  project.provide('authBaseURL', auth!.url);
  project.provide('authEmulatorHost', emulator.host);
  project.provide('e2eDataDir', dir);
  project.provide('authDatabaseEnv', authDatabase);
  project.provide('escalationPort', escalationPort);
  project.provide('smtpPort', smtpPort);
  return stopAll;
}
