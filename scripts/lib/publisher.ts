import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import {
  PUBLISH_PHASE_LABELS,
  type PublishProgress,
  type PublishRun,
  type RolledBack,
} from '../../api/contract.ts';
import type { Env } from '../../api/env.ts';
import { loadContent } from '../../api/db/content.ts';
import type { DB } from '../../api/db/database.ts';
import {
  acquirePublishLock,
  findWarmPublisher,
  forgetWarmPublisher,
  markWarmPublisher,
  releasePublishLock,
  renewPublishLock,
} from '../../api/db/queries/publish-lock.ts';
import {
  abandonReleases,
  claimQueuedRelease,
  dueScheduledPost,
  enqueueRelease,
  failRelease,
  findRun,
  hasQueuedRelease,
  liveRelease,
  recordProgress,
  retireOldReleases,
  rollbackRelease,
  snapshotRelease,
  switchLive,
} from '../../api/db/queries/releases.ts';
import type { ReleaseRow } from '../../api/db/schema.ts';
import { syncContent } from '../../api/db/sync.ts';
import type { PublishService } from '../../api/types.ts';
import type { BuildOptions } from './build.ts';
import { createBuildThread } from './build-thread.ts';
import { discardBuild, prepareSiteDir, pruneBuilds } from './site-dir.ts';

export interface PublisherOptions {
  db: DB;
  contentDir: string;
  /** SITE_DIR: one build folder per release. */
  siteDir: string;
  /** Environment for the build child (its DATABASE_URL or DATABASE_PATH must name db's database). */
  buildEnv: NodeJS.ProcessEnv;
  /** A CDN host's build hook, POSTed after each switch of the live release. */
  hookUrl?: string;
  /**
   * Called when this instance has switched the live release (a publish or a rollback): its own
   * server then serves the switch at once rather than within a second (api/lib/live-release.ts).
   */
  onLive?: () => void;
  now?: () => Date;
  log?: (line: string) => void;
  /**
   * Swappable for tests: builds the release named by env.NESTLING_RELEASE_ID into outDir, reusing
   * what it can of the live release's folder, and reports its progress.
   */
  build?: (outDir: string, env: NodeJS.ProcessEnv, options: BuildOptions) => Promise<unknown>;
  /** How often a run's progress is written to its row at most (phase changes are written at once). */
  progressEveryMs?: number;
  /** How long the publish lock stays this instance's without renewal (a crash frees it after this). */
  leaseMs?: number;
  /** How often finished() looks again at a run another instance is running. */
  pollMs?: number;
  /** This instance's name in the lock and on its runs. */
  instance?: string;
  /**
   * Awaited as a run enters syncing and switching (the build reports its own phases): the killed-
   * publish test's publisher stops for good in one of them (tests/helpers/killable-publisher.ts).
   */
  atPhase?: (phase: 'syncing' | 'switching') => Promise<void>;
}

export interface Publisher extends PublishService {
  /**
   * Takes the publish lock if it is free; then queues a run for a scheduled post that has come due
   * and runs whatever is queued. Every instance may tick: only the lock holder acts.
   */
  tick: () => Promise<void>;
  /** Resolves when this instance has nothing more to run. */
  idle: () => Promise<void>;
  /** Waits until a run has finished, on whichever instance runs it. */
  finished: (id: number) => Promise<PublishRun>;
  /**
   * A running server's: says every few seconds that this publisher is up, and runs a run queued
   * anywhere within a second (the command line hands its runs to it). Ends with close(); resolves
   * once the first word that it is up has landed.
   */
  keepWarm: () => Promise<void>;
  /**
   * The command line's publish: handed to a running server's warm publisher when one is up (its
   * process and build are warm: seconds, not a cold start), else run here. `handedTo` names it.
   */
  publishHere: (trigger: string) => Promise<{ run: PublishRun; handedTo: string | null }>;
  /** Stops the build kept warm between publishes (it also stops by itself when idle or orphaned). */
  close: () => Promise<void>;
}

const FINISHED = new Set<PublishRun['state']>(['succeeded', 'failed', 'rolled_back', 'retired']);
/** How often a warm publisher looks for a queued run, and how often it says it is up. */
const WARM_WATCH_MS = 1_000;
const WARM_MARK_MS = 5_000;

