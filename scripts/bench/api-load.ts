// The load side of npm run bench:api: autocannon runs, the ceiling servers, and client addresses.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';

export const CONNECTIONS = 50;
export const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

/** What a browser sends with every request to the API; the server compresses for it. */
export const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };
/** A view beacon as a browser sends it: fetch() POSTs with no body. */
export const BEACON_HEADERS = {
  ...BROWSER_HEADERS,
  'content-type': 'application/json',
  'content-length': '0',
};

/**
 * The reader mix of one reader (bench:api, bench:streams, bench:soak): ten post visits, each
 * reading the comment pages of `threads` and sending the view beacon of one of `viewed`;
 * `pageOf` puts a page of the site first in each visit (the soak serves pages too). Its length is
 * the `reconnectRate` that makes each connection one reader who leaves after the ten.
 */
export function readerMix(
  threads: number[],
  viewed: string[],
  pageOf?: (visit: number) => string,
): autocannon.Request[] {
  const requests: autocannon.Request[] = [];
  for (let visit = 0; visit < 10; visit++) {
    if (pageOf) requests.push({ method: 'GET', path: pageOf(visit) });
    for (const id of threads) requests.push({ method: 'GET', path: `/api/blog/posts/${id}/comments` });
    requests.push({
      method: 'POST',
      path: `/api/blog/posts/${viewed[visit % viewed.length]!}/view`,
      headers: BEACON_HEADERS,
    });
  }
  return requests;
}

/**
 * autocannon keeps each answer's body as a string (`body += chunk`, for its expectBody and
 * onResponse options), decoding every byte as UTF-8. For a compressed answer that costs the load
 * generator more than the server spends sending it: a bare server sending a 7 KB Brotli answer
 * measured 13.6k req/s with the decoding and 33.6k without it, while the hello-world (a short ASCII
 * body) was the same either way, so every large answer looked slower than it is. These benches read
 * only statuses: bodies are counted, not kept. The figure then measures the server.
 */
function countBodiesOnly(): void {
  const queue: unknown = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js');
  const proto: unknown = typeof queue === 'function' ? queue.prototype : undefined;
  if (typeof proto !== 'object' || proto === null || typeof Reflect.get(proto, 'addBody') !== 'function') {
    throw new Error(
      'autocannon no longer keeps bodies in PipelinedRequestsQueue.addBody: check countBodiesOnly',
    );
  }
  Reflect.set(proto, 'addBody', () => {});
}
countBodiesOnly();

export interface Figure {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The server process's CPU time per answered request, in µs (Linux only). */
  cpuUs?: number;
}

/** CPU time a process has used, in ms, from /proc (user + system, in 1/100 s). */
export function cpuMs(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * One autocannon run: 50 connections for BENCH_SECONDS, req/s as autocannon's average. With the
 * server's pid, also its CPU time per request: on a shared machine that moves much less than
 * req/s, which depends on what else gets the cores (autocannon included).
 */
export async function measure(name: string, opts: autocannon.Options, serverPid?: number): Promise<Figure> {
  const before = serverPid === undefined ? undefined : cpuMs(serverPid);
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  const after = serverPid === undefined ? undefined : cpuMs(serverPid);
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuUs:
      before === undefined || after === undefined || result.requests.total === 0
        ? undefined
        : ((after - before) * 1000) / result.requests.total,
  };
}

/** The length of one turn in `inTurns`: half a measurement. */
const TURN = Math.max(2, DURATION / 2);

type Turn = (turn: { duration: number }) => Promise<Figure>;

/**
 * A figure and its ceilings measured in turns (each ceiling, the figure, each ceiling, the figure,
 * each ceiling), each turn half of BENCH_SECONDS long. This machine's speed drifts by up to 15%
 * between 10-second runs a minute apart, with nothing else running, so a ceiling measured minutes
 * before or after a figure misstates its share; in turns, all see the same machine. Requests per
 * second are the mean of the turns; latency the worst turn's. Ceilings come back in the order given.
 */
export async function inTurns(
  ceilings: Turn[],
  figure: Turn,
): Promise<{ figure: Figure; ceilings: Figure[] }> {
  const ceilingTurns: Figure[][] = ceilings.map(() => []);
  const ceilingRound = async () => {
    for (const [i, ceiling] of ceilings.entries()) ceilingTurns[i]!.push(await ceiling({ duration: TURN }));
  };
  await ceilingRound();
  const figures: Figure[] = [];
  for (let i = 0; i < 2; i++) {
    figures.push(await figure({ duration: TURN }));
    await ceilingRound();
  }
  return { figure: combine(figures), ceilings: ceilingTurns.map(combine) };
}

