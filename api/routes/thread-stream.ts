import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import type { Reply } from '../contract.ts';
import type { ThreadChanges } from '../contract/live-threads.ts';
import { findLivePost } from '../db/queries/posts.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import { postIdParam, threadChangesQuery, threadStreamQuery } from './schemas.ts';

const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  // Proxies such as nginx would otherwise hold events back to fill a buffer.
  'X-Accel-Buffering': 'no',
  // A stream's connection is not reused: when it ends (a shutdown), it goes with it.
  Connection: 'close',
};

const NOT_FOUND = { error: 'Post not found' } as const;
const UNAVAILABLE = { error: 'Live updates are not available here; load the thread again to see changes.' };

/** The stream's address, which the read cache and the speed path leave alone (api/app.ts). */
export const isThreadStreamPath = (path: string) => path.endsWith('/comments/stream');

/** A Last-Event-ID that is a change id, else null (a browser sends back the id it was given). */
function lastEventId(header: string | undefined): number | null {
  return header !== undefined && /^(0|[1-9]\d{0,15})$/.test(header) ? Number(header) : null;
}

/**
 * A thread's changes as they happen (docs/decisions/026-live-threads.md), mounted under /api/blog:
 * a Server-Sent Events stream, and the polling fallback for where a stream is not possible.
 */
export const threadStreamRoutes = new Hono<AppEnv>()
  .get(
    '/posts/:postId/comments/stream',
    validate('param', postIdParam),
    validate('query', threadStreamQuery),
    async (c) => {
      const { db, threads } = c.get('deps');
      if (!threads) return c.json(UNAVAILABLE, 503);
      const post = await findLivePost(db, { postId: c.req.valid('param').postId }, c.get('release'));
      if (!post) return c.json(NOT_FOUND, 404);
      const resumed = lastEventId(c.req.header('Last-Event-ID'));
      const asked = c.req.valid('query').after ?? null;
      const after = resumed === null ? asked : Math.max(resumed, asked ?? 0);
      // On the Node server the hub writes to the response itself (the headers set on it so far,
      // the security headers, stay); the adapter is told it has been answered.
      const outgoing = c.env?.outgoing;
      if (outgoing) {
        await threads.serve(post.postId, after, outgoing, STREAM_HEADERS);
        return RESPONSE_ALREADY_SENT;
      }
      return new Response(await threads.open(post.postId, after), { headers: STREAM_HEADERS });
    },
  )
  .get(
    '/posts/:postId/comments/changes',
    validate('param', postIdParam),
    validate('query', threadChangesQuery),
    async (c) => {
      const { db, threads } = c.get('deps');
      if (!threads) return c.json(UNAVAILABLE, 503);
      const post = await findLivePost(db, { postId: c.req.valid('param').postId }, c.get('release'));
      if (!post) return c.json(NOT_FOUND, 404);
      return c.json<ThreadChanges<Reply>>(
        await threads.changesAfter(post.postId, c.req.valid('query').after),
      );
    },
  );
