// Roles for end-to-end tests: what `npm run user:role` does (scripts/lib/user-role.ts; the command
// line is covered by tests/api/roles.test.ts), done in the test's own process against the emulator-backed
// server's database (a SQLite file or a PostgreSQL database), or another test server's given by its
// environment. A process per role cost each browser file about 2 s of CPU and its worker a blocked
// event loop. The parent must have signed in once, which creates their profile.
import { expect, inject } from 'vitest';
import type { Role } from '../../api/contract.ts';
import { databaseLocation, openDatabase } from '../../api/db/database.ts';
import { setRoleOnServer } from '../../scripts/lib/user-role.ts';

export async function setRole(
  email: string,
  role: Role,
  databaseEnv: Record<string, string> = inject('authDatabaseEnv'),
): Promise<void> {
  const db = openDatabase(databaseLocation({ DATABASE_PATH: '', ...databaseEnv }));
  try {
    expect(await setRoleOnServer(db, email, role), `${email} has signed in once`).toBe(true);
  } finally {
    await db.destroy();
  }
}
