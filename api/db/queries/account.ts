import { type AccountExport, ERASED_ACCOUNT_NAME } from '../../contract.ts';
import { absolute, accountErasedEmail, EMAIL_PURPOSES, type MailSettings } from '../../lib/emails.ts';
import { randomToken } from '../../lib/tokens.ts';
import type { DB } from '../database.ts';
import { exportAlerts, forgetAlerts } from './alerts.ts';
import { anonymizeAudit, recordAudit } from './audit.ts';
import { eraseAuthor } from './comments.ts';
import { closeDeletionRequests } from './deletion-requests.ts';
import { removeLikes } from './likes.ts';
import { enqueueEmail, forgetEmailsTo } from './mail.ts';
import { forgetNotifications } from './notifications.ts';
import { deleteProfile, findProfile } from './profiles.ts';
import { forgetAttemptsOf } from './rate-limits.ts';
import { anonymizeReports } from './reports.ts';
import { revokeSignIns } from './revocations.ts';
import { anonymizeSuspensions } from './suspensions.ts';

// A parent's own data (docs/product.md, "Your account"): everything kept about them as one JSON
// file, and the erasure of their account.

const commentUrl = (site: string, slug: string, commentId: number) =>
  absolute({ siteUrl: site }, `/blog/${slug}#comment-${commentId}`);

/** Everything Nestling keeps about a parent, for "Download my data". */
export async function exportAccount(db: DB, uid: string, siteUrl: string, now: Date): Promise<AccountExport> {
  const profile = await findProfile(db, uid);
  if (!profile) throw new Error(`no profile for ${uid}`);
  const comments = await db
    .selectFrom('comments')
    .innerJoin('blog_posts', 'blog_posts.post_id', 'comments.post_id')
    .selectAll('comments')
    .select(['blog_posts.slug', 'blog_posts.title'])
    .where('comments.author_uid', '=', uid)
    .orderBy('comments.created_at')
    .orderBy('comments.comment_id')
    .execute();
  const postLikes = await db
    .selectFrom('post_likes')
    .innerJoin('blog_posts', 'blog_posts.post_id', 'post_likes.post_id')
    .select(['blog_posts.slug', 'blog_posts.title', 'post_likes.created_at'])
    .where('post_likes.user_uid', '=', uid)
    .orderBy('post_likes.created_at')
    .execute();
  const commentLikes = await db
    .selectFrom('comment_likes')
    .innerJoin('comments', 'comments.comment_id', 'comment_likes.comment_id')
    .innerJoin('blog_posts', 'blog_posts.post_id', 'comments.post_id')
    .select(['blog_posts.slug', 'blog_posts.title', 'comment_likes.comment_id', 'comment_likes.created_at'])
    .where('comment_likes.user_uid', '=', uid)
    .orderBy('comment_likes.created_at')
    .execute();
  const reports = await db
    .selectFrom('comment_reports')
    .innerJoin('comments', 'comments.comment_id', 'comment_reports.comment_id')
    .innerJoin('blog_posts', 'blog_posts.post_id', 'comments.post_id')
    .selectAll('comment_reports')
    .select('blog_posts.slug')
    .where('comment_reports.reporter_uid', '=', uid)
    .orderBy('comment_reports.report_id')
    .execute();
  const suspensions = await db
    .selectFrom('suspensions')
    .selectAll()
    .where('user_uid', '=', uid)
    .orderBy('suspension_id')
    .execute();
  const settings = await db
    .selectFrom('email_settings')
    .selectAll()
    .where('user_uid', '=', uid)
    .executeTakeFirst();
  const threads = await db
    .selectFrom('reply_subscriptions')
    .innerJoin('blog_posts', 'blog_posts.post_id', 'reply_subscriptions.post_id')
    .select([
      'blog_posts.slug',
      'blog_posts.title',
      'reply_subscriptions.created_at',
      'reply_subscriptions.last_notified_at',
    ])
    .where('reply_subscriptions.user_uid', '=', uid)
    .orderBy('reply_subscriptions.created_at')
    .execute();
  const site = siteUrl.replace(/\/$/, '');
  return {
    exportedAt: now.toISOString(),
    site,
    profile,
    comments: comments.map((c) => ({
      commentId: c.comment_id,
      parentCommentId: c.parent_comment_id,
      postTitle: c.title,
      url: commentUrl(site, c.slug, c.comment_id),
      content: c.purge_after === null ? c.content : null,
      status: c.status,
      createdAt: c.created_at,
      editedAt: c.edited_at,
      likeCount: c.like_count,
    })),
    likes: {
      posts: postLikes.map((l) => ({
        postTitle: l.title,
        url: absolute({ siteUrl: site }, `/blog/${l.slug}`),
        commentId: null,
        likedAt: l.created_at,
      })),
      comments: commentLikes.map((l) => ({
        postTitle: l.title,
        url: commentUrl(site, l.slug, l.comment_id),
        commentId: l.comment_id,
        likedAt: l.created_at,
      })),
    },
    reports: reports.map((r) => ({
      reportId: r.report_id,
      commentId: r.comment_id,
      url: commentUrl(site, r.slug, r.comment_id),
      category: r.category,
      note: r.note,
      status: r.status,
      createdAt: r.created_at,
      resolution: r.resolution,
      resolvedAt: r.resolved_at,
    })),
    suspensions: suspensions.map((s) => ({
      reason: s.reason,
      from: s.created_at,
      until: s.until,
      liftedAt: s.lifted_at,
    })),
    // Favourites, saved searches and the alerts sent about them (docs/product.md, "Favourites and alerts").
    alerts: await exportAlerts(db, uid),
    notifications: {
      email: settings?.email ?? null,
      confirmedAt: settings?.confirmed_at ?? null,
      enabled: settings ? settings.enabled === 1 : false,
      threads: threads.map((t) => ({
        postTitle: t.title,
        url: absolute({ siteUrl: site }, `/blog/${t.slug}`),
        since: t.created_at,
        lastEmailAt: t.last_notified_at,
      })),
    },
  };
}

