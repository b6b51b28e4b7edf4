import { Hono } from 'hono';
import {
  canModerate,
  type DecisionUndone,
  type EscalationStatus,
  isAdmin,
  type PublishRun,
  type RecallMatch,
  type RecallMatchResolved,
  type ReportResolved,
} from '../contract.ts';
import { listAudit } from '../db/queries/audit.ts';
import { listWaiting } from '../db/queries/deliveries.ts';
import { listPending, resolveReport, reviewComment, undoDecision } from '../db/queries/moderation.ts';
import { findProfile } from '../db/queries/profiles.ts';
import { listRecallMatches, resolveRecallMatch } from '../db/queries/recall-matches.ts';
import { ESCALATION } from '../db/queries/deliveries.ts';
import { listReportGroups } from '../db/queries/reports.ts';
import { liftSuspension, listActiveSuspensions, suspendUser } from '../db/queries/suspensions.ts';
import { refuseSuspended, requireModerator, requireUser } from '../middleware/auth.ts';
import { limitPerUser, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import { threadChangedById } from './comments.ts';
import { LISTINGS_CHANGED } from './listings.ts';
import {
  auditIdParam,
  auditQuery,
  commentIdParam,
  liftBody,
  recallMatchIdParam,
  recallResolveBody,
  reportIdParam,
  reportStatusQuery,
  resolveBody,
  reviewBody,
  suspendBody,
  uidParam,
} from './schemas.ts';

/** Moderators' writes: signed in, a moderator or admin, not suspended, within the write limit. */
const moderatorWrite = [
  requireUser,
  requireModerator,
  refuseSuspended,
  limitPerUser('moderation', tooQuickly('moderation actions')),
] as const;

/**
 * The moderation console's API (mounted under /api/moderation; docs/product.md, "Trust and
 * safety"): report queue and decisions, comments waiting for review, suspensions, escalations and
 * the audit log. Moderators and admins only. The audit log is read-only here.
 */
export const moderationRoutes = new Hono<AppEnv>()
  .get('/reports', requireUser, requireModerator, validate('query', reportStatusQuery), async (c) => {
    const { db, now } = c.get('deps');
    return c.json(await listReportGroups(db, c.req.valid('query').status, now()));
  })
  .post(
    '/reports/:reportId/resolve',
    validate('param', reportIdParam),
    ...moderatorWrite,
    validate('json', resolveBody),
    async (c) => {
      const { db, now } = c.get('deps');
      const profile = c.get('profile');
      const { action, reason } = c.req.valid('json');
      const resolution = await resolveReport(
        db,
        {
          reportId: c.req.valid('param').reportId,
          action,
          reason,
          actor: { uid: profile.firebase_uid, name: profile.display_name },
        },
        now(),
      );
      c.set('changed', await threadChangedById(db, resolution.postId));
      return c.json<ReportResolved>({
        comment: resolution.comment,
        resolvedReportIds: resolution.resolvedReportIds,
        undo: resolution.undo,
      });
    },
  )
  .post('/decisions/:auditId/undo', validate('param', auditIdParam), ...moderatorWrite, async (c) => {
    const { db, now } = c.get('deps');
    const profile = c.get('profile');
    const undone = await undoDecision(
      db,
      {
        auditId: c.req.valid('param').auditId,
        actor: { uid: profile.firebase_uid, name: profile.display_name },
      },
      now(),
    );
    // As after a decision: readers get the comment as it is again.
    c.set('changed', await threadChangedById(db, undone.postId));
    return c.json<DecisionUndone>({ comment: undone.comment, reopenedReportIds: undone.reopenedReportIds });
  })
  .get('/comments', requireUser, requireModerator, async (c) => {
    const { db, now } = c.get('deps');
    return c.json(await listPending(db, now()));
  })
  .post(
    '/comments/:commentId/review',
    validate('param', commentIdParam),
    ...moderatorWrite,
    validate('json', reviewBody),
    async (c) => {
      const { db, now, mail, deliveries } = c.get('deps');
      const profile = c.get('profile');
      const { action, reason } = c.req.valid('json');
      const reviewed = await reviewComment(
        db,
        {
          commentId: c.req.valid('param').commentId,
          action,
          reason,
          actor: { uid: profile.firebase_uid, name: profile.display_name },
        },
        mail,
        now(),
      );
      if (reviewed.emailsQueued > 0) deliveries?.poke();
      c.set('changed', await threadChangedById(db, reviewed.postId));
      return c.json(reviewed.comment);
    },
  )
  .get('/suspensions', requireUser, requireModerator, async (c) => {
    const { db, now } = c.get('deps');
    return c.json(await listActiveSuspensions(db, now()));
  })
  .post(
    '/users/:uid/suspend',
    validate('param', uidParam),
    ...moderatorWrite,
    validate('json', suspendBody),
    async (c) => {
      const { db, now } = c.get('deps');
      const profile = c.get('profile');
      const { uid } = c.req.valid('param');
      const target = await findProfile(db, uid);
      if (!target) return c.json({ error: 'No parent with that id has signed in here.' }, 404);
      if (uid === profile.firebase_uid) return c.json({ error: 'You cannot suspend yourself.' }, 400);
      if (isAdmin(target.role)) return c.json({ error: 'Admins cannot be suspended from the console.' }, 403);
      if (canModerate(target.role) && !isAdmin(profile.role)) {
        return c.json({ error: 'Only an admin may suspend a moderator.' }, 403);
      }
      const { days, reason } = c.req.valid('json');
      const suspension = await suspendUser(
        db,
        { uid, days, reason, actor: { uid: profile.firebase_uid, name: profile.display_name } },
        now(),
      );
      // Nothing cached shows suspensions.
      c.set('changed', []);
      return c.json(suspension, 201);
    },
  )
  .post(
    '/users/:uid/lift',
    validate('param', uidParam),
    ...moderatorWrite,
    validate('json', liftBody),
    async (c) => {
      const { db, now } = c.get('deps');
      const profile = c.get('profile');
      const lifted = await liftSuspension(
        db,
        {
          uid: c.req.valid('param').uid,
          reason: c.req.valid('json').reason,
          actor: { uid: profile.firebase_uid, name: profile.display_name },
        },
        now(),
      );
      if (!lifted) return c.json({ error: 'This parent is not suspended.' }, 404);
      c.set('changed', []);
      return c.json(lifted);
    },
  )
  .get('/escalations', requireUser, requireModerator, async (c) => {
    const { db, safety } = c.get('deps');
    const waiting = await listWaiting(db, ESCALATION.purpose);
    // The technical error (addresses, responses of the safety team's service) is for admins.
    const admin = isAdmin(c.get('profile').role);
    return c.json<EscalationStatus>({
      configured: safety.escalationUrl !== null,
      waiting: admin ? waiting : waiting.map((d) => ({ ...d, lastError: null })),
    });
  })
  .get('/audit', requireUser, requireModerator, validate('query', auditQuery), async (c) => {
    const { limit, before } = c.req.valid('query');
    const page = await listAudit(c.get('deps').db, { limit, before: before ?? null });
    if (page.next !== null)
      c.header('Link', `</api/moderation/audit?limit=${limit}&before=${page.next}>; rel="next"`);
    return c.json(page.entries);
  })
  // Possible recalls (docs/product.md, "Recall screening"): open ones first, then the newest decided.
  .get('/recall-matches', requireUser, requireModerator, async (c) =>
    c.json<RecallMatch[]>(await listRecallMatches(c.get('deps').db)),
  )
  .post(
    '/recall-matches/:matchId/resolve',
    validate('param', recallMatchIdParam),
    ...moderatorWrite,
    validate('json', recallResolveBody),
    async (c) => {
      const { db, now, publisher } = c.get('deps');
      const profile = c.get('profile');
      const { action, reason } = c.req.valid('json');
      const { matchId } = c.req.valid('param');
      const match = await resolveRecallMatch(
        db,
        { matchId, action, reason, actor: { uid: profile.firebase_uid, name: profile.display_name } },
        now(),
      );
      // A confirmed item leaves the API's lists at once, and a dismissed one may be cleared
      // (api/db/queries/screening.ts), so the kept answers go either way.
      c.set('changed', LISTINGS_CHANGED);
      if (action === 'dismiss') return c.json<RecallMatchResolved>({ match, publish: null });
      // The pages drop a confirmed item with the publish this starts.
      let publish: PublishRun | null = null;
      if (publisher) {
        try {
          publish = await publisher.request(`recall confirmed (match #${matchId}, ${match.item.itemName})`);
        } catch (error) {
          // The decision stands (it is committed and audited); an admin can publish by hand.
          console.error('A confirmed recall could not start a publish:', error);
        }
      }
      return c.json<RecallMatchResolved>({ match, publish });
    },
  );
