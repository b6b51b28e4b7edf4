// npm run user:role -- <email> <admin|moderator|user>
// Sets the role of the profile with that email (the user must have signed in once).
import { z } from 'zod';
import { databaseLocation, openDatabase } from '../api/db/database.ts';
import { migrateToLatest } from '../api/db/migrate.ts';
import { setRoleByEmail } from '../api/db/queries/profiles.ts';
import { loadEnv } from './lib/env.ts';

const args = z
  .tuple([z.email('the first argument must be an email address'), z.enum(['admin', 'moderator', 'user'])])
  .safeParse(process.argv.slice(2));
if (!args.success) {
  console.error('Usage: npm run user:role -- <email> <admin|moderator|user>');
  console.error(args.error.issues.map((i) => `  ${i.message}`).join('\n'));
  process.exit(2);
}
const [email, role] = args.data;
const env = loadEnv();
const db = openDatabase(databaseLocation(env));
try {
  await migrateToLatest(db);
  const changed = await setRoleByEmail(db, email, role, new Date());
  if (changed === 0) {
    console.error(`No profile with the email ${email}. They need to sign in once first.`);
    process.exitCode = 1;
  } else {
    console.log(`${email} is now ${role}.`);
  }
} finally {
  await db.destroy();
}
