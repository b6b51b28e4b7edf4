// npm run user:role -- <email> <user|author|editor|moderator|admin>
// Sets the role of the profile with that email (the user must have signed in once), with an audit
// entry (docs/product.md, "Roles"). Admins can do the same under "People and roles" on /admin.
import { z } from 'zod';
import { ROLES } from '../api/contract.ts';
import { databaseLocation, openDatabase } from '../api/db/database.ts';
import { migrateToLatest } from '../api/db/migrate.ts';
import { loadEnv } from './lib/env.ts';
import { setRoleOnServer } from './lib/user-role.ts';

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
  const changed = await setRoleOnServer(db, email, role);
  if (!changed) {
    console.error(`No profile with the email ${email}. They need to sign in once first.`);
    process.exitCode = 1;
  } else {
    console.log(`${email} is now ${role}.`);
  }
} finally {
  await db.destroy();
}
