// Admins' screens (docs/product.md, "Publishing", "Deleting your account", "Email", "Roles"): the
// publishing status with Publish and Roll back, deletion requests from the form with the two ways
// to close one, the mail log, and people's roles, keyed by the admin's uid. Every call carries the
// admin's token; the API checks the role.
import type { OutboxEmail, Role } from '../../api/contract.ts';
import { api, read, withToken } from '../lib/api.ts';
import { nextCursor } from '../lib/thread.ts';
import { getIdToken } from './auth.ts';
import { keyedQuery, showNextPage } from './query.ts';

const auth = async () => withToken(await getIdToken());

export const deletionRequests = keyedQuery('admin-deletion-requests', async () =>
  read(api.admin['deletion-requests'].$get(undefined, await auth())),
);

/**
 * Closes a request: `erase` deletes the account that owns its address (or is refused: no account
 * uses it); `close` closes it as "no account found". It moves from the open list to the closed one
 * at once, then the list is loaded afresh.
 */
async function closeRequest(uid: string, requestId: number, how: 'erase' | 'close') {
  const route = api.admin['deletion-requests'][':requestId'];
  const param = { param: { requestId: String(requestId) } };
  const closed =
    how === 'erase'
      ? await read(route.erase.$post(param, await auth()))
      : await read(route.close.$post(param, await auth()));
  deletionRequests.update(uid, (list) => ({
    open: list.open.filter((r) => r.id !== closed.id),
    closed: [closed, ...list.closed.filter((r) => r.id !== closed.id)],
  }));
  deletionRequests.refresh(uid);
  return closed;
}

export const eraseForRequest = (uid: string, requestId: number) => closeRequest(uid, requestId, 'erase');
export const closeAsNoAccount = (uid: string, requestId: number) => closeRequest(uid, requestId, 'close');

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
export function loadMoreOutbox(uid: string): Promise<void> {
  return showNextPage(outbox, uid, loadOutbox, (shown, page) => ({
    ...page,
    emails: [...shown.emails, ...page.emails],
  }));
}

/** The publishing panel's status: the live release, the one before, what runs and recent runs. */
export const publishing = keyedQuery('admin-publish', async () =>
  read(api.admin.publish.$get(undefined, await auth())),
);

/** Asks for a release now; the status is loaded afresh. */
export async function publishNow(uid: string) {
  const run = await read(api.admin.publish.$post(undefined, await auth()));
  publishing.refresh(uid);
  return run;
}

/** Makes the release before the live one live again; the status is loaded afresh. */
export async function rollBack(uid: string, reason: string | null) {
  const done = await read(api.admin.publish.rollback.$post({ json: { reason } }, await auth()));
  publishing.refresh(uid);
  return done;
}

// ---- People and roles (docs/product.md, "Roles") ----------------------------------------------

/** Everyone with a role other than parent, keyed by the admin's uid. */
export const staff = keyedQuery('admin-staff', async () =>
  read(api.admin.staff.$get(undefined, await auth())),
);

/** The person who signed in with this address; an ApiError (404) when nobody has. */
export async function findPerson(email: string) {
  return read(api.admin.people.$get({ query: { email } }, await auth()));
}

/** Gives a person a role; the staff list shows the change at once, then is loaded afresh. */
export async function changeRole(uid: string, email: string, role: Role) {
  const person = await read(api.admin.people.role.$put({ json: { email, role } }, await auth()));
  staff.update(uid, (list) => {
    const others = list.filter((p) => p.email !== person.email);
    return person.role === 'user' ? others : [...others, person];
  });
  staff.refresh(uid);
  return person;
}
