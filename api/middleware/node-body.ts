// Request bodies read straight from the Node request when api/server.ts serves the app. Through
// the web Request, @hono/node-server wraps the socket in a web ReadableStream that the body limit
// asks for and undici then reads back: in a CPU profile of bench:streams' comment writes that was
// about a tenth of a comment's CPU, for a body of a hundred bytes.
import { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * The Node request behind a served request whose body declares its length (and is not sent in
 * chunks), with that length; null in-process (app.request) or when the length is not declared.
 * For these requests nothing asks the web Request for its body (api/app.ts), so it can be read here.
 */
export function declaredBody(c: Context): { incoming: IncomingMessage; length: number } | null {
  const incoming: unknown = c.env?.incoming;
  if (!(incoming instanceof IncomingMessage)) return null;
  const header = incoming.headers['content-length'];
  if (header === undefined || incoming.headers['transfer-encoding'] !== undefined) return null;
  return { incoming, length: parseInt(header, 10) };
}

/** The whole body as text (UTF-8, as a web Request's text() decodes it). */
function readText(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.once('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    });
    incoming.once('error', reject);
    incoming.once('close', () => {
      if (!incoming.complete) reject(new Error('The request body did not all arrive.'));
    });
  });
}

/**
 * Before a JSON body is validated: on the server, its text is read from the Node request into
 * Hono's body cache, where c.req.json() takes it from.
 */
export function preloadJsonBody(c: Context): void {
  const body = declaredBody(c);
  if (!body || c.req.bodyCache.text !== undefined || c.req.bodyCache.json !== undefined) return;
  // Hono keeps the promise of each form of the body there (its type names the forms themselves).
  Reflect.set(c.req.bodyCache, 'text', readText(body.incoming));
}
