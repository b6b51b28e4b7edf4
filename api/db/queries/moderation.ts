import {
  type AuthorStanding,
  COMMENT_STATUSES,
  type CommentStatus,
  type DecisionUndone,
  type ModeratedComment,
  type ReportResolved,
  type ResolveAction,
  SYSTEM_ACTOR,
  UNDO_WINDOW_SECONDS,
} from '../../contract.ts';
import type { MailSettings } from '../../lib/emails.ts';
import { RuleError } from '../../lib/errors.ts';
import type { DB } from '../database.ts';
import type { CommentRow } from '../schema.ts';
import { parseDetails, recordAudit } from './audit.ts';
import {
  type Actor,
  changeStatus,
  deleteOwnComment,
  evidenceUntil,
  findCommentForUpdate,
  hasChildSafetyReport,
} from './comments.ts';
import { forgetEscalatedContent } from './deliveries.ts';
import { queueReplyEmails } from './notifications.ts';
import { activeSuspensionsOf } from './suspensions.ts';

// Moderators' decisions on comments: remove, restore, dismiss reports, approve or reject a comment
// waiting for review, and the one-year purge of child-safety evidence. Every decision changes the
// comment through changeStatus (so counts follow) and writes its audit entry in the same transaction.

/** A comment as moderators see it, with its post. */
export function selectModerated(db: DB) {
  return db
    .selectFrom('comments')
    .innerJoin('blog_posts', 'blog_posts.post_id', 'comments.post_id')
    .selectAll('comments')
    .select(['blog_posts.slug as post_slug', 'blog_posts.title as post_title']);
}

type ModeratedRow = CommentRow & { post_slug: string; post_title: string };

function toModerated(row: ModeratedRow, standing: AuthorStanding | null): ModeratedComment {
  return {
    commentId: row.comment_id,
    parentCommentId: row.parent_comment_id,
    postId: row.post_id,
    postSlug: row.post_slug,
    postTitle: row.post_title,
    authorUid: row.author_uid,
    authorName: row.author_name,
    content: row.content,
    status: row.status,
    statusReason: row.status_reason,
    createdAt: row.created_at,
    editedAt: row.edited_at,
    purgeAfter: row.purge_after,
    authorStanding: standing,
  };
}

/**
 * Where each author of these comments stands: a suspension in force at `now`, and how many of
 * their other comments have open reports or were removed. Three queries for the whole list, so a
 * long queue costs what a short one does.
 */
async function authorStandings(db: DB, rows: ModeratedRow[], now: Date): Promise<(AuthorStanding | null)[]> {
  const uids = [...new Set(rows.map((r) => r.author_uid).filter((uid) => uid !== null))];
  if (uids.length === 0) return rows.map(() => null);
  const suspensions = await activeSuspensionsOf(db, uids, now);
  const records = await db
    .selectFrom('comments')
    .select((eb) => [
      'comments.author_uid',
      eb.fn
        .sum<number | string>(
          eb
            .case()
            .when(
              eb.exists(
                eb
                  .selectFrom('comment_reports')
                  .select('comment_reports.report_id')
                  .whereRef('comment_reports.comment_id', '=', 'comments.comment_id')
                  .where('comment_reports.status', '=', 'open'),
              ),
            )
            .then(eb.lit(1))
            .else(eb.lit(0))
            .end(),
        )
        .as('reported'),
      eb.fn
        .sum<number | string>(
          eb.case().when('comments.status', '=', 'removed').then(eb.lit(1)).else(eb.lit(0)).end(),
        )
        .as('removed'),
    ])
    .where('comments.author_uid', 'in', uids)
    .groupBy('comments.author_uid')
    .execute();
  const byAuthor = new Map(
    records.map((r) => [r.author_uid, { reported: Number(r.reported), removed: Number(r.removed) }]),
  );
  // The comments of the list that have open reports themselves, to leave them out of "other".
  const reportedHere = new Set(
    (
      await db
        .selectFrom('comment_reports')
        .select('comment_id')
        .distinct()
        .where(
          'comment_id',
          'in',
          rows.map((r) => r.comment_id),
        )
        .where('status', '=', 'open')
        .execute()
    ).map((r) => r.comment_id),
  );
  return rows.map((row) => {
    if (row.author_uid === null) return null;
    const record = byAuthor.get(row.author_uid) ?? { reported: 0, removed: 0 };
    const suspension = suspensions.get(row.author_uid);
    return {
      suspension: suspension ? { until: suspension.until, reason: suspension.reason } : null,
      otherOpenReports: Math.max(0, record.reported - (reportedHere.has(row.comment_id) ? 1 : 0)),
      removedComments: Math.max(0, record.removed - (row.status === 'removed' ? 1 : 0)),
    };
  });
}