function combine(turns: Figure[]): Figure {
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const cpu = turns.map((t) => t.cpuUs).filter((v) => v !== undefined);
  return {
    name: turns[0]!.name,
    rps: mean(turns.map((t) => t.rps)),
    p50: Math.max(...turns.map((t) => t.p50)),
    p99: Math.max(...turns.map((t) => t.p99)),
    errors: turns.reduce((sum, t) => sum + t.errors, 0),
    non2xx: turns.reduce((sum, t) => sum + t.non2xx, 0),
    cpuUs: cpu.length === turns.length ? mean(cpu) : undefined,
  };
}

/** A short unmeasured run, so the first measurement of a process does not include its JIT warm-up. */
export async function warmUp(opts: autocannon.Options): Promise<void> {
  await autocannon({ connections: CONNECTIONS, duration: 2, ...opts });
}

/** Starts a Node child and resolves with the URL it prints once it listens. */
export function startChild(
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

/** Stops a child and waits until it has gone. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The bare Hono hello-world on @hono/node-server: what the stack itself costs per request. */
export function startHelloWorld(): Promise<{ url: string; child: ChildProcess }> {
  return startChild(
    [
      '--input-type=module',
      '-e',
      `import { serve } from '@hono/node-server'; import { Hono } from 'hono';
       const app = new Hono().get('/', (c) => c.json({ hello: 'world' }));
       serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (i) => console.log('ready at http://127.0.0.1:' + i.port));`,
    ],
    process.env,
    /ready at (http:\/\/\S+)/,
  );
}

export interface Answer {
  status: number;
  /** As sent, less what the server computes per response (date, length, connection). */
  headers: [string, string][];
  /** The bytes on the wire (compressed when the server compressed them). */
  body: string;
}

const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** The exact answer the server gives to one GET with these headers. */
export function captureAnswer(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const pairs: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            if (!PER_RESPONSE.has(res.rawHeaders[i]!.toLowerCase())) {
              pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
            }
          }
          resolve({
            status: res.statusCode!,
            headers: pairs,
            body: Buffer.concat(chunks).toString('base64'),
          });
        });
      })
      .on('error', reject);
  });
}

/**
 * A bare Hono server that answers every request with one recorded answer from memory: the
 * ceiling for that payload, since it does the same HTTP work with no API behind it. Its headers
 * are a plain object, as the API's cached answers are: @hono/node-server writes those as they are.
 */
export function startSamePayload(
  answer: Answer,
  dir: string,
  name = 'answer',
): Promise<{ url: string; child: ChildProcess }> {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(answer));
  return startChild(
    [
      '--input-type=module',
      '-e',
      `import fs from 'node:fs'; import { serve } from '@hono/node-server'; import { Hono } from 'hono';
       const answer = JSON.parse(fs.readFileSync(${JSON.stringify(file)}, 'utf8'));
       const body = Buffer.from(answer.body, 'base64');
       const headers = {};
       for (const [k, v] of answer.headers) headers[k] = k in headers ? headers[k] + ', ' + v : v;
       const app = new Hono().get('*', () => new Response(body, { status: answer.status, headers }));
       serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (i) => console.log('ready at http://127.0.0.1:' + i.port));`,
    ],
    process.env,
    /ready at (http:\/\/\S+)/,
  );
}

/** The n-th loopback client address: 127.1.0.0, 127.1.0.1, … (all of 127/8 is local on Linux). */
function clientAddress(n: number): string {
  return `127.${1 + (Math.floor(n / 65_536) % 254)}.${Math.floor(n / 256) % 256}.${n % 256}`;
}

/**
 * Runs `body` with every connection autocannon opens bound to a new loopback client address, so
 * the server's per-address limits see many readers rather than one. autocannon has no option for
 * a source address; it opens connections with net.connect(port, host), which is wrapped here for
 * the duration of the run. Returns how many addresses were used, so a run where the wrapping did
 * not take cannot pass unnoticed.
 */
export async function fromManyAddresses<T>(
  body: () => Promise<T>,
): Promise<{ result: T; addresses: number }> {
  const original = net.connect;
  let opened = 0;
  const wrapped = (...args: unknown[]) => {
    if (typeof args[0] === 'number' && typeof args[1] === 'string') {
      return original({ port: args[0], host: args[1], localAddress: clientAddress(opened++) });
    }
    return (original as (...a: unknown[]) => net.Socket)(...args);
  };
  Reflect.set(net, 'connect', wrapped);
  try {
    const result = await body();
    if (opened === 0) throw new Error('autocannon no longer opens connections through net.connect');
    return { result, addresses: opened };
  } finally {
    Reflect.set(net, 'connect', original);
  }
}
