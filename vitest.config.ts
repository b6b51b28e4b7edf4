import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/api-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          // In order: the browser is found or installed before the servers are built.
          globalSetup: ['tests/helpers/chromium-setup.ts', 'tests/helpers/e2e-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 300_000,
          // One browser at a time on a 2-core machine keeps timings steady.
          fileParallelism: false,
        },
      },
    ],
  },
});
