// Vitest globalSetup for the api projects: the run's one Auth emulator, and the template databases
// every API test copies (SQLite files, or in api-pg databases in the run's cluster, which
// tests/helpers/postgres-setup.ts starts first).
import type { TestProject } from 'vitest/node';
import { acquire, sharedAuthEmulator } from './run-shared.ts';
import { makeTemplates } from './test-db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
  }
}

export default async function setup(project: TestProject) {
  const emulator = await sharedAuthEmulator();
  const postgresUrl = project.getProvidedContext().postgresUrl;
  const templates = await acquire(`templates ${postgresUrl ?? 'sqlite'}`, () => makeTemplates(postgresUrl));
  project.provide('authEmulatorHost', emulator.value);
  project.provide('templates', templates.value);
  return async () => {
    await templates.release();
    await emulator.release();
  };
}
