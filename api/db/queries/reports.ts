import {
  ERASED_ACCOUNT_NAME,
  HOLD_AFTER_REPORTERS,
  REPORT_CATEGORY_LABELS,
  type ReportCategory,
  type ReportFiled,
  type ReportGroup,
  type ReportStatus,
  reviewHours,
  SYSTEM_ACTOR,
} from '../../contract.ts';
import { RuleError } from '../../lib/errors.ts';
import type { DB } from '../database.ts';
import type { CommentRow, ReportRow } from '../schema.ts';
import { recordAudit } from './audit.ts';
import { changeStatus, findCommentForUpdate, postCommentCount, toWire } from './comments.ts';
import { enqueueDelivery, ESCALATION } from './deliveries.ts';
import { selectModerated, toModeratedList } from './moderation.ts';

/** The delivery kind and purpose of a child-safety escalation (api/lib/deliveries.ts sends it). */

export interface EscalationConfig {
  /** SAFETY_ESCALATION_URL; null: escalations wait in the queue and show in the console. */
  url: string | null;
  /** The public site's address, for the link to the console. */
  siteUrl: string;
}

export interface FiledReport extends ReportFiled {
  /** True when this request created the report (201); false for the parent's existing one (200). */
  created: boolean;
  /** True when a child-safety escalation was queued. */
  escalated: boolean;
  postId: number;
}

/** What the escalation webhook receives: the report, the comment and a link to the console. */
function escalationPayload(
  report: ReportRow,
  comment: CommentRow,
  post: { slug: string; title: string },
  config: EscalationConfig,
) {
  const site = config.siteUrl.replace(/\/$/, '');
  const consoleUrl = `${site}/moderation#report-${report.report_id}`;
  return {
    type: 'nestling.child_safety_report',
    text: `Child safety concern reported on a comment in "${post.title}". Review it now: ${consoleUrl}`,
    consoleUrl,
    report: {
      reportId: report.report_id,
      category: report.category,
      categoryLabel: REPORT_CATEGORY_LABELS[report.category],
      note: report.note,
      createdAt: report.created_at,
      dueAt: report.due_at,
    },
    comment: {
      commentId: comment.comment_id,
      content: comment.content,
      authorName: comment.author_name,
      authorUid: comment.author_uid,
      createdAt: comment.created_at,
      postTitle: post.title,
      postUrl: `${site}/blog/${post.slug}`,
    },
  };
}

/**
 * A parent reports a comment (docs/product.md, "Reports"). One report per parent per comment: a
 * repeat answers the first. A child-safety report, or open reports from HOLD_AFTER_REPORTERS
 * parents, hide the comment at once; a child-safety report is queued for escalation in the same
 * transaction. A comment already held takes further reports (counted for the moderators).
 */
export async function fileReport(
  db: DB,
  input: { commentId: number; reporterUid: string; category: ReportCategory; note: string | null },
  escalation: EscalationConfig,
  now: Date,
): Promise<FiledReport> {
  return db.transaction().execute(async (trx) => {
    // Locked: concurrent reports of one comment count each other's reporters exactly once.
    const comment = await findCommentForUpdate(trx, input.commentId);
    if (!comment) throw new RuleError('Comment not found', 404);
    const viewer = { uid: input.reporterUid, moderator: false };
    const answer = async (report: ReportRow, row: CommentRow, created: boolean, escalated: boolean) => ({
      reportId: report.report_id,
      status: report.status,
      comment: toWire(row, viewer, now),
      commentCount: await postCommentCount(trx, row.post_id),
      created,
      escalated,
      postId: row.post_id,
    });
    const mine = () =>
      trx
        .selectFrom('comment_reports')
        .selectAll()
        .where('comment_id', '=', input.commentId)
        .where('reporter_uid', '=', input.reporterUid)
        .executeTakeFirst();
    const existing = await mine();
    if (existing) return answer(existing, comment, false, false);
    if (comment.author_uid === input.reporterUid) {
      throw new RuleError('You cannot report your own comment; you can edit or delete it instead.', 400);
    }
    // A comment already held for review still takes reports, so moderators learn how many
    // parents were worried (docs/product.md, "Reports"); a decided one takes none.
    if (comment.status !== 'visible' && comment.status !== 'held') {
      throw new RuleError('This comment is already hidden from readers.', 409);
    }
    const stamp = now.toISOString();
    const inserted = await trx
      .insertInto('comment_reports')
      .values({
        comment_id: input.commentId,
        reporter_uid: input.reporterUid,
        category: input.category,
        note: input.note,
        created_at: stamp,
        due_at: new Date(now.getTime() + reviewHours(input.category) * 3_600_000).toISOString(),
        resolved_at: null,
        resolved_by_uid: null,
        resolved_by_name: null,
        resolution: null,
        resolution_reason: null,
      })
      .onConflict((oc) => oc.columns(['comment_id', 'reporter_uid']).doNothing())
      .returningAll()
      .executeTakeFirst();
    // A concurrent request by the same parent got there first: answer with that one.
    if (!inserted) return answer((await mine())!, comment, false, false);

    const { reporters } = await trx
      .selectFrom('comment_reports')
      .select((eb) => eb.fn.countAll<number>().as('reporters'))
      .where('comment_id', '=', input.commentId)
      .where('status', '=', 'open')
      .executeTakeFirstOrThrow();
    const childSafety = input.category === 'child_safety';
    let row = comment;
    if (comment.status === 'visible' && (childSafety || Number(reporters) >= HOLD_AFTER_REPORTERS)) {
      const reason = childSafety
        ? 'Reported as a child safety concern'
        : `Reported by ${Number(reporters)} parents`;
      row = await changeStatus(trx, comment, { status: 'held', reason }, now);
      await recordAudit(
        trx,
        {
          actor: { uid: null, name: SYSTEM_ACTOR },
          action: 'comment.hold',
          target: { type: 'comment', id: comment.comment_id },
          reason,
          details: { postId: comment.post_id, reportId: inserted.report_id, reporters: Number(reporters) },
        },
        now,
      );
    }
    if (childSafety) {
      const post = await trx
        .selectFrom('blog_posts')
        .select(['slug', 'title'])
        .where('post_id', '=', comment.post_id)
        .executeTakeFirstOrThrow();
      await enqueueDelivery(
        trx,
        {
          ...ESCALATION,
          target: escalation.url,
          payload: escalationPayload(inserted, comment, post, escalation),
        },
        now,
      );
    }
    return answer(inserted, row, true, childSafety);
  });
}

