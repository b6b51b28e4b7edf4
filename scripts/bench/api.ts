// npm run bench:api — autocannon on loopback against the real server (npm start's entry, a seeded
// database, sign-in against the real Auth emulator), 50 connections for 10 s per endpoint, beside
// a bare Hono hello-world server started here, so each figure reads as a share of that ceiling.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { prepareDatabase } from '../../api/db/prepare.ts';
import { createEmulatorUser, startAuthEmulator } from '../../tests/helpers/auth-emulator.ts';
import { machine, tempDir } from './lib.ts';

const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

function startChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const match = ready.exec(output);
      if (match) resolve({ url: match[1]!, child });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
  });
}

interface Figure {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function run(name: string, opts: autocannon.Options): Promise<Figure> {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

console.log(
  `bench:api on ${machine()}, ${new Date().toISOString()}; ${CONNECTIONS} connections × ${DURATION} s each`,
);
const dir = tempDir('nestling-bench-api-');
const children: ChildProcess[] = [];
const emulator = await startAuthEmulator();
try {
  const dbFile = path.join(dir, 'bench.db');
  const { db } = await prepareDatabase(dbFile, 'content');
  const posts = await db
    .selectFrom('blog_posts')
    .select(['slug', 'post_id', 'comment_count'])
    .orderBy('comment_count', 'desc')
    .execute();
  await db.destroy();
  const busiest = posts[0]!;

  const hello = await startChild(
    [
      '--input-type=module',
      '-e',
      `import { serve } from '@hono/node-server'; import { Hono } from 'hono';
       const app = new Hono().get('/', (c) => c.json({ hello: 'world' }));
       serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (i) => console.log('hello at http://127.0.0.1:' + i.port));`,
    ],
    process.env,
    /hello at (http:\/\/\S+)/,
  );
  children.push(hello.child);

  const server = await startChild(
    ['--import', 'tsx', 'scripts/start.ts'],
    {
      ...process.env,
      PORT: '0',
      DATABASE_PATH: dbFile,
      // The built site is irrelevant to API figures; reuse dist/ when it is there.
      PUBLIC_FIREBASE_API_KEY: 'bench-api-key',
      FIREBASE_PROJECT_ID: 'demo-nestling',
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      RATE_LIMIT_COMMENTS_PER_MINUTE: '1000000',
      RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
    },
    /Nestling is running at (http:\/\/\S+)/,
  );
  children.push(server.child);
  const base = server.url;
  const users = await Promise.all(
    Array.from({ length: CONNECTIONS }, () => createEmulatorUser(emulator.host)),
  );
  let next = 0;
  const token = () => users[next++ % users.length]!.idToken;

  const figures: Figure[] = [];
  figures.push(await run('hello-world Hono (ceiling)', { url: `${hello.url}/` }));
  for (const [name, p] of [
    ['GET /api/blog/posts', '/api/blog/posts'],
    ['GET /api/items', '/api/items'],
    ['GET /api/blog/posts/:slug', `/api/blog/posts/${busiest.slug}`],
    ['GET /api/blog/posts/:id/comments', `/api/blog/posts/${busiest.post_id}/comments`],
    ['GET /api/blog/categories', '/api/blog/categories'],
    ['GET /api/items/categories', '/api/items/categories'],
  ] as const) {
    figures.push(await run(name, { url: `${base}${p}` }));
  }
  figures.push(
    await run('POST /api/blog/posts/:slug/view', {
      url: `${base}/api/blog/posts/${busiest.slug}/view`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    }),
  );
  const likeSlug = posts[1]!.slug;
  figures.push(
    await run('POST /api/blog/posts/:slug/like', {
      url: `${base}/api/blog/posts/${likeSlug}/like`,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => ({
            ...req,
            headers: {
              ...req.headers,
              'content-type': 'application/json',
              authorization: `Bearer ${token()}`,
            },
          }),
        },
      ],
    }),
  );
  const commentsBefore = busiest.comment_count;
  let acknowledged = 0;
  figures.push(
    await run('POST /api/blog/posts/:id/comments', {
      url: `${base}/api/blog/posts/${busiest.post_id}/comments`,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => ({
            ...req,
            headers: {
              ...req.headers,
              'content-type': 'application/json',
              authorization: `Bearer ${token()}`,
            },
            body: JSON.stringify({ content: 'Benchmark comment', parentCommentId: null }),
          }),
          onResponse: (status) => {
            if (status === 201) acknowledged++;
          },
        },
      ],
    }),
  );
  const after = (await (await fetch(`${base}/api/blog/posts/${busiest.slug}`)).json()) as {
    commentCount: number;
  };

  const ceiling = figures[0]!.rps;
  console.log('\n| endpoint | req/s | share of ceiling | p50 ms | p99 ms | errors | non-2xx |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const f of figures) {
    console.log(
      `| ${f.name} | ${f.rps.toFixed(0)} | ${((f.rps / ceiling) * 100).toFixed(0)}% | ${f.p50} | ${f.p99} | ${f.errors} | ${f.non2xx} |`,
    );
  }
  const stored = after.commentCount - commentsBefore;
  // Requests still in flight when autocannon stops are stored but their answers never read, so
  // stored may exceed acknowledged; an acknowledged comment missing from the database is lost.
  console.log(
    `\nComments acknowledged: ${acknowledged}; stored: ${stored} ` +
      `(${Math.max(0, stored - acknowledged)} in flight at the cut-off); lost: ${Math.max(0, acknowledged - stored)}`,
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
  await emulator.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
