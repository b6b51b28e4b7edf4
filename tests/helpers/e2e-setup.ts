// Vitest globalSetup for the e2e project: one real `npm start` server (fresh database, fresh site
// build in a temp folder) for all browser tests; stopped when the run ends.
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from './start-server.ts';
import { tempDir } from './test-db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    e2eDataDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = tempDir('nestling-e2e-');
  const server = await startServer({
    DATABASE_PATH: path.join(dir, 'e2e.db'),
    SITE_DIR: path.join(dir, 'site'),
  });
  project.provide('baseURL', server.url);
  project.provide('e2eDataDir', dir);
  return async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
