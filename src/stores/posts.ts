// A post's live numbers (views, likes, comments) and the signed-in parent's like, shared by the
// post header, the like button and the comments heading so they always show the same count.
import { useStore } from '@nanostores/react';
import type { LikeStatus, PostStats } from '../../api/contract.ts';
import { api, read, withToken } from '../lib/api.ts';
import { getIdToken } from './auth.ts';
import { keyedQuery } from './query.ts';

export const postStats = keyedQuery<PostStats>('post-stats', (slug) =>
  read(api.blog.posts[':slug'].stats.$get({ param: { slug } })),
);

const slugOf = (key: string) => key.slice(0, key.lastIndexOf('|'));

/**
 * Keyed by `slug|uid`: a parent's like status is theirs alone. Its count moves the post's stats
 * only when the answer is kept: one asked before the parent's own like would put the count back.
 */
export const likeStatus = keyedQuery<LikeStatus>(
  'like-status',
  async (key) =>
    read(
      api.blog.posts[':slug']['like-status'].$get(
        { param: { slug: slugOf(key) } },
        withToken(await getIdToken()),
      ),
    ),
  (key, status) => postStats.update(slugOf(key), (stats) => ({ ...stats, likeCount: status.likeCount })),
);

/** The product sends JSON headers with its body-less POSTs. */
const JSON_HEADERS = { Accept: 'application/json' };

const likeKey = (slug: string, uid: string) => `${slug}|${uid}`;

/** The live stats of a post, or the build's numbers until they have loaded. */
export function usePostStats(slug: string, initial: Omit<PostStats, 'postId'>) {
  const { data } = useStore(postStats.store(slug), { ssr: 'initial' });
  return data ?? initial;
}

/** Whether the signed-in parent likes the post (never, when signed out). */
export function useLiked(slug: string, uid: string | null): boolean {
  const { data } = useStore(likeStatus.store(uid ? likeKey(slug, uid) : null), { ssr: 'initial' });
  return uid !== null && data?.liked === true;
}

/** Likes or unlikes the post; every island showing the count moves with the answer. */
export async function toggleLike(slug: string, uid: string): Promise<LikeStatus> {
  const token = await getIdToken();
  if (!token) throw new Error('Authentication required');
  const status = await read(
    api.blog.posts[':slug'].like.$post({ param: { slug } }, withToken(token, JSON_HEADERS)),
  );
  likeStatus.set(likeKey(slug, uid), status);
  postStats.update(slug, (stats) => ({ ...stats, likeCount: status.likeCount }));
  return status;
}

/** Counts this visit; fire and forget, a failure is only logged. */
export function recordView(slug: string): void {
  read(api.blog.posts[':slug'].view.$post({ param: { slug } }, { headers: JSON_HEADERS }))
    .then(({ viewCount }) => postStats.update(slug, (stats) => ({ ...stats, viewCount })))
    .catch((error: unknown) => console.error('Failed to record the view', error));
}
