// What `npm run user:role` does once its arguments are read (scripts/user-role.ts), for the
// command and for tests that set a role the documented way without a process of their own.
import type { Role } from '../../api/contract.ts';
import type { DB } from '../../api/db/database.ts';
import { changeRoleByEmail } from '../../api/db/queries/profiles.ts';

/**
 * Who the audit log says changed the role. The audit log is a staff screen, which names no command
 * (docs/product.md, "Staff and account screens"): the change is signed as made on the server.
 */
const SERVER_ACTOR = 'Nestling (set on the server)';

/** Sets the role of the profile with that email, with an audit entry; false when there is none. */
export async function setRoleOnServer(db: DB, email: string, role: Role, now = new Date()): Promise<boolean> {
  const changed = await changeRoleByEmail(db, { email, role, actor: { uid: null, name: SERVER_ACTOR } }, now);
  return changed.length > 0;
}
