// Vitest globalSetup for the PostgreSQL projects (api-pg, e2e-pg): the run's one throwaway cluster
// (scripts/lib/postgres-cluster.ts), shared by both projects; every test database is a new database
// in it (tests/helpers/test-db.ts).
import type { TestProject } from 'vitest/node';
import { startCluster } from '../../scripts/lib/postgres-cluster.ts';
import { acquire } from './run-shared.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Only in the PostgreSQL projects: the cluster's maintenance database (tests/helpers/test-db.ts). */
    postgresUrl?: string;
  }
}

export default async function setup(project: TestProject) {
  const cluster = await acquire('postgres', async () => {
    const started = await startCluster();
    return { value: started.adminUrl, stop: started.stop };
  });
  project.provide('postgresUrl', cluster.value);
  return cluster.release;
}
