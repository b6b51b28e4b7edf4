// Demo mode's side of the comments store (docs/product.md, "Sign-in and demo mode"): the demo parent
// reads a sample thread, shown after a short simulated load, and what they post or report is
// simulated in the page. Nothing here reaches the API; src/stores/comments.ts chooses it.
import { map } from 'nanostores';
import type { Comment, Reply } from '../../api/contract.ts';
import { DEMO_LOADING_DELAY_MS, DEMO_POSTING_DELAY_MS } from '../config.ts';
import { demoComments, demoReply } from '../lib/demo-comments.ts';
import { addToThread } from '../lib/thread.ts';

/** Each post's simulated thread; absent while it is still "loading". */
export const $demoThreads = map<Record<string, Comment[] | undefined>>({});

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Pending loads by post, so one that was dropped meanwhile never lands. */
const loads = new Map<number, symbol>();

/** Shows the post's sample thread after the simulated loading delay. */
export function loadDemoThread(postId: number): void {
  if ($demoThreads.get()[postId] || loads.has(postId)) return;
  const load = Symbol(`demo thread ${postId}`);
  loads.set(postId, load);
  void wait(DEMO_LOADING_DELAY_MS).then(() => {
    if (loads.get(postId) !== load) return;
    loads.delete(postId);
    $demoThreads.setKey(String(postId), demoComments());
  });
}

/** Forgets the post's simulated thread (demo mode ended): a new demo starts from the sample. */
export function dropDemoThread(postId: number): void {
  loads.delete(postId);
  $demoThreads.setKey(String(postId), undefined);
}

/** "Posts" a comment or reply in the page, after the simulated delay. */
export async function postDemoComment(
  postId: number,
  content: string,
  parentCommentId: number | null,
  authorName: string,
): Promise<Reply> {
  await wait(DEMO_POSTING_DELAY_MS);
  const comment = demoReply(content, authorName);
  const thread = $demoThreads.get()[postId];
  if (thread) $demoThreads.setKey(String(postId), addToThread(thread, comment, parentCommentId));
  return comment;
}

/** A report in demo mode is received after the simulated delay and changes nothing. */
export async function reportDemoComment(comment: Reply): Promise<Reply> {
  await wait(DEMO_POSTING_DELAY_MS);
  return comment;
}
