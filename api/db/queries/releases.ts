import { sql } from 'kysely';
import { z } from 'zod';
import {
  type AuditEntry,
  PUBLISH_PHASES,
  type PublishProgress,
  type PublishRun,
  type PublishStatus,
  RELEASES_KEPT,
  type RolledBack,
} from '../../contract.ts';
import { RuleError } from '../../lib/errors.ts';
import type { DB } from '../database.ts';
import type { ReleaseRow } from '../schema.ts';
import { recordAudit } from './audit.ts';

// Releases (docs/decisions/010, docs/product.md "Publishing"). A publish run is a row here from
// the moment it is requested; once it has synced content/ it copies every published post into
// release_posts (its snapshot), its site is built into its folder, and one transaction makes it
// the live release in site_state. The API answers from the live release's snapshot.

/** The release an answer comes from: its snapshot, the time it shows posts up to, its build folder. */
export interface ServedRelease {
  id: number;
  contentAsOf: string;
  folder: string;
}

const RECENT_RUNS = 20;
/** Builds that exist: the live one, earlier ones to go back to, ones an admin went back from. */
const BUILT = ['succeeded', 'rolled_back'] as const;

const progressSchema = z.object({
  phase: z.enum(PUBLISH_PHASES),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().nullable(),
  incremental: z.boolean().nullable(),
});

