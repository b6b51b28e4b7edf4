// npm run dev:auth — the whole product against a local Firebase Auth emulator, so a developer can
// sign up, sign in and out for real on this machine. Starts the emulator, then `npm start`
// configured for it (its own database and site folder), and stops both on Ctrl+C.
import { spawn } from 'node:child_process';
import { loadEnv } from './lib/env.ts';

const env = loadEnv();
const emulatorHost = '127.0.0.1:9099';
const projectId = 'demo-nestling';

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

const site = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATABASE_PATH: env.DATABASE_PATH.replace(/\.db$/, '') + '-auth.db',
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
