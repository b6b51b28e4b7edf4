// Accounts in a local Firebase Auth emulator, through its REST API (identitytoolkit). Used by
// `npm run dev:auth` for its demo accounts and by the tests for theirs.

/** Calls one of the emulator's accounts:* methods; throws with the emulator's answer on failure. */
export async function emulatorCall<T>(host: string, method: string, body: unknown): Promise<T> {
  const res = await fetch(
    `http://${host}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=fake-api-key`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    },
  );
  if (!res.ok) throw new Error(`emulator ${method} failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * An email-and-password account with a display name: created, or signed into when it exists
 * already (an emulator that kept its data). Returns its uid.
 */
export async function ensureEmulatorAccount(
  host: string,
  account: { email: string; password: string; displayName: string },
): Promise<{ uid: string }> {
  const credentials = { email: account.email, password: account.password, returnSecureToken: true };
  let session: { idToken: string; localId: string };
  try {
    session = await emulatorCall(host, 'signUp', credentials);
  } catch (error) {
    if (!String(error).includes('EMAIL_EXISTS')) throw error;
    session = await emulatorCall(host, 'signInWithPassword', credentials);
  }
  await emulatorCall(host, 'update', { idToken: session.idToken, displayName: account.displayName });
  return { uid: session.localId };
}
