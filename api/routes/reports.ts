import { Hono } from 'hono';
import type { ReportFiled } from '../contract.ts';
import { fileReport } from '../db/queries/reports.ts';
import { refuseSuspended, requireUser } from '../middleware/auth.ts';
import { rateLimit, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv, UserEnv } from '../types.ts';
import { threadChangedById } from './comments.ts';
import { commentIdParam, newReportBody } from './schemas.ts';

/** Parents' reports of comments (mounted under /api/blog; docs/product.md, "Reports"). */
export const reportRoutes = new Hono<AppEnv>().post(
  '/comments/:commentId/reports',
  validate('param', commentIdParam),
  requireUser,
  refuseSuspended,
  rateLimit<UserEnv>({
    limiter: (deps) => deps.reportLimiter,
    key: (c) => `report:${c.get('user').uid}`,
    message: tooQuickly('reports'),
  }),
  validate('json', newReportBody),
  async (c) => {
    const { db, now, safety, deliveries } = c.get('deps');
    const { category, note } = c.req.valid('json');
    const filed = await fileReport(
      db,
      { commentId: c.req.valid('param').commentId, reporterUid: c.get('user').uid, category, note },
      { url: safety.escalationUrl, siteUrl: safety.siteUrl },
      now(),
    );
    // The escalation was committed with the report: send it now rather than at the next poll.
    if (filed.escalated) deliveries?.poke();
    // A report that hid the comment changed the thread and the counts; any other changed nothing public.
    c.set(
      'changed',
      filed.comment.status === 'held' && filed.created ? await threadChangedById(db, filed.postId) : [],
    );
    const body: ReportFiled = {
      reportId: filed.reportId,
      status: filed.status,
      comment: filed.comment,
      commentCount: filed.commentCount,
    };
    return filed.created ? c.json(body, 201) : c.json(body, 200);
  },
);