export interface Erasure {
  uid: string;
  /** Every address the account is known by (Firebase's, the form's); the first gets the confirmation. */
  emails: string[];
  /** An admin working a deletion request; null when the parent erases their own account. */
  admin: { uid: string; name: string } | null;
}

export interface ErasureSummary {
  /** The random id the records that stay carry instead of the parent's. */
  label: string;
  comments: number;
  /** Comments that went altogether (the rest stay as placeholders or as evidence). */
  commentsRemoved: number;
  evidenceKept: number;
  likes: number;
  reportsKept: number;
  deletionRequestsClosed: number[];
}

/**
 * Erases an account in one transaction (docs/product.md, "Deleting your account"): profile,
 * likes (counts recomputed), email settings, followed threads and every email to its addresses
 * go; comments follow the author's deletion rule and lose their author; reports, suspensions and
 * audit entries stay under a random label; open deletion requests for its addresses are closed.
 * Queues the confirmation email and writes one audit entry without the parent's identity. The
 * Firebase user is deleted by the caller first, so no request can sign in as them meanwhile, and
 * the sign-in is revoked for every other instance (api/auth/revocations.ts).
 */
export async function eraseAccount(
  db: DB,
  erasure: Erasure,
  mail: MailSettings,
  now: Date,
): Promise<ErasureSummary> {
  return db.transaction().execute(async (trx) => {
    const label = `erased-${randomToken().slice(0, 16)}`;
    await revokeSignIns(trx, erasure.uid, now);
    const profileEmail = await deleteProfile(trx, erasure.uid);
    const settingsEmail = await forgetNotifications(trx, erasure.uid);
    await forgetAlerts(trx, erasure.uid);
    const addresses = [
      ...new Set(
        [...erasure.emails, profileEmail, settingsEmail]
          .filter((e): e is string => Boolean(e))
          .flatMap((e) => [e.trim(), e.trim().toLowerCase()]),
      ),
    ];
    const likes = await removeLikes(trx, erasure.uid);
    const comments = await eraseAuthor(trx, erasure.uid, now);
    const reportsKept = await anonymizeReports(trx, erasure.uid, label);
    await anonymizeSuspensions(trx, erasure.uid, label);
    await anonymizeAudit(trx, erasure.uid, label);
    await forgetEmailsTo(trx, addresses);
    await forgetAttemptsOf(trx, erasure.uid);
    const actor = erasure.admin ?? { uid: label, name: ERASED_ACCOUNT_NAME };
    const deletionRequestsClosed = await closeDeletionRequests(
      trx,
      { emails: addresses, status: 'erased', actor },
      now,
    );
    const to = addresses[0];
    if (to) await enqueueEmail(trx, EMAIL_PURPOSES.accountErased, accountErasedEmail(mail, to), now);
    const summary: ErasureSummary = {
      label,
      comments: comments.comments,
      commentsRemoved: comments.removed,
      evidenceKept: comments.evidence,
      likes,
      reportsKept,
      deletionRequestsClosed,
    };
    await recordAudit(
      trx,
      {
        actor,
        action: 'account.erase',
        target: { type: 'user', id: label },
        reason: erasure.admin ? 'Deletion request' : 'The parent deleted their account',
        details: {
          comments: summary.comments,
          commentsRemoved: summary.commentsRemoved,
          evidenceKept: summary.evidenceKept,
          likes: summary.likes,
          reportsKept: summary.reportsKept,
          deletionRequests: deletionRequestsClosed.join(',') || null,
        },
      },
      now,
    );
    return summary;
  });
}