/** Comments as moderators see them (rows of selectModerated), with their authors' standing at `now`. */
export async function toModeratedList(db: DB, rows: ModeratedRow[], now: Date): Promise<ModeratedComment[]> {
  if (rows.length === 0) return [];
  const standings = await authorStandings(db, rows, now);
  return rows.map((row, i) => toModerated(row, standings[i]!));
}

async function moderated(db: DB, commentId: number, now: Date): Promise<ModeratedComment> {
  const row = await selectModerated(db)
    .where('comments.comment_id', '=', commentId)
    .executeTakeFirstOrThrow();
  return (await toModeratedList(db, [row], now))[0]!;
}

/** Closes every open report of a comment with a moderator's decision; returns their ids. */
async function settleReports(
  trx: DB,
  commentId: number,
  decision: { action: ResolveAction; reason: string; actor: Actor },
  now: Date,
): Promise<number[]> {
  const rows = await trx
    .updateTable('comment_reports')
    .set({
      status: 'resolved',
      resolved_at: now.toISOString(),
      resolved_by_uid: decision.actor.uid,
      resolved_by_name: decision.actor.name,
      resolution: decision.action,
      resolution_reason: decision.reason,
    })
    .where('comment_id', '=', commentId)
    .where('status', '=', 'open')
    .returning('report_id')
    .execute();
  return rows.map((r) => r.report_id).sort((a, b) => a - b);
}

/**
 * A moderator removes a comment: "removed by a moderator" in place, the reason for its author.
 * Content reported as a child safety concern is kept out of sight for a year (evidence); open
 * reports of it are resolved as removed.
 */
async function removeComment(
  trx: DB,
  row: CommentRow,
  input: { actor: Actor; reason: string; action: 'comment.remove' | 'comment.reject' },
  now: Date,
): Promise<number[]> {
  const evidence = await hasChildSafetyReport(trx, row.comment_id);
  await changeStatus(
    trx,
    row,
    {
      status: 'removed',
      reason: input.reason,
      purgeAfter: evidence ? (row.purge_after ?? evidenceUntil(now)) : row.purge_after,
    },
    now,
  );
  const resolved = await settleReports(
    trx,
    row.comment_id,
    { action: 'remove', reason: input.reason, actor: input.actor },
    now,
  );
  await recordAudit(
    trx,
    {
      actor: input.actor,
      action: input.action,
      target: { type: 'comment', id: row.comment_id },
      reason: input.reason,
      details: {
        postId: row.post_id,
        previousStatus: row.status,
        reports: resolved.length,
        evidenceKeptUntil: evidence ? (row.purge_after ?? evidenceUntil(now)) : null,
      },
    },
    now,
  );
  return resolved;
}

export interface Resolution extends ReportResolved {
  postId: number;
}

/** Until when a decision recorded at `at` may be undone. */
const undoUntil = (at: string) => new Date(Date.parse(at) + UNDO_WINDOW_SECONDS * 1000).toISOString();

/**
 * Resolves a report, and with it every open report of the same comment: `remove` takes the comment
 * down; `restore` shows a held or removed comment again; `dismiss` closes the reports as not
 * breaking the rules (a held comment is shown again).
 */
export async function resolveReport(
  db: DB,
  input: { reportId: number; action: ResolveAction; reason: string; actor: Actor },
  now: Date,
): Promise<Resolution> {
  return db.transaction().execute(async (trx) => {
    const report = () =>
      trx
        .selectFrom('comment_reports')
        .selectAll()
        .where('report_id', '=', input.reportId)
        .executeTakeFirst();
    const found = await report();
    if (!found) throw new RuleError('Report not found', 404);
    // The comment is locked before the report is judged: every change to its reports happens
    // under that lock, so a second moderator deciding at the same moment finds it resolved.
    const row = (await findCommentForUpdate(trx, found.comment_id))!;
    const current = (await report())!;
    if (current.status !== 'open') {
      throw new RuleError(
        `This report was already resolved (${current.resolution}) by ${current.resolved_by_name} at ${current.resolved_at}.`,
        409,
      );
    }
    let resolved: number[];
    let undo: Resolution['undo'] = null;
    if (input.action === 'remove') {
      resolved = await removeComment(trx, row, { ...input, action: 'comment.remove' }, now);
    } else {
      const show = row.status === 'held' || (input.action === 'restore' && row.status === 'removed');
      if (show) await changeStatus(trx, row, { status: 'visible', reason: null, purgeAfter: null }, now);
      resolved = await settleReports(trx, row.comment_id, input, now);
      const auditId = await recordAudit(
        trx,
        {
          actor: input.actor,
          action: input.action === 'restore' ? 'comment.restore' : 'report.dismiss',
          target: { type: 'comment', id: row.comment_id },
          reason: input.reason,
          // What undoDecision puts back: these reports, and the comment as it was.
          details: {
            postId: row.post_id,
            previousStatus: row.status,
            reports: resolved.length,
            shown: show,
            reportIds: resolved.join(','),
            previousStatusReason: row.status_reason,
            previousPurgeAfter: row.purge_after,
          },
        },
        now,
      );
      undo = { auditId, until: undoUntil(now.toISOString()) };
    }
    return {
      comment: await moderated(trx, row.comment_id, now),
      resolvedReportIds: resolved,
      undo,
      postId: row.post_id,
    };
  });
}

