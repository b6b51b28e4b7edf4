import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { emulatorCall } from './emulator-accounts.ts';
import { freePort } from './ports.ts';
import { tempDir } from './temp.ts';

export const EMULATOR_PROJECT_ID = 'demo-nestling';
const ROOT = path.resolve(import.meta.dirname, '../..');

export interface AuthEmulator {
  /** host:port, the form FIREBASE_AUTH_EMULATOR_HOST takes. */
  host: string;
  stop: () => Promise<void>;
}

/**
 * Starts the real Firebase Auth emulator (firebase-tools) on free ports, in a temp folder with its
 * own firebase.json (UI off, hub and logging on free ports too), so runs never collide.
 */
export async function startAuthEmulator(timeoutMs = 90_000): Promise<AuthEmulator> {
  const dir = tempDir('nestling-emulator-');
  const [port, hub, logging] = [await freePort(), await freePort(), await freePort()];
  fs.writeFileSync(
    path.join(dir, 'firebase.json'),
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port },
        hub: { host: '127.0.0.1', port: hub },
        logging: { host: '127.0.0.1', port: logging },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/firebase-tools/lib/bin/firebase.js'),
      'emulators:start',
      '--only',
      'auth',
      '--project',
      EMULATOR_PROJECT_ID,
    ],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
      detached: true,
    },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const host = `127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // The CLI starts helpers of its own: signal the whole process group.
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Auth emulator exited early:\n${output}`);
    try {
      const res = await fetch(`http://${host}/`);
      if (res.ok) return { host, stop };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`Auth emulator did not start within ${timeoutMs} ms:\n${output}`);
}

export interface EmulatorUser {
  uid: string;
  email: string;
  idToken: string;
}

/**
 * Creates a user through the emulator's REST API and returns a fresh ID token for them. With
 * `anonymous`, the user has neither email nor name.
 */
export async function createEmulatorUser(
  host: string,
  options: { email?: string; password?: string; displayName?: string; anonymous?: boolean } = {},
): Promise<EmulatorUser> {
  if (options.anonymous) {
    const { idToken, localId } = await emulatorCall<{ idToken: string; localId: string }>(host, 'signUp', {
      returnSecureToken: true,
    });
    return { uid: localId, email: '', idToken };
  }
  const email = options.email ?? `parent-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const password = options.password ?? 'correct-horse-9';
  const { idToken, localId } = await emulatorCall<{ idToken: string; localId: string }>(host, 'signUp', {
    email,
    password,
    returnSecureToken: true,
  });
  if (options.displayName) await emulatorCall(host, 'update', { idToken, displayName: options.displayName });
  // A new sign-in gives a token that carries the name claim, and one the emulator has not already
  // revoked: its signUp reads the clock twice (the sign-in time, then the account's valid-since
  // second), so when a second boundary falls between them the first token counts as revoked.
  const signedIn = await emulatorCall<{ idToken: string }>(host, 'signInWithPassword', {
    email,
    password,
    returnSecureToken: true,
  });
  return { uid: localId, email, idToken: signedIn.idToken };
}

const emulatorProjectURL = (host: string, rest: string) =>
  `http://${host}/emulator/v1/projects/${EMULATOR_PROJECT_ID}/${rest}`;

const emulatorConfig = z.object({
  emailPrivacyConfig: z.object({ enableImprovedEmailPrivacy: z.boolean() }),
});

/**
 * Turns the emulator's email enumeration protection (Firebase's "email privacy" setting, on by
 * default for projects created since September 2023) on or off, through the emulator's own config
 * endpoint. The emulator starts with it off. Throws unless the emulator reports the new setting.
 */
export async function setEmailEnumerationProtection(host: string, enabled: boolean): Promise<void> {
  const res = await fetch(emulatorProjectURL(host, 'config'), {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ emailPrivacyConfig: { enableImprovedEmailPrivacy: enabled } }),
  });
  if (!res.ok) throw new Error(`emulator config failed: ${res.status} ${await res.text()}`);
  const config = emulatorConfig.parse(await res.json());
  if (config.emailPrivacyConfig.enableImprovedEmailPrivacy !== enabled) {
    throw new Error(`emulator kept enableImprovedEmailPrivacy=${!enabled}`);
  }
}

const oobCodes = z.object({
  oobCodes: z
    .array(z.object({ email: z.string(), requestType: z.string(), oobCode: z.string() }))
    .default([]),
});

/** The emails the emulator has "sent" (verification, password reset), oldest first. */
export async function emulatorOobCodes(host: string): Promise<z.infer<typeof oobCodes>['oobCodes']> {
  const res = await fetch(emulatorProjectURL(host, 'oobCodes'));
  if (!res.ok) throw new Error(`emulator oobCodes failed: ${res.status} ${await res.text()}`);
  return oobCodes.parse(await res.json()).oobCodes;
}
