import { sql } from 'kysely';
import type { FaceBox, ScreeningReason } from '../../contract/screening.ts';
import type { DB } from '../database.ts';
import { refreshScreening } from './screening.ts';

// The photo analysis queue (docs/product.md, "Listing screening"): a queued listing_photos row is a
// job. An instance leases a job with one conditional UPDATE, so of several instances exactly one
// takes it; a lease that runs out (the instance stopped, or its worker hung) lets another take it.
// A job that has failed its tries is held for a moderator with the reason, never dropped.

/** How long a job is leased: longer than a fetch (10 s) and an analysis (30 s) together. */
export const PHOTO_LEASE_MS = 90_000;
/** Tries before a photo is given up on and its listing held with the reason. */
export const PHOTO_TRIES = 3;

export interface PhotoJob {
  itemId: string;
  position: number;
  sourceUrl: string;
  /** Tries so far, this one included. */
  attempts: number;
}

/** Leases up to `limit` queued photos for `owner`, the longest waiting first. */
export async function claimPhotoJobs(db: DB, owner: string, now: Date, limit: number): Promise<PhotoJob[]> {
  const stamp = now.toISOString();
  const free = (q: ReturnType<typeof queued>) =>
    q.where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', stamp)]));
  const queued = () => db.selectFrom('listing_photos').where('state', '=', 'queued');
  const candidates = await free(queued())
    .select(['item_id', 'position', 'source_url', 'attempts'])
    .orderBy('queued_at')
    .orderBy('item_id')
    .orderBy('position')
    .limit(limit * 4)
    .execute();
  const jobs: PhotoJob[] = [];
  for (const row of candidates) {
    if (jobs.length >= limit) break;
    const taken = await db
      .updateTable('listing_photos')
      .set({
        lease_owner: owner,
        lease_until: new Date(now.getTime() + PHOTO_LEASE_MS).toISOString(),
        attempts: sql<number>`attempts + 1`,
      })
      .where('item_id', '=', row.item_id)
      .where('position', '=', row.position)
      .where('source_url', '=', row.source_url)
      .where('state', '=', 'queued')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', stamp)]))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) {
      jobs.push({
        itemId: row.item_id,
        position: row.position,
        sourceUrl: row.source_url,
        attempts: row.attempts + 1,
      });
    }
  }
  return jobs;
}

export type PhotoResult =
  | {
      state: 'analysed';
      imageId: string;
      blurredImageId: string | null;
      faces: FaceBox[];
      scores: unknown;
      outcome: 'pass' | 'flag';
      reasons: ScreeningReason[];
    }
  | { state: 'failed'; reasons: ScreeningReason[] };

/**
 * Records a job's result and screens its listing again, in one transaction, only while `owner`
 * still holds the job and the listing still has that photo (a listing changed meanwhile queued new
 * jobs: this result is about a photo it no longer has). Answers whether it was recorded and how
 * many listings parents now see or no longer see.
 */
export async function finishPhotoJob(
  db: DB,
  owner: string,
  job: PhotoJob,
  result: PhotoResult,
  now: Date,
): Promise<{ recorded: boolean; shownChanged: number }> {
  return db.transaction().execute(async (trx) => {
    const values =
      result.state === 'analysed'
        ? {
            state: 'analysed' as const,
            image_id: result.imageId,
            blurred_image_id: result.blurredImageId,
            faces: JSON.stringify(result.faces),
            scores: JSON.stringify(result.scores),
            outcome: result.outcome,
            reasons: JSON.stringify(result.reasons),
          }
        : { state: 'failed' as const, outcome: 'flag' as const, reasons: JSON.stringify(result.reasons) };
    const updated = await trx
      .updateTable('listing_photos')
      .set({ ...values, lease_owner: null, lease_until: null, analysed_at: now.toISOString() })
      .where('item_id', '=', job.itemId)
      .where('position', '=', job.position)
      .where('source_url', '=', job.sourceUrl)
      .where('state', '=', 'queued')
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return { recorded: false, shownChanged: 0 };
    const { shownChanged } = await refreshScreening(trx, [job.itemId], now);
    return { recorded: true, shownChanged };
  });
}

/** Gives a job back for a later try (its lease ends now), e.g. when its instance is stopping. */
export async function releasePhotoJob(db: DB, owner: string, job: PhotoJob): Promise<void> {
  await db
    .updateTable('listing_photos')
    .set({ lease_owner: null, lease_until: null })
    .where('item_id', '=', job.itemId)
    .where('position', '=', job.position)
    .where('lease_owner', '=', owner)
    .where('state', '=', 'queued')
    .execute();
}

/** How many photos wait, for the console and the start-up log. */
export async function countQueuedPhotos(db: DB): Promise<number> {
  const row = await db
    .selectFrom('listing_photos')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'queued')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
