// Admins' lists (docs/product.md, "Deleting your account", "Email"): deletion requests from the
// form with the two ways to close one, and the mail log, keyed by the admin's uid. Every call
// carries the admin's token; the API checks the role.
import type { OutboxEmail } from '../../api/contract.ts';
import { api, read, withToken } from '../lib/api.ts';
import { nextCursor } from '../lib/thread.ts';
import { getIdToken } from './auth.ts';
import { keyedQuery } from './query.ts';

const auth = async () => withToken(await getIdToken());

export const deletionRequests = keyedQuery('admin-deletion-requests', async () =>
  read(api.admin['deletion-requests'].$get(undefined, await auth())),
);

/** Erases the account that owns the request's address (or refuses: no account uses it). */
export async function eraseForRequest(uid: string, requestId: number) {
  const closed = await read(
    api.admin['deletion-requests'][':requestId'].erase.$post(
      { param: { requestId: String(requestId) } },
      await auth(),
    ),
  );
  deletionRequests.refresh(uid);
  return closed;
}

/** Closes a request as "no account found". */
export async function closeAsNoAccount(uid: string, requestId: number) {
  const closed = await read(
    api.admin['deletion-requests'][':requestId'].close.$post(
      { param: { requestId: String(requestId) } },
      await auth(),
    ),
  );
  deletionRequests.refresh(uid);
  return closed;
}

export interface OutboxPage {
  transport: 'smtp' | 'outbox';
  emails: OutboxEmail[];
  /** The cursor of the next (older) page, or null. */
  next: number | null;
}

async function loadOutbox(before: number | null): Promise<OutboxPage> {
  const res = await api.admin.outbox.$get(
    { query: before === null ? {} : { before: String(before) } },
    await auth(),
  );
  const next = nextCursor(res.headers.get('Link'));
  return { ...(await read(res)), next };
}

export const outbox = keyedQuery<OutboxPage>('admin-outbox', () => loadOutbox(null));

/** Adds the next (older) page of the mail log under what is shown. */
export async function loadMoreOutbox(uid: string): Promise<void> {
  const current = outbox.get(uid);
  if (!current || current.next === null) return;
  const page = await loadOutbox(current.next);
  outbox.set(uid, { ...page, emails: [...current.emails, ...page.emails] });
}
