import type { IncomingMessage } from 'node:http';
import type { HttpBindings } from '@hono/node-server';
import { createMiddleware } from 'hono/factory';

/** How long a connection that is being closed keeps reading what its client still sends. */
const LINGER_MS = 2_000;

/**
 * Closes the socket in stages once its last answer is written (RFC 9112, section 9.6): our side
 * first, then, after the client has closed too or LINGER_MS, the rest. Dropping it at once with
 * request bytes still arriving makes the kernel answer them with a reset, which can overtake the
 * answer itself, so the client would see a broken connection instead of a 413.
 */
function lingerOnClose(incoming: IncomingMessage): void {
  const socket = incoming.socket;
  let lingering = false;
  // Node's server calls destroySoon() after an answer that said Connection: close.
  socket.destroySoon = () => {
    if (lingering) return;
    lingering = true;
    socket.end();
    // Nobody wants the rest of the body now; a body reader the app started would keep it paused.
    incoming.removeAllListeners('data');
    incoming.resume();
    // Not unref'd: a graceful shutdown waits for this socket, at most LINGER_MS.
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
  };
}

/**
 * An answer given before the request body has all arrived (a 413, or a 401 or 415 refused before
 * reading) says Connection: close. Keeping the connection alive would promise the client its next
 * request, but the rest of the body still has to come off the socket first, and
 * @hono/node-server gives that only 500 ms before it drops the socket under whatever the client
 * sent next. A body that has all arrived is discarded from memory, so those connections stay open.
 */
export const closeIfBodyPending = createMiddleware<{ Bindings: Partial<HttpBindings> | undefined }>(
  (c, next) => {
    // In-process callers (app.request) have no socket; GET and HEAD bring no body to leave unread.
    const incoming = c.env?.incoming;
    if (!incoming || c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return answerThenCheck(incoming);

    async function answerThenCheck(request: IncomingMessage) {
      await next();
      if (request.complete) return;
      // A body that came with the headers is marked complete only on a later turn of the loop.
      await new Promise((resolve) => setImmediate(resolve));
      if (request.complete) return;
      c.res.headers.set('Connection', 'close');
      lingerOnClose(request);
    }
  },
);
