// A real HTTP listener for webhooks (escalations, build hooks): records every request it gets.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface Listener {
  url: string;
  port: number;
  received: Received[];
  /** Resolves once `count` requests have arrived. */
  waitFor: (count: number) => Promise<Received[]>;
  close: () => Promise<void>;
}

/**
 * Listens on 127.0.0.1 (on `port`, or a free one), records each request as it arrives and answers
 * it with `status`, once `hold` has resolved when given (a slow receiver).
 */
export async function startListener(
  options: { port?: number; status?: number; hold?: () => Promise<void> } = {},
): Promise<Listener> {
  const received: Received[] = [];
  const waiters: { count: number; resolve: (r: Received[]) => void }[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(received);
      }
      void (options.hold?.() ?? Promise.resolve()).then(() =>
        res.writeHead(options.status ?? 200, { 'Content-Type': 'application/json' }).end('{}'),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    waitFor: (count) =>
      received.length >= count
        ? Promise.resolve(received)
        : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
