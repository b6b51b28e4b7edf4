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
}

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  });

export function createHealth({ db, release }: { db: DB; release: ReleaseSource }): Health {
  let stopping = false;
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
  };
}
