// What a load balancer and an operator ask an instance (docs/deploy.md, "Health checks and stopping"):
// GET /api/health reports the database and the live release; GET /api/health/ready answers 200 only
// while the instance can serve (a live release known, not stopping) and 503 otherwise. Answered by
// the server before the API app, so never from the read cache and never with a kept answer.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { ReleaseSource } from '../lib/live-release.ts';
import { storageFailure } from '../lib/storage-failure.ts';

export const HEALTH_PATH = '/api/health';
export const READY_PATH = '/api/health/ready';

/** How long the health report waits for the database before calling it down. */
const DATABASE_CHECK_MS = 2_000;
/** A readiness check this recent means a load balancer is watching (HAProxy asks every second). */
const WATCHED_WITHIN_MS = 5_000;
/** Not-ready answers after which it has taken the instance out (deploy/haproxy.cfg: fall 2). */
const CHECKS_TO_LEAVE = 2;
/** The longest a stop waits for them, and then for the requests sent before the last was read. */
const DRAIN_MAX_MS = 3_000;
const DRAIN_GRACE_MS = 100;

export interface HealthReport {
  /** Whether the database answered a trivial query within DATABASE_CHECK_MS. */
  database: 'up' | 'down';
  /** The live release this instance serves; null before one is known. */
  release: { id: number } | null;
  ready: boolean;
  /** Set once a stop has begun (SIGTERM): the instance finishes what it has and takes nothing new. */
  stopping: boolean;
}

export interface Health {
  /** Whether `url` (the request line's target) is one of the health paths. */
  handles: (url: string | undefined) => boolean;
  fetch: (request: Request) => Promise<Response>;
  /** From now on the instance is not ready (a stop has begun). */
  stop: () => void;
  /**
   * After stop(): resolves once a load balancer that was checking readiness has been told "not
   * ready" often enough to send nothing more (at most DRAIN_MAX_MS), at once if none was checking.
   */
  drained: () => Promise<void>;
}

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  });

export function createHealth({ db, release }: { db: DB; release: ReleaseSource }): Health {
  let stopping = false;
  let lastCheck = -Infinity;
  let toldStopping = 0;
  let onTold: (() => void) | undefined;
  /** The live release as the instance serves it; a database that cannot answer gives the last known. */
  const live = () => release.current().catch(() => null);
  const database = async (): Promise<'up' | 'down'> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'down'>(
      (resolve) => (timer = setTimeout(() => resolve('down'), DATABASE_CHECK_MS)),
    );
    const check = sql`select 1`.execute(db).then(
      () => 'up' as const,
      (error: unknown) => {
        if (!storageFailure(error)) console.error('Health check: the database failed:', error);
        return 'down' as const;
      },
    );
    try {
      return await Promise.race([check, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    handles: (url) => {
      const path = url?.split('?')[0];
      return path === HEALTH_PATH || path === READY_PATH;
    },
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return json({ error: 'Method not allowed' }, 405);
      const served = await live();
      const ready = !stopping && served !== null;
      if (path === READY_PATH) {
        lastCheck = Date.now();
        if (stopping && (toldStopping += 1) >= CHECKS_TO_LEAVE) onTold?.();
        const reason = stopping ? 'stopping' : served === null ? 'no live release yet' : null;
        return json(reason ? { ready, reason } : { ready }, ready ? 200 : 503);
      }
      const report: HealthReport = {
        database: await database(),
        release: served && { id: served.id },
        ready,
        stopping,
      };
      return json(report, 200);
    },
    stop: () => {
      stopping = true;
    },
    drained: () =>
      Date.now() - lastCheck > WATCHED_WITHIN_MS
        ? Promise.resolve()
        : new Promise((resolve) => {
            const timer = setTimeout(resolve, DRAIN_MAX_MS);
            onTold = () => {
              clearTimeout(timer);
              setTimeout(resolve, DRAIN_GRACE_MS);
            };
            if (toldStopping >= CHECKS_TO_LEAVE) onTold();
          }),
  };
}
