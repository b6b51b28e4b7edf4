// The thread a publish builds in (scripts/lib/build-thread.ts): buildSite with the warm renderer it
// keeps between publishes. Its listing, linking, hashing and compressing of thousands of files is
// synchronous in places; here it blocks this thread, not the one that answers readers.
import { parentPort } from 'node:worker_threads';
import { buildSite } from './build.ts';
import type { BuildRequest, BuildThreadMessage } from './build-thread.ts';
import { createSiteRenderer } from './site-renderer.ts';

const port = parentPort!;
const renderer = createSiteRenderer();
const send = (message: BuildThreadMessage) => port.postMessage(message);

port.on('message', (request: BuildRequest) => {
  if (request.type === 'close') {
    void renderer.close().finally(() => send({ type: 'closed' }));
    return;
  }
  const { id } = request;
  buildSite(request.outDir, request.env, {
    previous: request.previous,
    renderer,
    onProgress: (progress) => send({ type: 'progress', id, progress }),
    log: (line) => send({ type: 'log', id, line }),
  }).then(
    (site) => send({ type: 'built', id, site }),
    (error: unknown) => {
      const { message, code } =
        error instanceof Error
          ? (error as NodeJS.ErrnoException)
          : { message: String(error), code: undefined };
      send({ type: 'failed', id, message, code: code ?? null });
    },
  );
});
send({ type: 'ready' });
