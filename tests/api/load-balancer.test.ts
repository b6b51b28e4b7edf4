// The production shape (docs/decisions/028-load-balancer.md): HAProxy, run with deploy/haproxy.cfg
// itself, in front of two real server processes (`npm start`) on one PostgreSQL database, while
// readers and commenting parents keep coming through it. One instance is killed with SIGKILL: no
// read fails but those that could have been in flight on it (HAProxy tries them again on the other),
// no comment answered 201 is lost, and the instance, started again on its port, gets traffic again.
// Then the other gets SIGTERM: nothing fails and nothing is lost.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import which from 'which';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../../api/contract.ts';
import { openDatabase } from '../../api/db/database.ts';
import { freePort } from '../../scripts/lib/ports.ts';
import { findSystemBinary } from '../../scripts/lib/system-deps.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { type StartedServer, startFromBuild, startServer } from '../helpers/start-server.ts';
import { createTestDb, onPostgres } from '../helpers/test-db.ts';

const CONFIG = path.resolve(import.meta.dirname, '../../deploy/haproxy.cfg');
const HAPROXY = findSystemBinary({
  label: 'HAProxy',
  aptPackage: 'haproxy',
  // Debian puts it in /usr/sbin, which is not on an ordinary user's PATH.
  candidates: () => [which.sync('haproxy', { nothrow: true }) ?? '', '/usr/sbin/haproxy'].filter(Boolean),
});
/** CI installs it (.ci/run), so there a missing HAProxy is a failure, not a reason to skip. */
const runHere = onPostgres() && (HAPROXY !== undefined || process.env.CI === 'true');
if (onPostgres() && !runHere) {
  console.log('load-balancer.test.ts skipped: HAProxy not found (apt-get install haproxy).');
}

const READERS = 4;
const WRITERS = 2;
const INSTANCES = ['app1', 'app2'] as const;
type Instance = (typeof INSTANCES)[number];
type Phase = 'before' | 'killed' | 'restarted' | 'stopping';

interface Answer {
  kind: 'read' | 'comment';
  path: string;
  /** 0: no answer at all (the connection failed). */
  status: number;
  /** Which instance HAProxy says answered (its X-Nestling-Instance). */
  instance: string | null;
  phase: Phase;
  content?: string;
  at: number;
}

/** A site folder as a build leaves it, as small as a test needs. */
function tinySite(): string {
  const dir = tempDir('nestling-tiny-site-');
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Nestling</title><h1>Home</h1>');
  return dir;
}