export interface Undone extends DecisionUndone {
  postId: number;
}

const UNDOABLE: readonly string[] = ['report.dismiss', 'comment.restore'];

const isStatus = (value: unknown): value is CommentStatus =>
  (COMMENT_STATUSES as readonly unknown[]).includes(value);
const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The moderator who dismissed reports or restored a comment takes it back within
 * UNDO_WINDOW_SECONDS: the reports that decision closed are open again and the comment has the
 * status, reason and purge date it had before. Refused once it was undone, or once the comment or
 * those reports have moved on (another decision, an edit), since putting them back would then
 * undo more than the decision. The comment is locked first, as resolveReport locks it.
 */
export async function undoDecision(
  db: DB,
  input: { auditId: number; actor: Actor & { uid: string } },
  now: Date,
): Promise<Undone> {
  return db.transaction().execute(async (trx) => {
    const entry = await trx
      .selectFrom('audit_log')
      .selectAll()
      .where('audit_id', '=', input.auditId)
      .executeTakeFirst();
    if (!entry || !UNDOABLE.includes(entry.action) || entry.target_type !== 'comment') {
      throw new RuleError('There is no dismissal or restoration with that id to undo.', 404);
    }
    if (entry.actor_uid !== input.actor.uid) {
      throw new RuleError('Only the moderator who made this decision can undo it.', 403);
    }
    if (now.getTime() > Date.parse(undoUntil(entry.at))) {
      throw new RuleError(
        `This decision can no longer be undone: an undo is possible for ${UNDO_WINDOW_SECONDS} seconds after it.`,
        409,
      );
    }
    const details = parseDetails(entry.details);
    const reportIds =
      typeof details.reportIds === 'string' && /^\d+(,\d+)*$/.test(details.reportIds)
        ? details.reportIds.split(',').map(Number)
        : null;
    if (!reportIds || !isStatus(details.previousStatus)) {
      throw new RuleError('This decision was recorded without what an undo needs.', 409);
    }
    const previous = {
      status: details.previousStatus,
      reason: textOrNull(details.previousStatusReason),
      purgeAfter: textOrNull(details.previousPurgeAfter),
    };
    const row = await findCommentForUpdate(trx, Number(entry.target_id));
    if (!row) throw new RuleError('The comment of this decision no longer exists.', 409);
    const undos = await trx
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'decision.undo')
      .where('target_type', '=', 'comment')
      .where('target_id', '=', entry.target_id)
      .execute();
    if (undos.some((u) => parseDetails(u.details).undoneAuditId === entry.audit_id)) {
      throw new RuleError('This decision has already been undone.', 409);
    }
    const resolution: ResolveAction = entry.action === 'comment.restore' ? 'restore' : 'dismiss';
    const reports = await trx
      .selectFrom('comment_reports')
      .selectAll()
      .where('report_id', 'in', reportIds)
      .execute();
    const reportsAsLeft =
      reports.length === reportIds.length &&
      reports.every(
        (r) =>
          r.comment_id === row.comment_id &&
          r.status === 'resolved' &&
          r.resolution === resolution &&
          r.resolved_at === entry.at &&
          r.resolved_by_uid === entry.actor_uid,
      );
    const shown = details.shown === true;
    const commentAsLeft =
      row.status === (shown ? 'visible' : previous.status) &&
      (row.edited_at === null || row.edited_at <= entry.at);
    if (!reportsAsLeft || !commentAsLeft) {
      throw new RuleError(
        'This comment or its reports have changed since the decision, so it can no longer be undone.',
        409,
      );
    }
    await trx
      .updateTable('comment_reports')
      .set({
        status: 'open',
        resolved_at: null,
        resolved_by_uid: null,
        resolved_by_name: null,
        resolution: null,
        resolution_reason: null,
      })
      .where('report_id', 'in', reportIds)
      .execute();
    // A decision that did not show the comment left it as it was: nothing to put back.
    if (shown) await changeStatus(trx, row, previous, now);
    await recordAudit(
      trx,
      {
        actor: input.actor,
        action: 'decision.undo',
        target: { type: 'comment', id: row.comment_id },
        reason: null,
        details: { undoneAuditId: entry.audit_id },
      },
      now,
    );
    return {
      comment: await moderated(trx, row.comment_id, now),
      reopenedReportIds: [...reportIds].sort((a, b) => a - b),
      postId: row.post_id,
    };
  });
}

