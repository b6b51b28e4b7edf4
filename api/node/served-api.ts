// The API as api/server.ts serves it on @hono/node-server: the app createApp makes, which runs on
// any runtime, plus two measured speed-ups that belong to this server (docs/decisions/013, 014
// and 015): a fresh kept answer to an anonymous GET is given before the app runs, at once rather
// than as a promise, and other answers' headers go on Node's response rather than into a Headers
// object that the adapter would convert back. tests/api/kept-answers.test.ts checks that a kept
// answer and a fresh one are the same.
import { type AppDeps, createApp } from '../app.ts';
import type { HttpServing } from '../types.ts';

/** Headers straight onto the Node response, which Node merges into whatever the app answers. */
const nodeServing: HttpServing = {
  setHeader: (c, name, value) => {
    const outgoing = c.env?.outgoing;
    if (outgoing) outgoing.setHeader(name, value);
    else c.header(name, value);
  },
};

export function createServedApi(deps: Partial<AppDeps> & Pick<AppDeps, 'db' | 'release'>) {
  const app = createApp({ ...deps, http: nodeServing });
  const { readCache } = deps;
  const fetch = (request: Request, env?: Parameters<typeof app.fetch>[1]) =>
    readCache?.answer(request, deps.release.known()) ?? app.fetch(request, env);
  return { app, fetch };
}