interface Balancer {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** `haproxy -db -f deploy/haproxy.cfg` (in the foreground) with the ports put in its environment. */
function startHaproxy(binary: string, env: Record<string, string>): Balancer {
  const child = spawn(binary, ['-db', '-f', CONFIG], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  return { child, output: () => output, stop };
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(runHere)('HAProxy in front of two instances on one PostgreSQL', () => {
  const servers = new Map<Instance, StartedServer>();
  let balancer: Balancer | undefined;
  afterAll(async () => {
    await Promise.all([...servers.values()].map((server) => server.stop()));
    await balancer?.stop();
  });

  it('loses no read but those in flight to SIGKILL, no acknowledged comment, and nothing to SIGTERM', async () => {
    if (!HAPROXY) throw new Error('HAProxy not found, and CI installs it: apt-get install haproxy');
    const { db, location: url } = await createTestDb();
    await db.destroy();
    const siteDir = path.join(tempDir('nestling-lb-'), 'site');
    const ports = { app1: await freePort(), app2: await freePort(), haproxy: await freePort() };
    const env = (instance: Instance) => ({
      DATABASE_URL: url,
      SITE_DIR: siteDir,
      PORT: String(ports[instance]),
      RATE_LIMIT_COMMENTS_PER_MINUTE: '100000',
      MODERATION_HOLD_FIRST: '0',
    });
    // The first prepares the database and the release's folder; the second serves the same.
    servers.set('app1', await startFromBuild(tinySite(), env('app1')));
    servers.set('app2', await startServer(env('app2')));
    const socketDir = tempDir('nestling-haproxy-');
    balancer = startHaproxy(HAPROXY, {
      NESTLING_LISTEN: `127.0.0.1:${ports.haproxy}`,
      NESTLING_INSTANCE_1: `127.0.0.1:${ports.app1}`,
      NESTLING_INSTANCE_2: `127.0.0.1:${ports.app2}`,
      NESTLING_HAPROXY_SOCKET: path.join(socketDir, 'admin.sock'),
    });
    const base = `http://127.0.0.1:${ports.haproxy}`;
    const lb = balancer;
    const fail = (what: string) =>
      new Error(
        `${what}\n--- HAProxy ---\n${lb.output()}\n` +
          [...servers].map(([name, s]) => `--- ${name} ---\n${s.output()}`).join('\n'),
      );
    /** Waits for a condition, failing (with every process's output) if HAProxy dies meanwhile. */
    const until = async (condition: () => boolean | Promise<boolean>, what: string) => {
      while (!(await condition())) {
        if (!running(lb.child)) throw fail(`HAProxy exited while waiting for ${what}`);
        await sleep(20);
      }
    };
    const answeredBy = async (path: string) => {
      const response = await fetch(`${base}${path}`).catch(() => null);
      await response?.arrayBuffer();
      return response?.status === 200 ? response.headers.get('X-Nestling-Instance') : null;
    };
    // Both in the pool: each has answered through HAProxy.
    const seen = new Set<string | null>();
    await until(
      async () => seen.add(await answeredBy('/api/health/ready')).has('app1') && seen.has('app2'),
      'both instances',
    );

    const posts = (await (await fetch(`${base}/api/blog/posts`)).json()) as {
      postId: number;
      slug: string;
    }[];
    const readPaths = posts
      .slice(0, 3)
      .flatMap((p) => [`/api/blog/posts/${p.postId}/comments`, `/api/blog/posts/${p.slug}/stats`])
      .concat(['/api/blog/posts', '/']);
    const postId = posts[0]!.postId;

    const answers: Answer[] = [];
    const inFlight = { read: 0, comment: 0 };
    let phase: Phase = 'before';
    let sent = 0;
    const send = async (kind: Answer['kind']) => {
      const at = phase;
      sent += 1;
      const content = `Balanced ${sent} ${crypto.randomUUID()}`;
      const target =
        kind === 'read' ? readPaths[sent % readPaths.length]! : `/api/blog/posts/${postId}/comments`;
      inFlight[kind] += 1;
      const response = await (
        kind === 'read'
          ? fetch(`${base}${target}`)
          : fetch(`${base}${target}`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${DEMO_TOKEN}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ content }),
            })
      ).catch(() => null);
      await response?.arrayBuffer().catch(() => undefined);
      inFlight[kind] -= 1;
      answers.push({
        kind,
        path: target,
        status: response?.status ?? 0,
        instance: response?.headers.get('X-Nestling-Instance') ?? null,
        phase: at,
        content: kind === 'comment' ? content : undefined,
        at: Date.now(),
      });
    };
    let loading = true;
    // A short breath between requests; a longer one from the restart of the killed instance until
    // HAProxy sends it a request again (two health checks, a second apart): it starts and rejoins
    // beside the load, a lighter one, as what one instance carries meanwhile is checked already
    // (the killed phase) and each request costs HAProxy, an instance and PostgreSQL their CPU.
    let breathMs = 5;
    const loops = [...Array<'read'>(READERS).fill('read'), ...Array<'comment'>(WRITERS).fill('comment')].map(
      async (kind) => {
        while (loading) {
          await send(kind);
          await sleep(breathMs);
        }
      },
    );
    const count = (p: Phase, filter: (a: Answer) => boolean = () => true) =>
      answers.filter((a) => a.phase === p && filter(a)).length;

    let readsInFlightAtKill: number;
    let rejoinSeconds: number;
    let stopExit: number | null;
    let signalledAt = Infinity;
    try {
      // Load through both first.
      await until(
        () => INSTANCES.every((i) => count('before', (a) => a.instance === i && a.kind === 'comment') >= 5),
        'comments through both instances',
      );
      readsInFlightAtKill = inFlight.read;
      const killed = servers.get('app1')!;
      killed.child.kill('SIGKILL');
      await until(() => !running(killed.child), 'the killed instance to exit');
      phase = 'killed';
      // The load goes on against one instance for a while before the killed one comes back.
      await until(
        () =>
          count('killed', (a) => a.kind === 'read') >= 200 &&
          count('killed', (a) => a.kind === 'comment') >= 20,
        'load after the kill',
      );
      breathMs = 50;
      servers.set('app1', await startServer(env('app1')));
      const listening = Date.now();
      phase = 'restarted';
      await until(() => count('restarted', (a) => a.instance === 'app1') >= 1, 'the restarted instance');
      breathMs = 5;
      await until(
        () => count('restarted', (a) => a.instance === 'app1') >= 10,
        'the restarted instance to get traffic',
      );
      rejoinSeconds =
        (answers.find((a) => a.phase === 'restarted' && a.instance === 'app1')!.at - listening) / 1000;

      const stopped = servers.get('app2')!;
      const exited = new Promise<number | null>((resolve) => stopped.child.once('exit', resolve));
      phase = 'stopping';
      // A burst beside the load as the signal goes, so some requests are surely on their way to it.
      const burst = Array.from({ length: 20 }, (_, i) => send(i % 4 ? 'read' : 'comment'));
      await sleep(2);
      signalledAt = Date.now();
      stopped.child.kill('SIGTERM');
      stopExit = await exited;
      await Promise.all(burst);
      const exitedAt = Date.now();
      // Then on the one left, until it has carried a share of its own.
      await until(
        () =>
          count('stopping', (a) => a.kind === 'read' && a.at > exitedAt) >= 200 &&
          count('stopping', (a) => a.kind === 'comment' && a.at > exitedAt) >= 20,
        'load after the stop',
      );
    } finally {
      loading = false;
      await Promise.all(loops);
    }

    const failed = (a: Answer) => (a.kind === 'read' ? a.status !== 200 : a.status !== 201);
    const summary = (phases: Phase[]) => {
      const these = answers.filter((a) => phases.includes(a.phase));
      const statuses: Record<string, number> = {};
      for (const a of these) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      return {
        requests: these.length,
        failedReads: these.filter((a) => a.kind === 'read' && failed(a)).length,
        failedComments: these.filter((a) => a.kind === 'comment' && failed(a)).length,
        comments201: these.filter((a) => a.kind === 'comment' && a.status === 201).length,
        statuses,
      };
    };

    // Every comment answered 201 is in the database; what was refused is not half written.
    const check = openDatabase(url);
    let stored: Set<string>;
    try {
      stored = new Set(
        (
          await check
            .selectFrom('comments')
            .select('content')
            .where('content', 'like', 'Balanced %')
            .execute()
        ).map((row) => row.content),
      );
    } finally {
      await check.destroy();
    }
    // HAProxy's log of every request (timings, retries, termination flags) for a failure's story.
    if (process.env.LOAD_BALANCER_LOG) console.log(lb.output());
    const lost = answers.filter((a) => a.status === 201 && !stored.has(a.content!));
    // HAProxy's log (option httplog) says which requests it sent again: "…/<retries> <queues> \"GET …",
    // the retries with a + when it redispatched them to the other instance.
    const retried: Record<string, number> = {};
    for (const [, retries, method] of lb.output().matchAll(/\/(\+?\d+) \d+\/\d+ "(\w+) /g)) {
      if (retries !== '0') retried[method!] = (retried[method!] ?? 0) + 1;
    }
    const killPhase = summary(['before', 'killed', 'restarted']);
    const stopPhase = summary(['stopping']);
    // The figures of README's reliability table.
    console.log(
      `load balancer, SIGKILL: ${killPhase.requests} requests, ${killPhase.failedReads} reads failed ` +
        `(${readsInFlightAtKill} in flight at the kill), ${killPhase.failedComments} comments failed, ` +
        `statuses ${JSON.stringify(killPhase.statuses)}; ${killPhase.comments201} comments answered 201, ` +
        `${lost.filter((a) => a.phase !== 'stopping').length} lost, ` +
        `${answers.filter((a) => a.kind === 'comment' && failed(a) && stored.has(a.content!)).length} ` +
        `unacknowledged ones stored; rejoined ${rejoinSeconds} s after it listened again; ` +
        `HAProxy retried ${JSON.stringify(retried)} in the whole run`,
    );
    console.log(
      `load balancer, SIGTERM: ${stopPhase.requests} requests, ${stopPhase.failedReads} reads and ` +
        `${stopPhase.failedComments} comments failed, statuses ${JSON.stringify(stopPhase.statuses)}; ` +
        `${stopPhase.comments201} comments answered 201, ${lost.filter((a) => a.phase === 'stopping').length} lost; ` +
        `${answers.filter((a) => a.instance === 'app2' && a.at >= signalledAt).length} answered by the ` +
        `stopping instance after the signal; exit code ${stopExit}`,
    );

    expect(lost).toEqual([]);
    // SIGKILL: each reader has one request out at a time, so at most the reads out at the kill
    // can have been on the killed instance; HAProxy retries even those (retry-on), so mostly 0.
    expect(killPhase.failedReads).toBeLessThanOrEqual(readsInFlightAtKill);
    // Once it is gone, nothing fails: not while one instance carries all, nor while the other rejoins.
    expect(answers.filter((a) => (a.phase === 'killed' || a.phase === 'restarted') && failed(a))).toEqual([]);
    // Between the kill and the restart nothing came from the dead instance.
    expect(answers.filter((a) => a.phase === 'killed' && a.status !== 0 && a.instance === 'app1')).toEqual(
      [],
    );
    // SIGTERM: nothing at all fails, reads or writes, and the instance exits cleanly.
    expect(answers.filter((a) => a.phase === 'stopping' && failed(a))).toEqual([]);
    expect(stopExit).toBe(0);
    expect(running(lb.child)).toBe(true);
    // Two server processes, HAProxy and a busy PostgreSQL on a 2-core machine.
  }, 240_000);
});