/**
 * DELETE on a comment: its author deletes it (any time); a moderator deleting someone else's
 * comment removes it, with a reason its author will see.
 */
export async function deleteComment(
  db: DB,
  input: { commentId: number; actor: Actor & { uid: string; moderator: boolean }; reason: string | null },
  now: Date,
): Promise<{ postId: number }> {
  return db.transaction().execute(async (trx) => {
    const row = await findCommentForUpdate(trx, input.commentId);
    if (!row || row.status === 'deleted') throw new RuleError('Comment not found', 404);
    if (row.author_uid === input.actor.uid) {
      await deleteOwnComment(trx, row, input.actor, now);
    } else if (!input.actor.moderator) {
      throw new RuleError('You can delete only your own comments.', 403);
    } else if (!input.reason) {
      throw new RuleError("reason: say why you are removing another parent's comment", 400);
    } else if (row.status === 'removed') {
      throw new RuleError('This comment has already been removed.', 409);
    } else {
      await removeComment(
        trx,
        row,
        { actor: input.actor, reason: input.reason, action: 'comment.remove' },
        now,
      );
    }
    return { postId: row.post_id };
  });
}

/** Comments waiting for review, oldest first, with their authors' standing at `now`. */
export async function listPending(db: DB, now: Date): Promise<ModeratedComment[]> {
  const rows = await selectModerated(db)
    .where('comments.status', '=', 'pending')
    .orderBy('comments.created_at')
    .orderBy('comments.comment_id')
    .execute();
  return toModeratedList(db, rows, now);
}

/** Approves (shows and counts) or rejects (removes, with the reason for its author) a pending comment. */
export async function reviewComment(
  db: DB,
  input: { commentId: number; action: 'approve' | 'reject'; reason: string | null; actor: Actor },
  mail: MailSettings,
  now: Date,
): Promise<{ comment: ModeratedComment; postId: number; emailsQueued: number }> {
  return db.transaction().execute(async (trx) => {
    const row = await findCommentForUpdate(trx, input.commentId);
    if (!row) throw new RuleError('Comment not found', 404);
    if (row.status !== 'pending') {
      throw new RuleError(`This comment is not waiting for review (it is ${row.status}).`, 409);
    }
    let emailsQueued = 0;
    if (input.action === 'approve') {
      const shown = await changeStatus(trx, row, { status: 'visible', reason: null }, now);
      // Shown to everyone for the first time: those who follow the thread hear of a reply now.
      if (row.published_at === null) emailsQueued = await queueReplyEmails(trx, shown, mail, now);
      await recordAudit(
        trx,
        {
          actor: input.actor,
          action: 'comment.approve',
          target: { type: 'comment', id: row.comment_id },
          reason: input.reason,
          details: { postId: row.post_id, waitedFor: row.status_reason },
        },
        now,
      );
    } else {
      if (!input.reason) throw new RuleError('reason: say why the comment is rejected', 400);
      await removeComment(
        trx,
        row,
        { actor: input.actor, reason: input.reason, action: 'comment.reject' },
        now,
      );
    }
    return { comment: await moderated(trx, row.comment_id, now), postId: row.post_id, emailsQueued };
  });
}

/**
 * Blanks child-safety evidence whose year is over, with an audit entry each; returns how many.
 * The server runs it on a schedule.
 */
export async function purgeExpiredEvidence(db: DB, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('comments')
      .select(['comment_id', 'post_id', 'purge_after'])
      .where('purge_after', 'is not', null)
      .where('purge_after', '<=', now.toISOString())
      .execute();
    for (const row of rows) {
      await trx
        .updateTable('comments')
        .set({ content: '', purge_after: null })
        .where('comment_id', '=', row.comment_id)
        .execute();
      await forgetEscalatedContent(trx, row.comment_id);
      await recordAudit(
        trx,
        {
          actor: { uid: null, name: SYSTEM_ACTOR },
          action: 'comment.purge',
          target: { type: 'comment', id: row.comment_id },
          reason: 'The year for which child-safety evidence is kept is over.',
          details: { postId: row.post_id, keptUntil: row.purge_after },
        },
        now,
      );
    }
    return rows.length;
  });
}
