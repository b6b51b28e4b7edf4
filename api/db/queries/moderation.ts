import {
  type ModeratedComment,
  type ReportResolved,
  type ResolveAction,
  SYSTEM_ACTOR,
} from '../../contract.ts';
import type { MailSettings } from '../../lib/emails.ts';
import { RuleError } from '../../lib/errors.ts';
import type { DB } from '../database.ts';
import type { CommentRow } from '../schema.ts';
import { recordAudit } from './audit.ts';
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

export function toModerated(row: ModeratedRow): ModeratedComment {
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
  };
}

async function moderated(db: DB, commentId: number): Promise<ModeratedComment> {
  return toModerated(
    await selectModerated(db).where('comments.comment_id', '=', commentId).executeTakeFirstOrThrow(),
  );
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
    if (input.action === 'remove') {
      resolved = await removeComment(trx, row, { ...input, action: 'comment.remove' }, now);
    } else {
      const show = row.status === 'held' || (input.action === 'restore' && row.status === 'removed');
      if (show) await changeStatus(trx, row, { status: 'visible', reason: null, purgeAfter: null }, now);
      resolved = await settleReports(trx, row.comment_id, input, now);
      await recordAudit(
        trx,
        {
          actor: input.actor,
          action: input.action === 'restore' ? 'comment.restore' : 'report.dismiss',
          target: { type: 'comment', id: row.comment_id },
          reason: input.reason,
          details: { postId: row.post_id, previousStatus: row.status, reports: resolved.length, shown: show },
        },
        now,
      );
    }
    return {
      comment: await moderated(trx, row.comment_id),
      resolvedReportIds: resolved,
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

/** Comments waiting for review, oldest first. */
export async function listPending(db: DB): Promise<ModeratedComment[]> {
  const rows = await selectModerated(db)
    .where('comments.status', '=', 'pending')
    .orderBy('comments.created_at')
    .orderBy('comments.comment_id')
    .execute();
  return rows.map(toModerated);
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
    return { comment: await moderated(trx, row.comment_id), postId: row.post_id, emailsQueued };
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
