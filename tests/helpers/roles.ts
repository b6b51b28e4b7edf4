// Roles for end-to-end tests, set the documented way: `npm run user:role` against the emulator-backed
// server's database (a SQLite file or a PostgreSQL database), or another test server's given by
// its environment (the parent must have signed in once, which creates their profile).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, inject } from 'vitest';
import type { Role } from '../../api/contract.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export function setRole(
  email: string,
  role: Role,
  databaseEnv: Record<string, string> = inject('authDatabaseEnv'),
): void {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/user-role.ts', email, role], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', ...databaseEnv },
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  expect(result.stdout).toContain(`${email} is now ${role}.`);
}
