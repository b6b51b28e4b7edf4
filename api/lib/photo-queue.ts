// The photo queue's worker (docs/product.md, "Listing screening"): takes queued photos from the
// database (api/db/queries/listing-photos.ts), fetches each from the marketplace's hosts only,
// keeps a copy without metadata, analyses it in worker threads (api/screening/photos/) and records
// what it found, which screens the listing again. Nothing of this runs on a request: the intake
// answers 202 at once and a listing with photos waits, pending, until its last photo is done.
import { randomUUID } from 'node:crypto';
import type { ScreeningReason } from '../contract/screening.ts';
import type { DB } from '../db/database.ts';
import {
  claimPhotoJobs,
  finishPhotoJob,
  PHOTO_TRIES,
  type PhotoJob,
  type PhotoResult,
  releasePhotoJob,
} from '../db/queries/listing-photos.ts';
import { storeImage } from '../db/queries/images.ts';
import { fetchPhoto, type FetchPhotoOptions } from '../screening/photos/fetch.ts';
import { photoFindings } from '../screening/photos/outcome.ts';
import { type PhotoAnalyser, PhotoAnalysisFailed } from '../screening/photos/pool.ts';
import { blurFaces, preparePhoto } from '../screening/photos/prepare.ts';
import { processImage } from './images.ts';

export interface PhotoQueueOptions {
  db: DB;
  analyser: PhotoAnalyser;
  /** LISTING_PHOTO_HOSTS: the only hosts photos are fetched from. */
  allowedHosts: string[];
  /** The fetch's own limits, when not the defaults (api/screening/photos/fetch.ts). */
  fetchLimits?: Pick<FetchPhotoOptions, 'maxBytes' | 'timeoutMs' | 'maxRedirects'>;
  /** Photos worked on at once (one per analysis worker). */
  concurrency?: number;
  /** How often the queue looks for work without a poke. */
  intervalMs?: number;
  now?: () => Date;
  /** Told when parents now see, or no longer see, some listing: the pages need a publish. */
  onShownChanged?: (count: number) => void;
}

export interface PhotoQueue {
  /** Looks for work now (the intake pokes it). */
  poke: () => void;
  start: () => void;
  /** Finishes the photos in hand, gives back the ones not started, and stops. */
  stop: () => Promise<void>;
  /** Resolves when no queued photo is left that this queue could take (tests and benchmarks). */
  idle: () => Promise<void>;
}

/** Who keeps the photo (images.created_by_uid): no one signed in, the marketplace's intake. */
const INTAKE = 'listing-intake';

const failed = (rule: string, text: string): PhotoResult => ({
  state: 'failed',
  reasons: [{ rule, text, source: null } satisfies ScreeningReason],
});

export function createPhotoQueue(options: PhotoQueueOptions): PhotoQueue {
  const { db, analyser, allowedHosts } = options;
  const now = options.now ?? (() => new Date());
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const owner = `photos-${randomUUID()}`;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const waiting: (() => void)[] = [];

  async function analyse(job: PhotoJob): Promise<PhotoResult | 'retry'> {
    const fetched = await fetchPhoto(job.sourceUrl, { ...options.fetchLimits, allowedHosts });
    if (!fetched.ok) return failed('photo.fetch', `The photo could not be fetched: ${fetched.reason}`);
    const prepared = await preparePhoto(fetched.bytes);
    if (!prepared.ok) return failed('photo.file', `The photo could not be read: ${prepared.reason}`);
    let analysis;
    try {
      analysis = await analyser.analyse(prepared.jpeg);
    } catch (error) {
      if (!(error instanceof PhotoAnalysisFailed)) throw error;
      if (job.attempts < PHOTO_TRIES) return 'retry';
      return failed(
        'photo.analysis',
        `The photo could not be analysed (${error.message}); a moderator will look at it.`,
      );
    }
    const findings = photoFindings(analysis);
    const at = now();
    const kept = await processImage(prepared.jpeg);
    await storeImage(db, kept, 'Listing photo', INTAKE, at);
    let blurredImageId: string | null = null;
    if (analysis.faces.length > 0) {
      // Made now, so a moderator's "publish with faces blurred" only switches to it.
      const blurred = await processImage(await blurFaces(prepared.jpeg, analysis.faces));
      await storeImage(db, blurred, 'Listing photo, faces blurred', INTAKE, at);
      blurredImageId = blurred.id;
    }
    return {
      state: 'analysed',
      imageId: kept.id,
      blurredImageId,
      faces: analysis.faces,
      scores: analysis.nsfw,
      outcome: findings.outcome,
      reasons: findings.reasons,
    };
  }

  async function work(job: PhotoJob): Promise<void> {
    let result: PhotoResult | 'retry';
    try {
      result = await analyse(job);
    } catch (error) {
      // Our own failure (the database, an encoder): the lease runs out and the job is tried again.
      console.error(`Photo ${job.position + 1} of listing ${job.itemId} could not be checked:`, error);
      if (job.attempts >= PHOTO_TRIES) {
        result = failed('photo.analysis', 'The photo could not be checked; a moderator will look at it.');
      } else {
        return;
      }
    }
    if (result === 'retry') {
      await releasePhotoJob(db, owner, job);
      return;
    }
    const { shownChanged } = await finishPhotoJob(db, owner, job, result, now());
    if (shownChanged > 0) options.onShownChanged?.(shownChanged);
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      for (;;) {
        if (stopped) return;
        const jobs = await claimPhotoJobs(db, owner, now(), concurrency);
        if (jobs.length === 0) break;
        await Promise.all(jobs.map((job) => work(job).catch((error: unknown) => console.error(error))));
      }
    } while (again && !stopped);
    for (const resolve of waiting.splice(0)) resolve();
  }

  function poke(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error: unknown) =>
        console.error('The photo queue stopped on an error; it will try again:', error),
      )
      .finally(() => {
        running = null;
      });
  }

  return {
    poke,
    start() {
      poke();
      timer = setInterval(poke, options.intervalMs ?? 2_000);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
      await analyser.close();
      for (const resolve of waiting.splice(0)) resolve();
    },
    idle() {
      const done = new Promise<void>((resolve) => waiting.push(resolve));
      poke();
      if (!running) for (const resolve of waiting.splice(0)) resolve();
      return done;
    },
  };
}