/** A run's progress while it runs; a row written by another version of the code shows none. */
function progressOf(row: ReleaseRow): PublishProgress | null {
  if ((row.state !== 'syncing' && row.state !== 'building') || row.progress === null) return null;
  try {
    const parsed = progressSchema.safeParse(JSON.parse(row.progress));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function toRun(row: ReleaseRow, liveId: number | null): PublishRun {
  return {
    id: row.release_id,
    trigger: row.trigger,
    state: row.state,
    live: row.release_id === liveId,
    requestedAt: row.requested_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    durationMs:
      row.started_at && row.finished_at ? Date.parse(row.finished_at) - Date.parse(row.started_at) : null,
    postsChanged: row.posts_changed,
    postCount: row.post_count,
    contentAsOf: row.content_as_of,
    error: row.error,
    progress: progressOf(row),
  };
}

function toServed(row: { release_id: number; content_as_of: string | null; folder: string | null }) {
  if (row.content_as_of === null || row.folder === null) return null;
  return { id: row.release_id, contentAsOf: row.content_as_of, folder: row.folder };
}

async function liveReleaseId(db: DB): Promise<number | null> {
  const row = await db
    .selectFrom('site_state')
    .select('live_release_id')
    .where('state_id', '=', 1)
    .executeTakeFirst();
  return row?.live_release_id ?? null;
}

/** The release readers get now; null before the first publish. */
export async function liveRelease(db: DB): Promise<ServedRelease | null> {
  const row = await db
    .selectFrom('site_state')
    .innerJoin('releases', 'releases.release_id', 'site_state.live_release_id')
    .select(['releases.release_id', 'releases.content_as_of', 'releases.folder'])
    .where('site_state.state_id', '=', 1)
    .executeTakeFirst();
  return row ? toServed(row) : null;
}

/** Any release whose snapshot has been taken (a build renders its candidate this way). */
export async function findServedRelease(db: DB, id: number): Promise<ServedRelease | null> {
  const row = await db
    .selectFrom('releases')
    .select(['release_id', 'content_as_of', 'folder'])
    .where('release_id', '=', id)
    .executeTakeFirst();
  return row ? toServed(row) : null;
}

/** The newest release an admin can go back to from `liveId`. */
async function previousRelease(db: DB, liveId: number): Promise<ReleaseRow | undefined> {
  return db
    .selectFrom('releases')
    .selectAll()
    .where('state', '=', 'succeeded')
    .where('release_id', '<', liveId)
    .orderBy('release_id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Queues a run, or joins the one already queued (one at a time: the unique queued_slot). A run
 * picked up between the failed insert and the look-up is no longer queued: then it tries again.
 */
export async function enqueueRelease(db: DB, trigger: string, now: Date): Promise<PublishRun> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const row =
      (await db
        .insertInto('releases')
        .values({ trigger, state: 'queued', queued_slot: 1, requested_at: now.toISOString() })
        .onConflict((oc) => oc.column('queued_slot').doNothing())
        .returningAll()
        .executeTakeFirst()) ??
      (await db.selectFrom('releases').selectAll().where('queued_slot', '=', 1).executeTakeFirst());
    if (row) return toRun(row, null);
  }
  throw new Error('Could not queue a publish run: the queue kept changing');
}

/** Whether a run waits in the queue. */
export async function hasQueuedRelease(db: DB): Promise<boolean> {
  const row = await db
    .selectFrom('releases')
    .select('release_id')
    .where('queued_slot', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes the queued run (call it holding the publish lock); undefined when none waits. */
export async function claimQueuedRelease(
  db: DB,
  builder: string,
  now: Date,
): Promise<ReleaseRow | undefined> {
  return db
    .updateTable('releases')
    .set({ state: 'syncing', queued_slot: null, started_at: now.toISOString(), builder })
    .where('queued_slot', '=', 1)
    .returningAll()
    .executeTakeFirst();
}

/** Drops a release's snapshot (a failed or retired release keeps only its row). */
async function dropSnapshots(db: DB, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('release_posts').where('release_id', 'in', ids).execute();
  await db.deleteFrom('release_categories').where('release_id', 'in', ids).execute();
}

/**
 * Runs still marked in progress when the caller has just taken the publish lock belong to an
 * instance whose lease ran out (it stopped or hung): they failed. Returns their folders.
 */
export async function abandonReleases(db: DB, now: Date): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('releases')
      .set({
        state: 'failed',
        finished_at: now.toISOString(),
        error: 'Abandoned: the instance running it stopped before it finished.',
      })
      .where('state', 'in', ['syncing', 'building'])
      .returning(['release_id', 'folder'])
      .execute();
    await dropSnapshots(
      trx,
      rows.map((r) => r.release_id),
    );
    return rows.flatMap((r) => (r.folder ? [r.folder] : []));
  });
}

/** Posts visible in a release, optionally only those not visible in `other` (by post and source). */
async function countVisible(
  db: DB,
  release: ServedRelease,
  other: ServedRelease | null,
  sameSource: boolean,
) {
  const row = await db
    .selectFrom('release_posts as n')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('n.release_id', '=', release.id)
    .where('n.published_at', '<=', release.contentAsOf)
    .$if(other !== null, (q) =>
      q.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('release_posts as o')
              .select('o.post_id')
              .whereRef('o.post_id', '=', 'n.post_id')
              .where('o.release_id', '=', other!.id)
              .where('o.published_at', '<=', other!.contentAsOf)
              .$if(sameSource, (s) => s.whereRef('o.source_hash', '=', 'n.source_hash')),
          ),
        ),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A post's published fields: what a release keeps of it (blog_posts and release_posts share them). */
const SNAPSHOT_COLUMNS = [
  'post_id',
  'slug',
  'title',
  'excerpt',
  'content',
  'featured_image_url',
  'author_name',
  'kind',
  'is_featured',
  'published_at',
  'reading_time_minutes',
  'source_hash',
  'featured_image_alt',
] as const;

const CATEGORY_COLUMNS = ['category_id', 'slug', 'category_name', 'color_hex'] as const;

/**
 * Copies every published post (and its categories) and every blog category into the
 * release's snapshot, as of `now`, and marks it building into its folder (named by its id). Posts
 * scheduled after `now` are copied too but stay hidden until a later release's time has passed
 * theirs. Readers get only the live release's copies, so nothing synced shows before it is live.
 */
export async function snapshotRelease(db: DB, id: number, now: Date): Promise<ServedRelease> {
  const release: ServedRelease = { id, contentAsOf: now.toISOString(), folder: String(id) };
  return db.transaction().execute(async (trx) => {
    const published = (eb: DB) =>
      eb.selectFrom('blog_posts').where('is_published', '=', 1).where('published_at', 'is not', null);
    await trx
      .insertInto('release_posts')
      .columns(['release_id', ...SNAPSHOT_COLUMNS])
      .expression(
        published(trx).select([
          // The id inline: a bound parameter in a SELECT list has no type for PostgreSQL to infer.
          sql.lit(id).as('release_id'),
          ...SNAPSHOT_COLUMNS,
        ]),
      )
      .execute();
    await trx
      .insertInto('release_post_categories')
      .columns(['release_id', 'post_id', 'category_id'])
      .expression(
        trx
          .selectFrom('post_categories')
          .select([sql.lit(id).as('release_id'), 'post_id', 'category_id'])
          .where('post_id', 'in', published(trx).select('post_id')),
      )
      .execute();
    await trx
      .insertInto('release_categories')
      .columns(['release_id', ...CATEGORY_COLUMNS])
      .expression(
        trx.selectFrom('blog_categories').select([sql.lit(id).as('release_id'), ...CATEGORY_COLUMNS]),
      )
      .execute();
    const live = await liveRelease(trx);
    const postCount = await countVisible(trx, release, null, false);
    const postsChanged = live
      ? (await countVisible(trx, release, live, true)) + (await countVisible(trx, live, release, false))
      : postCount;
    await trx
      .updateTable('releases')
      .set({
        state: 'building',
        content_as_of: release.contentAsOf,
        folder: release.folder,
        post_count: postCount,
        posts_changed: postsChanged,
      })
      .where('release_id', '=', id)
      .execute();
    return release;
  });
}

/**
 * Makes a built release the live one: pages and API switch together. Call it in a transaction
 * (the publisher's also checks its lock). Writing site_state first makes a concurrent switch or
 * rollback wait for this one.
 */
export async function switchLive(trx: DB, id: number, now: Date): Promise<void> {
  const stamp = now.toISOString();
  await trx
    .updateTable('site_state')
    .set({ live_release_id: id, changed_at: stamp })
    .where('state_id', '=', 1)
    .execute();
  await trx
    .updateTable('releases')
    .set({ state: 'succeeded', finished_at: stamp })
    .where('release_id', '=', id)
    .execute();
}

/** Records what a running run is doing, for /admin and the studio on every instance. */
export async function recordProgress(db: DB, id: number, progress: PublishProgress): Promise<void> {
  await db
    .updateTable('releases')
    .set({ progress: JSON.stringify(progress) })
    .where('release_id', '=', id)
    .where('state', 'in', ['syncing', 'building'])
    .execute();
}

/** Records why a run failed and drops its snapshot; readers never saw it. */
export async function failRelease(db: DB, id: number, error: string, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('releases')
      .set({
        state: 'failed',
        queued_slot: null,
        finished_at: now.toISOString(),
        error: error.slice(0, 2000),
      })
      .where('release_id', '=', id)
      .execute();
    await dropSnapshots(trx, [id]);
  });
}

