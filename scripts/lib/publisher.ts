import { loadContent } from '../../api/db/content.ts';
import type { DB } from '../../api/db/database.ts';
import { syncContent } from '../../api/db/sync.ts';
import type { PublishRun, PublishStatus } from '../../api/contract.ts';
import type { PublishService } from '../../api/types.ts';
import { buildSite } from './build.ts';

export interface PublisherOptions {
  db: DB;
  contentDir: string;
  siteDir: string;
  /** Environment for the build child (its DATABASE_URL or DATABASE_PATH must name db's database). */
  buildEnv: NodeJS.ProcessEnv;
  /** A CDN host's build hook, POSTed after a successful sync. */
  hookUrl?: string;
  now?: () => Date;
  /** When the live site was built: posts due after this go live by a scheduled run. */
  builtAt?: Date;
  log?: (line: string) => void;
  /** Swappable for tests: the site build. */
  build?: (siteDir: string, env: NodeJS.ProcessEnv) => Promise<unknown>;
}

const KEEP_RUNS = 20;

/**
 * The publishing pipeline: sync content/ into the database, rebuild the site into a new folder and
 * swap it in. One run at a time; requests that arrive during a run coalesce into one follow-up run.
 */
export function createPublisher(options: PublisherOptions): PublishService & {
  /** Resolves when no run is in progress or queued. */
  idle: () => Promise<void>;
  /** Publishes when a scheduled post has come due since the last successful build. */
  checkSchedule: () => Promise<void>;
} {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.log(line));
  const build = options.build ?? buildSite;
  const runs: PublishRun[] = [];
  let nextId = 1;
  let active: PublishRun | null = null;
  let queued: PublishRun | null = null;
  let idleWaiters: (() => void)[] = [];
  let lastBuiltAt = options.builtAt ?? now();

  const finish = (run: PublishRun, state: 'succeeded' | 'failed', error: string | null) => {
    const finishedAt = now();
    run.state = state;
    run.error = error;
    run.finishedAt = finishedAt.toISOString();
    run.durationMs = finishedAt.getTime() - new Date(run.startedAt!).getTime();
  };

  async function execute(run: PublishRun): Promise<void> {
    run.startedAt = now().toISOString();
    run.state = 'syncing';
    log(`Publish #${run.id} (${run.trigger}): syncing content …`);
    try {
      const result = await syncContent(options.db, loadContent(options.contentDir), now());
      run.postsChanged = result.inserted.length + result.updated.length + result.unpublished.length;
      log(
        `Publish #${run.id}: ${result.inserted.length} new, ${result.updated.length} changed, ` +
          `${result.unpublished.length} withdrawn. Building the site …`,
      );
      if (options.hookUrl) await callHook(options.hookUrl, run, log);
      run.state = 'building';
      const buildStarted = now();
      await build(options.siteDir, options.buildEnv);
      lastBuiltAt = buildStarted;
      finish(run, 'succeeded', null);
      log(`Publish #${run.id}: live in ${((run.durationMs ?? 0) / 1000).toFixed(1)} s.`);
    } catch (error) {
      finish(run, 'failed', (error as Error).message);
      log(`Publish #${run.id} failed; the live site is unchanged. ${(error as Error).message}`);
    }
  }

  async function drain(): Promise<void> {
    while (queued) {
      active = queued;
      queued = null;
      await execute(active);
    }
    active = null;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function record(run: PublishRun) {
    runs.unshift(run);
    runs.length = Math.min(runs.length, KEEP_RUNS);
  }

  return {
    request(trigger) {
      if (queued) return queued; // already a follow-up waiting: this request joins it
      const run: PublishRun = {
        id: nextId++,
        trigger,
        state: 'queued',
        startedAt: null,
        finishedAt: null,
        durationMs: null,
        postsChanged: 0,
        error: null,
      };
      record(run);
      queued = run;
      if (!active) void drain();
      return run;
    },
    status(): PublishStatus {
      return { current: active ?? queued, recent: runs.map((r) => ({ ...r })) };
    },
    idle() {
      if (!active && !queued) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async checkSchedule() {
      if (active || queued) return;
      const due = await options.db
        .selectFrom('blog_posts')
        .select('slug')
        .where('is_published', '=', 1)
        .where('published_at', '>', lastBuiltAt.toISOString())
        .where('published_at', '<=', now().toISOString())
        .executeTakeFirst();
      if (due) this.request(`schedule (${due.slug})`);
    },
  };
}

async function callHook(url: string, run: PublishRun, log: (line: string) => void): Promise<void> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ run: run.id, trigger: run.trigger, postsChanged: run.postsChanged }),
      signal: AbortSignal.timeout(10_000),
    });
    log(`Publish #${run.id}: build hook answered ${res.status}.`);
  } catch (error) {
    // The hook is the CDN's business; our own site still publishes.
    log(`Publish #${run.id}: build hook failed: ${(error as Error).message}`);
  }
}
