// Roles for end-to-end tests: what `npm run user:role` does (scripts/user-role.ts, whose command
// line tests/api/roles.test.ts covers), done in the test's own process against the emulator-backed
// server's database (a SQLite file or a PostgreSQL database), or another test server's given by its
// environment. A process per role cost each browser file about 2 s of CPU and its worker a blocked
// event loop. The parent must have signed in once, which creates their profile.
import { expect, inject } from 'vitest';
import type { Role } from '../../api/contract.ts';
import { databaseLocation, openDatabase } from '../../api/db/database.ts';
import { changeRoleByEmail } from '../../api/db/queries/profiles.ts';

export async function setRole(
  email: string,
  role: Role,
  databaseEnv: Record<string, string> = inject('authDatabaseEnv'),
): Promise<void> {
  const db = openDatabase(databaseLocation({ DATABASE_PATH: '', ...databaseEnv }));
  try {
    const changed = await changeRoleByEmail(
      db,
      { email, role, actor: { uid: null, name: 'Nestling (set on the server)' } },
      new Date(),
    );
    expect(changed.map((profile) => profile.role)).toEqual([role]);
  } finally {
    await db.destroy();
  }
}