/**
 * Retires builds beyond the newest `keep` (never the live one or the one before it) and returns
 * the folders still in use; the caller removes the others from disk.
 */
export async function retireOldReleases(db: DB, now: Date, keep = RELEASES_KEPT): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    // First a write: a rollback running meanwhile waits, so the one it goes to is never retired.
    await trx
      .updateTable('site_state')
      .set({ changed_at: now.toISOString() })
      .where('state_id', '=', 1)
      .execute();
    const liveId = await liveReleaseId(trx);
    const previous = liveId === null ? undefined : await previousRelease(trx, liveId);
    const builds = await trx
      .selectFrom('releases')
      .select(['release_id', 'folder'])
      .where('state', 'in', BUILT)
      .orderBy('release_id', 'desc')
      .execute();
    const kept = new Set(builds.slice(0, keep).map((b) => b.release_id));
    if (liveId !== null) kept.add(liveId);
    if (previous) kept.add(previous.release_id);
    const retired = builds.filter((b) => !kept.has(b.release_id)).map((b) => b.release_id);
    if (retired.length > 0) {
      await trx
        .updateTable('releases')
        .set({ state: 'retired' })
        .where('release_id', 'in', retired)
        .execute();
      await dropSnapshots(trx, retired);
    }
    return builds.flatMap((b) => (kept.has(b.release_id) && b.folder ? [b.folder] : []));
  });
}

