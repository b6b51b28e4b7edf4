// npm run dev:auth — the whole product against a local Firebase Auth emulator, so a developer can
// sign up, sign in and out for real on this machine. Starts the emulator, creates a demo parent,
// moderator, author and editor (printed below), then `npm start` configured for it (its own
// database and site folder), and stops both on Ctrl+C.
import { spawn } from 'node:child_process';
import { ROLE_LABELS } from '../api/contract.ts';
import { openDatabase } from '../api/db/database.ts';
import { migrateToLatest } from '../api/db/migrate.ts';
import { upsertProfile } from '../api/db/queries/profiles.ts';
import { ensureEmulatorAccount } from './lib/emulator-accounts.ts';
import { loadEnv } from './lib/env.ts';

const env = loadEnv();
const emulatorHost = '127.0.0.1:9099';
const projectId = 'demo-nestling';
// A SQLite file of its own beside the usual one; on PostgreSQL, the database DATABASE_URL names.
const databasePath = env.DATABASE_PATH.replace(/\.db$/, '') + '-auth.db';
const database = env.DATABASE_URL ?? databasePath;

/**
 * Fixed demo accounts: report as the parent, moderate as the moderator; write a post in /studio as
 * the author and submit it, then publish it as the editor.
 */
const DEMO_ACCOUNTS = [
  { email: 'parent@nestling.test', password: 'parent-demo-1', displayName: 'Pat Parent', role: 'user' },
  {
    email: 'moderator@nestling.test',
    password: 'moderator-demo-1',
    displayName: 'Morgan Moderator',
    role: 'moderator',
  },
  { email: 'author@nestling.test', password: 'author-demo-1', displayName: 'Avery Author', role: 'author' },
  { email: 'editor@nestling.test', password: 'editor-demo-1', displayName: 'Eden Editor', role: 'editor' },
] as const;

const emulator = spawn(
  process.execPath,
  [
    'node_modules/firebase-tools/lib/bin/firebase.js',
    'emulators:start',
    '--only',
    'auth',
    '--project',
    projectId,
  ],
  { stdio: ['ignore', 'inherit', 'inherit'], detached: true },
);

async function waitForEmulator(): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`http://${emulatorHost}/`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('The Auth emulator did not start within 60 s');
}

console.log('Starting the Firebase Auth emulator …');
await waitForEmulator();
console.log(`Auth emulator ready at http://${emulatorHost}`);

// The accounts, and their profiles with their roles (a profile is otherwise made at the first
// sign-in, as a plain parent), so the moderator can open /moderation, and the author and editor
// /studio, the first time.
const db = openDatabase(database);
try {
  await migrateToLatest(db);
  for (const account of DEMO_ACCOUNTS) {
    const { uid } = await ensureEmulatorAccount(emulatorHost, account);
    await upsertProfile(
      db,
      { uid, email: account.email, name: account.displayName, role: account.role },
      new Date(),
    );
  }
} finally {
  await db.destroy();
}
console.log('\nDemo accounts (sign in with email and password):');
const width = Math.max(...DEMO_ACCOUNTS.map((a) => ROLE_LABELS[a.role].length));
const emailWidth = Math.max(...DEMO_ACCOUNTS.map((a) => a.email.length));
for (const account of DEMO_ACCOUNTS) {
  console.log(
    `  ${ROLE_LABELS[account.role].toLowerCase().padEnd(width)}  ${account.email.padEnd(emailWidth)}  ${account.password}`,
  );
}
console.log('Report a comment as the parent, then review it at /moderation as the moderator.');
console.log('Write a post at /studio as the author and submit it; preview and publish it as the editor.\n');

const site = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATABASE_PATH: databasePath,
    SITE_DIR: `${env.SITE_DIR.replace(/\/$/, '')}-auth`,
    PUBLIC_FIREBASE_API_KEY: 'emulator-api-key',
    PUBLIC_FIREBASE_PROJECT_ID: projectId,
    FIREBASE_PROJECT_ID: projectId,
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
  },
});

const stop = () => {
  site.kill('SIGTERM');
  try {
    process.kill(-emulator.pid!, 'SIGTERM');
  } catch {
    emulator.kill('SIGTERM');
  }
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
site.once('exit', (code) => {
  stop();
  process.exitCode = code ?? 0;
});