/**
 * The console's queue: reports grouped by comment. Open groups come child safety first, then
 * soonest due first (each due at its earliest report's due time); resolved ones newest first.
 */
export async function listReportGroups(db: DB, status: ReportStatus, now: Date): Promise<ReportGroup[]> {
  const reports = await db
    .selectFrom('comment_reports')
    .selectAll()
    .where('status', '=', status)
    .$if(status === 'resolved', (q) => q.orderBy('resolved_at', 'desc').limit(500))
    .orderBy('report_id')
    .execute();
  if (reports.length === 0) return [];
  const byComment = new Map<number, ReportRow[]>();
  for (const report of reports) {
    const list = byComment.get(report.comment_id) ?? [];
    list.push(report);
    byComment.set(report.comment_id, list);
  }
  const comments = await selectModerated(db)
    .where('comments.comment_id', 'in', [...byComment.keys()])
    .execute();
  const moderated = await toModeratedList(db, comments, now);
  const groups = comments.map((comment, i): ReportGroup => {
    const list = byComment.get(comment.comment_id)!.sort((a, b) => a.report_id - b.report_id);
    const first = list[0]!;
    const counts = new Map<ReportCategory, number>();
    for (const r of list) counts.set(r.category, (counts.get(r.category) ?? 0) + 1);
    const dueAt = list.map((r) => r.due_at).sort()[0]!;
    const last = list[list.length - 1]!;
    return {
      reportId: first.report_id,
      status,
      comment: moderated[i]!,
      categories: [...counts].map(([category, count]) => ({ category, count })),
      reporterCount: new Set(list.map((r) => r.reporter_uid)).size,
      notes: list
        .filter((r) => r.note)
        .map((r) => ({
          reportId: r.report_id,
          category: r.category,
          note: r.note!,
          createdAt: r.created_at,
        })),
      childSafety: counts.has('child_safety'),
      openedAt: first.created_at,
      dueAt,
      overdue: status === 'open' && Date.parse(dueAt) < now.getTime(),
      resolution:
        status === 'resolved' && last.resolution
          ? {
              action: last.resolution,
              reason: last.resolution_reason ?? '',
              at: last.resolved_at ?? '',
              byName: last.resolved_by_name ?? '',
            }
          : null,
    };
  });
  return groups.sort((a, b) =>
    status === 'open'
      ? Number(b.childSafety) - Number(a.childSafety) ||
        a.dueAt.localeCompare(b.dueAt) ||
        a.openedAt.localeCompare(b.openedAt)
      : (b.resolution?.at ?? '').localeCompare(a.resolution?.at ?? ''),
  );
}

/**
 * Account erasure: reports the parent filed stay (moderators may still be reviewing them), with
 * the label as their reporter, and so do decisions they made as a moderator, under
 * ERASED_ACCOUNT_NAME. The label is unique to this erasure, so one report per parent per comment
 * still holds. Escalations that named them as a comment's author name the label instead.
 */
export async function anonymizeReports(trx: DB, uid: string, label: string): Promise<number> {
  const filed = await trx
    .updateTable('comment_reports')
    .set({ reporter_uid: label })
    .where('reporter_uid', '=', uid)
    .executeTakeFirst();
  await trx
    .updateTable('comment_reports')
    .set({ resolved_by_uid: label, resolved_by_name: ERASED_ACCOUNT_NAME })
    .where('resolved_by_uid', '=', uid)
    .execute();
  // The uid is only a filter here: each payload is checked exactly below.
  const escalations = await trx
    .selectFrom('deliveries')
    .select(['delivery_id', 'payload'])
    .where('purpose', '=', ESCALATION.purpose)
    .where('payload', 'like', `%${uid}%`)
    .execute();
  for (const row of escalations) {
    const payload: unknown = JSON.parse(row.payload);
    if (typeof payload !== 'object' || payload === null || !('comment' in payload)) continue;
    const comment: unknown = payload.comment;
    if (typeof comment !== 'object' || comment === null || !('authorUid' in comment)) continue;
    if (comment.authorUid !== uid) continue;
    const anonymous = {
      ...payload,
      comment: { ...comment, authorUid: label, authorName: ERASED_ACCOUNT_NAME },
    };
    await trx
      .updateTable('deliveries')
      .set({ payload: JSON.stringify(anonymous) })
      .where('delivery_id', '=', row.delivery_id)
      .execute();
  }
  return Number(filed.numUpdatedRows);
}