/**
 * Goes back to the release before the live one, in one transaction: pages and API together. The
 * release left is marked rolled back (never a target again) and the audit log says who and why.
 */
export async function rollbackRelease(
  db: DB,
  actor: { uid: string | null; name: string },
  reason: string | null,
  now: Date,
): Promise<RolledBack> {
  return db.transaction().execute(async (trx) => {
    const stamp = now.toISOString();
    await trx.updateTable('site_state').set({ changed_at: stamp }).where('state_id', '=', 1).execute();
    const liveId = await liveReleaseId(trx);
    if (liveId === null) throw new RuleError('Nothing has been published yet.', 409);
    const previous = await previousRelease(trx, liveId);
    if (!previous) throw new RuleError('There is no earlier release to go back to.', 409);
    await trx
      .updateTable('site_state')
      .set({ live_release_id: previous.release_id })
      .where('state_id', '=', 1)
      .execute();
    const from = await trx
      .updateTable('releases')
      .set({ state: 'rolled_back' })
      .where('release_id', '=', liveId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const details: AuditEntry['details'] = { from: liveId, to: previous.release_id };
    await recordAudit(
      trx,
      { actor, action: 'release.rollback', target: { type: 'release', id: liveId }, reason, details },
      now,
    );
    return { from: toRun(from, previous.release_id), to: toRun(previous, previous.release_id) };
  });
}

/** The runs for the publishing page: in progress (on any instance), recent, live and previous. */
export async function publishStatus(db: DB): Promise<PublishStatus> {
  const liveId = await liveReleaseId(db);
  const recent = await db
    .selectFrom('releases')
    .selectAll()
    .orderBy('release_id', 'desc')
    .limit(RECENT_RUNS)
    .execute();
  const current =
    (await db
      .selectFrom('releases')
      .selectAll()
      .where('state', 'in', ['syncing', 'building'])
      .orderBy('release_id', 'desc')
      .executeTakeFirst()) ??
    (await db.selectFrom('releases').selectAll().where('queued_slot', '=', 1).executeTakeFirst());
  const live =
    liveId === null
      ? undefined
      : await db.selectFrom('releases').selectAll().where('release_id', '=', liveId).executeTakeFirst();
  const previous = liveId === null ? undefined : await previousRelease(db, liveId);
  const wire = (row: ReleaseRow | undefined) => (row ? toRun(row, liveId) : null);
  return {
    current: wire(current),
    recent: recent.map((row) => toRun(row, liveId)),
    live: wire(live),
    previous: wire(previous),
  };
}

/** One run, as the publishing page shows it. */
export async function findRun(db: DB, id: number): Promise<PublishRun | null> {
  const row = await db.selectFrom('releases').selectAll().where('release_id', '=', id).executeTakeFirst();
  return row ? toRun(row, await liveReleaseId(db)) : null;
}

/**
 * A post of the live release whose time has come since its release was taken, and that no later
 * release has already tried to publish (one that failed or was rolled back is not retried by the
 * schedule: an editor publishes again). Null when none is due.
 */
export async function dueScheduledPost(db: DB, now: Date): Promise<string | null> {
  const live = await liveRelease(db);
  if (!live) return null;
  const { covered } = await db
    .selectFrom('releases')
    .select((eb) => eb.fn.max('content_as_of').as('covered'))
    .where('release_id', '>=', live.id)
    .executeTakeFirstOrThrow();
  const row = await db
    .selectFrom('release_posts')
    .select('slug')
    .where('release_id', '=', live.id)
    .where('published_at', '>', covered ?? live.contentAsOf)
    .where('published_at', '<=', now.toISOString())
    .orderBy('published_at')
    .limit(1)
    .executeTakeFirst();
  return row?.slug ?? null;
}
