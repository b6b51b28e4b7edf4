// Reply emails (docs/product.md, "Email"): whether the signed-in parent follows a post's thread
// (keyed by post and uid, shared by the comment box and the reply boxes), and the confirm and
// unsubscribe links' calls, which need no sign-in.
import type { ThreadNotifications, UnsubscribeScope } from '../../api/contract.ts';
import { api, read, withToken } from '../lib/api.ts';
import { $auth, getIdToken } from './auth.ts';
import { keyedQuery } from './query.ts';

/** `postId|uid`. */
const key = (postId: number, uid: string) => `${postId}|${uid}`;

export const threadFollows = keyedQuery<ThreadNotifications>('thread-follows', async (id) => {
  const [postId = ''] = id.split('|');
  return read(
    api.notifications.threads[':postId'].$get({ param: { postId } }, withToken(await getIdToken())),
  );
});

/** The store for this post and the parent signed in now (null: nobody, nothing is loaded). */
export function followStore(postId: number, uid: string | null) {
  return threadFollows.store(uid ? key(postId, uid) : null);
}

/** Follows or stops following a thread; returns the new state, which every box then shows. */
export async function followThread(postId: number, subscribed: boolean): Promise<ThreadNotifications> {
  const uid = $auth.get().user?.uid;
  if (!uid) throw new Error('Sign in to get reply emails.');
  const state = await read(
    api.notifications.threads[':postId'].$put(
      { param: { postId: String(postId) }, json: { subscribed } },
      withToken(await getIdToken()),
    ),
  );
  threadFollows.set(key(postId, uid), state);
  return state;
}

/** The confirmation link of the double opt-in. */
export function confirmEmailLink(token: string) {
  return read(api.notifications.confirm.$post({ json: { token } }));
}

/** An unsubscribe link: one thread, or every email. */
export function unsubscribeLink(token: string, scope: UnsubscribeScope) {
  return read(api.notifications.unsubscribe.$post({ json: { token, scope } }));
}