/**
 * The publishing pipeline (docs/decisions/010): sync content/ into the database, snapshot the
 * published posts as a new release, build its site into its own folder and make it live in one
 * transaction, so pages and API switch together. Runs, the queue and the lock are rows: requests on
 * any instance queue a run (requests meanwhile join it), and the instance holding the lock runs it.
 */
export function createPublisher(options: PublisherOptions): Publisher {
  const { db, siteDir } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.log(line));
  // Builds in a thread of their own, off the one that answers readers; publishes after the first
  // render with the bundle it made while the code stays the same.
  const thread = options.build ? null : createBuildThread();
  const build = options.build ?? thread!.build;
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 500;
  const instance = options.instance ?? `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  const progressEveryMs = options.progressEveryMs ?? 500;
  prepareSiteDir(siteDir);

  let pass: Promise<void> | null = null;
  let lockLost = false;
  let warmTimer: ReturnType<typeof setInterval> | null = null;
  /** The last word that this publisher is up, while it is being written. */
  let marking: Promise<void> = Promise.resolve();

  /**
   * Reports a run's progress: on its row (so /admin and the studio on every instance show it) at
   * most every progressEveryMs, and in the log (what the command line prints) at each phase and
   * each quarter of the pages. Writes are chained so an older one never lands after a newer one.
   */
  function progressReporter(id: number) {
    let last: PublishProgress | null = null;
    let writtenAt = 0;
    let quarter = 0;
    let writing: Promise<void> = Promise.resolve();
    const write = (progress: PublishProgress) => {
      writtenAt = Date.now();
      writing = writing
        .then(() => recordProgress(db, id, progress))
        .catch((error: unknown) => log(`Publish #${id}: could not record progress: ${String(error)}`));
    };
    return {
      report(progress: PublishProgress) {
        const newPhase = last?.phase !== progress.phase;
        // Rendering is announced once the build has said whether it renders everything.
        const decided = progress.phase === 'rendering' && progress.incremental !== null;
        const announce =
          progress.phase === 'rendering' ? decided && (newPhase || last?.incremental === null) : newPhase;
        last = progress;
        if (newPhase) quarter = 0;
        if (announce) {
          const how = decided ? (progress.incremental ? ' (only what changed)' : ' (the whole site)') : '';
          log(`Publish #${id}: ${PUBLISH_PHASE_LABELS[progress.phase]}${how} …`);
        } else if (!newPhase && progress.total) {
          const reached = Math.floor((4 * progress.done) / progress.total);
          if (reached > quarter && reached < 4) {
            quarter = reached;
            log(
              `Publish #${id}: ${PUBLISH_PHASE_LABELS[progress.phase]}: ${progress.done} of ${progress.total} …`,
            );
          }
        }
        if (newPhase || Date.now() - writtenAt >= progressEveryMs) write(progress);
      },
      /** Resolves once every write has landed. */
      settled: () => writing,
    };
  }

  async function execute(row: ReleaseRow): Promise<void> {
    const id = row.release_id;
    let folder: string | null = null;
    const progress = progressReporter(id);
    progress.report({ phase: 'syncing', done: 0, total: null, incremental: null });
    try {
      await progress.settled();
      await options.atPhase?.('syncing');
      const synced = await syncContent(db, loadContent(options.contentDir), now());
      // A file whose post is edited in the studio is left alone (docs/decisions/018); say which.
      const skipped =
        synced.skipped.length > 0
          ? `, ${synced.skipped.length} skipped: edited in the studio (${synced.skipped.join(', ')})`
          : '';
      log(
        `Publish #${id}: ${synced.inserted.length} new, ${synced.updated.length} changed, ` +
          `${synced.unpublished.length} withdrawn${skipped}. Building the site …`,
      );
      const release = await snapshotRelease(db, id, now());
      folder = release.folder;
      // The live release's folder: pages this release renders the same are taken from it.
      const live = await liveRelease(db);
      await build(
        path.join(siteDir, folder),
        { ...options.buildEnv, NESTLING_RELEASE_ID: String(id) },
        {
          previous: live ? path.join(siteDir, live.folder) : null,
          onProgress: progress.report,
          log: (line) => log(`Publish #${id}: ${line}`),
        },
      );
      progress.report({ phase: 'switching', done: 0, total: null, incremental: null });
      await progress.settled();
      await options.atPhase?.('switching');
      await db.transaction().execute(async (trx) => {
        // Switch only while the lock is still ours: an instance that took it over after our lease ran
        // out has marked this run abandoned and may be building a newer release.
        if (lockLost || !(await renewPublishLock(trx, instance, now(), leaseMs))) {
          throw new Error('Lost the publish lock to another instance while building; nothing was switched.');
        }
        await switchLive(trx, id, now());
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // The folder goes first: on a full disk its space is what lets the failure be recorded.
      if (folder) discardBuild(path.join(siteDir, folder));
      await progress.settled();
      await failRelease(db, id, message, now());
      log(`Publish #${id} failed; the live site is unchanged. ${message}`);
      return;
    }
    options.onLive?.();
    const done = await findRun(db, id);
    log(`Publish #${id}: live in ${((done?.durationMs ?? 0) / 1000).toFixed(1)} s.`);
    try {
      const removed = pruneBuilds(siteDir, await retireOldReleases(db, now()));
      if (removed.length > 0) log(`Publish #${id}: removed the builds of releases ${removed.join(', ')}.`);
    } catch (error) {
      // Old builds left on disk cost space, not correctness: the next publish tries again.
      log(`Publish #${id}: could not remove old builds: ${String(error)}`);
    }
    if (options.hookUrl) {
      await callHook(
        options.hookUrl,
        { event: 'publish', release: id, trigger: row.trigger, postsChanged: done?.postsChanged ?? 0 },
        log,
      );
    }
  }

  /** One turn holding the lock; false when another instance holds it. */
  async function holdAndRun(): Promise<boolean> {
    if (!(await acquirePublishLock(db, instance, now(), leaseMs))) return false;
    lockLost = false;
    const heartbeat = setInterval(() => {
      renewPublishLock(db, instance, now(), leaseMs).then(
        (held) => (lockLost ||= !held),
        (error: unknown) => log(`Publish lock: could not renew the lease: ${String(error)}`),
      );
    }, leaseMs / 3);
    try {
      const abandoned = await abandonReleases(db, now());
      for (const folder of abandoned) discardBuild(path.join(siteDir, folder));
      if (abandoned.length > 0) log(`Publish: run(s) ${abandoned.join(', ')} of a stopped instance failed.`);
      const due = await dueScheduledPost(db, now());
      if (due) await enqueueRelease(db, `schedule (${due})`, now());
      for (;;) {
        const run = await claimQueuedRelease(db, instance, now());
        if (!run) break;
        await execute(run);
      }
    } finally {
      clearInterval(heartbeat);
      await releasePublishLock(db, instance);
    }
    return true;
  }

  /** Runs queued runs while this instance can hold the lock; one pass at a time. */
  function drain(): Promise<void> {
    pass ??= (async () => {
      try {
        // A run queued while we let go of the lock would otherwise wait for the next tick.
        let again = true;
        while (again) again = (await holdAndRun()) && (await hasQueuedRelease(db));
      } catch (error) {
        log(`Publish: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        pass = null;
      }
    })();
    return pass;
  }

  const publisher: Publisher = {
    async request(trigger) {
      const run = await enqueueRelease(db, trigger, now());
      void drain();
      return run;
    },
    async rollback(actor, reason): Promise<RolledBack> {
      const done = await rollbackRelease(db, actor, reason, now());
      options.onLive?.();
      log(`Rolled back from release #${done.from.id} to #${done.to.id} (${actor.name}).`);
      if (options.hookUrl) {
        await callHook(options.hookUrl, { event: 'rollback', release: done.to.id, from: done.from.id }, log);
      }
      return done;
    },
    tick: drain,
    async idle() {
      while (pass) await pass;
    },
    async close() {
      if (warmTimer) {
        clearInterval(warmTimer);
        warmTimer = null;
        // A word still being written would land after the forgetting, and say so again.
        await marking;
        await forgetWarmPublisher(db, instance, now()).catch(() => undefined);
      }
      await thread?.close();
    },

    keepWarm() {
      if (warmTimer) return marking;
      let beats = 0;
      const beat = () => {
        // Up for three beats of WARM_MARK_MS: a stopped server is passed over within seconds.
        if (beats++ % (WARM_MARK_MS / WARM_WATCH_MS) === 0)
          marking = markWarmPublisher(db, instance, new Date(now().getTime() + 3 * WARM_MARK_MS)).catch(
            () => undefined,
          );
        void hasQueuedRelease(db)
          // Not once close() has begun: the run is then for whoever asked, or another server.
          .then((queued) => (queued && warmTimer ? drain() : undefined))
          .catch(() => undefined);
      };
      beat();
      warmTimer = setInterval(beat, WARM_WATCH_MS);
      warmTimer.unref();
      return marking;
    },

    async publishHere(trigger) {
      const warm = await findWarmPublisher(db, now());
      if (!warm)
        return { run: await publisher.finished((await publisher.request(trigger)).id), handedTo: null };
      const { id } = await enqueueRelease(db, trigger, now());
      log(`Publish #${id}: handed to the running server's publisher (${warm}) …`);
      let said: string | null = null;
      for (;;) {
        const run = await findRun(db, id);
        if (!run) throw new Error(`There is no publish run #${id}.`);
        if (FINISHED.has(run.state)) {
          log(
            `Publish #${id}: ${run.state === 'succeeded' ? `live in ${((run.durationMs ?? 0) / 1000).toFixed(1)} s` : run.state}.`,
          );
          return { run, handedTo: warm };
        }
        const phase = run.progress ? PUBLISH_PHASE_LABELS[run.progress.phase] : null;
        if (phase && phase !== said) log(`Publish #${id}: ${(said = phase)} …`);
        // The server stopped before it took the run: this process runs it after all.
        if (run.state === 'queued' && !(await findWarmPublisher(db, now())))
          return { run: await publisher.finished(id), handedTo: null };
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },

    async finished(id) {
      for (let waited = false; ; waited = true) {
        await drain();
        const run = await findRun(db, id);
        if (!run) throw new Error(`There is no publish run #${id}.`);
        if (FINISHED.has(run.state)) return run;
        if (!waited) log(`Publish #${id} is ${run.state} on another instance; waiting for it …`);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },
  };
  return publisher;
}

/** The publisher of `npm start`, `npm run publish` and `npm run build`, configured from the environment. */
export function publisherFromEnv(db: DB, env: Env, more: Pick<PublisherOptions, 'onLive'> = {}): Publisher {
  return createPublisher({
    db,
    contentDir: env.CONTENT_DIR,
    siteDir: path.resolve(env.SITE_DIR),
    buildEnv: { ...process.env, DATABASE_PATH: env.DATABASE_PATH },
    hookUrl: env.PUBLISH_HOOK_URL,
    ...more,
  });
}

/**
 * An import's publish (npm run items:import, recalls:import), so the pages show what it changed:
 * handed to a running server's warm publisher when one is up. `kept` says what stays either way.
 */
export async function publishImport(db: DB, env: Env, trigger: string, kept: string): Promise<boolean> {
  console.log('Publishing so the pages show it …');
  const publisher = publisherFromEnv(db, env);
  const { run } = await publisher.publishHere(trigger);
  await publisher.idle();
  await publisher.close();
  const ok = run.state === 'succeeded';
  if (!ok) console.error(`Publish #${run.id} ${run.state}; ${kept}, the pages are not updated yet.`);
  return ok;
}

/** What the build hook gets: which release is live now, and why. */
type HookEvent =
  | { event: 'publish'; release: number; trigger: string; postsChanged: number }
  | { event: 'rollback'; release: number; from: number };

async function callHook(url: string, body: HookEvent, log: (line: string) => void): Promise<void> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    log(`Release #${body.release}: build hook answered ${res.status}.`);
  } catch (error) {
    // The hook is the CDN's business; our own site and API have switched already.
    log(`Release #${body.release}: build hook failed: ${(error as Error).message}`);
  }
}
