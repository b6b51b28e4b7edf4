// npm run user:role -- <email> <user|author|editor|moderator|admin>
// Sets the role of the profile with that email (the user must have signed in once), with an audit
// entry (docs/product.md, "Roles"). Admins can do the same under "People and roles" on /admin.
import { z } from 'zod';
import { ROLES } from '../api/contract.ts';
import { databaseLocation, openDatabase } from '../api/db/database.ts';
import { migrateToLatest } from '../api/db/migrate.ts';
import { changeRoleByEmail } from '../api/db/queries/profiles.ts';
import { loadEnv } from './lib/env.ts';

/** Who the audit log says changed the role. */
const SERVER_ACTOR = 'Nestling (set on the server)';

const USAGE = `Usage: npm run user:role -- <email> <${ROLES.join('|')}>`;

const args = z
  .tuple([
    z.email('the first argument must be an email address'),
    z.enum(ROLES, { error: `the role must be one of ${ROLES.join(', ')}` }),
  ])
  .safeParse(process.argv.slice(2));
if (!args.success) {
  console.error(USAGE);
  console.error(args.error.issues.map((i) => `  ${i.message}`).join('\n'));
  process.exit(2);
}
const [email, role] = args.data;
const env = loadEnv();
const db = openDatabase(databaseLocation(env));
try {
  await migrateToLatest(db);
  const changed = await changeRoleByEmail(
    db,
    // The audit log is a staff screen, which names no command (docs/product.md, "Staff and
    // account screens"): the change is signed as made on the server.
    { email, role, actor: { uid: null, name: SERVER_ACTOR } },
    new Date(),
  );
  if (changed.length === 0) {
    console.error(`No profile with the email ${email}. They need to sign in once first.`);
    process.exitCode = 1;
  } else {
    console.log(`${email} is now ${role}.`);
  }
} finally {
  await db.destroy();
}
