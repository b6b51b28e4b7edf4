import { defineConfig } from 'vitest/config';
import EnvironmentsTogether from './tests/helpers/sequencer.ts';

const API_TESTS = ['tests/api/**/*.test.ts'];
/** Every project's: a test file's temp folders go when it ends. */
const TEMP_SETUP = 'tests/helpers/temp-setup.ts';
const api = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 120_000,
  isolate: false,
  setupFiles: [TEMP_SETUP],
};
const e2e = {
  environment: 'node',
  testTimeout: 60_000,
  hookTimeout: 300_000,
  // As in the API projects, a worker's files share its modules: Playwright, axe and the API's own
  // modules are imported once a worker rather than once a file (about 4 s of CPU each time).
  isolate: false,
  setupFiles: [TEMP_SETUP],
};

// The API and community end-to-end tests run twice: on SQLite (the embedded default) and, in the
// -pg projects, on a throwaway PostgreSQL cluster (tests/helpers/postgres-setup.ts).
export default defineConfig({
  test: {
    // Three files at a time on a 2-core machine, where Vitest's default would be one: a browser
    // file waits on its servers and timers while another computes. Browser files share the run's
    // servers, so each one makes its own parents, comments and posts and asserts only on those.
    maxWorkers: 3,
    // A worker is kept for the next file only if that file's project and environment are its own.
    sequence: { sequencer: EnvironmentsTogether },
    projects: [
      {
        test: {
          name: 'unit',
          // Vitest's 5 s is a time limit in disguise: a file's first test loads jsdom, DOMPurify or
          // React (1–4 s of CPU) and ran out of it on a loaded machine. A hang still fails.
          testTimeout: 30_000,
          // Files share their worker's modules, as the API files do: half the CPU (21–23 s of user
          // time against 35). Each file sets the stores it reads; shuffled orders pass too.
          isolate: false,
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: [TEMP_SETUP, 'tests/helpers/unit-setup.ts'],
          environment: 'node',
        },
      },
      {
        test: { name: 'api', include: API_TESTS, globalSetup: ['tests/helpers/api-setup.ts'], ...api },
      },
      {
        test: {
          name: 'api-pg',
          include: API_TESTS,
          globalSetup: ['tests/helpers/postgres-setup.ts', 'tests/helpers/api-setup.ts'],
          ...api,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // In order: the browser is found or installed before the servers are built.
          globalSetup: ['tests/helpers/chromium-setup.ts', 'tests/helpers/e2e-setup.ts'],
          ...e2e,
        },
      },
      {
        // The one browser test that CI also runs on the newest Node (.ci/run), with the demo server.
        test: {
          name: 'smoke',
          include: ['tests/smoke/**/*.test.ts'],
          globalSetup: ['tests/helpers/chromium-setup.ts', 'tests/helpers/e2e-setup.ts'],
          ...e2e,
        },
      },
      {
        test: {
          name: 'e2e-pg',
          include: ['tests/e2e/community.test.ts', 'tests/e2e/moderation.test.ts'],
          globalSetup: [
            'tests/helpers/chromium-setup.ts',
            'tests/helpers/postgres-setup.ts',
            'tests/helpers/e2e-setup.ts',
          ],
          ...e2e,
        },
      },
    ],
  },
});
