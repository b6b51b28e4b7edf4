// The signed-in parent's own account (docs/product.md, "Your account"): their data as a file, and
// deleting the account, after which this browser signs out; and the signed-out deletion request form.
import type { AccountErased } from '../../api/contract.ts';
import { api, read, withToken } from '../lib/api.ts';
import { $auth, exitDemoMode, getIdToken, signOut } from './auth.ts';

async function token(): Promise<string> {
  const found = await getIdToken();
  if (!found) throw new Error('Your session has ended: sign in again.');
  return found;
}

/** The file's name from the answer's Content-Disposition, or a dated default. */
function fileName(disposition: string | null): string {
  return (
    /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ??
    `nestling-data-${new Date().toISOString().slice(0, 10)}.json`
  );
}

/** Fetches everything Nestling keeps about the parent and saves it as one JSON file; returns its name. */
export async function downloadMyData(): Promise<string> {
  const res = await api.account.export.$get(undefined, withToken(await token()));
  const name = fileName(res.headers.get('Content-Disposition'));
  const data = await read(res);
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started the download; the object URL can go after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return name;
}

/** Erases the account; the parent types its address to confirm. Says where the confirmation went. */
export async function deleteMyAccount(confirmEmail: string): Promise<AccountErased> {
  return read(api.account.$delete({ json: { confirmEmail } }, withToken(await token())));
}

/** After the erasure: this browser forgets the session (or leaves demo mode). */
export async function leaveAfterDeletion(): Promise<void> {
  if ($auth.get().demoMode) exitDemoMode();
  else await signOut().catch((error: unknown) => console.error('Sign-out after deletion failed', error));
}

/** The deletion request form's request (no sign-in: an admin checks the address). */
export async function requestDeletion(request: {
  email: string;
  reason: string | null;
  additionalInfo: string | null;
}): Promise<void> {
  await read(api.account['deletion-requests'].$post({ json: { ...request, confirmed: true } }));
}
