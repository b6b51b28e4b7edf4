// The moderation console's data: the report queue, comments awaiting review, suspensions,
// escalations, possible recalls and the audit log, each keyed by the signed-in moderator's uid, and the decisions
// that change them. Every call carries the moderator's token; the API checks the role.
import type {
  AuditEntry,
  ModeratedComment,
  RecallMatch,
  ResolveAction,
  Suspension,
} from '../../api/contract.ts';
import { api, read, withToken } from '../lib/api.ts';
import { nextCursor } from '../lib/thread.ts';
import { getIdToken } from './auth.ts';
import { type KeyedQuery, keyedQuery, showNextPage } from './query.ts';

const auth = async () => withToken(await getIdToken());

export const reportQueue = keyedQuery('moderation-reports', async () =>
  read(api.moderation.reports.$get({ query: { status: 'open' } }, await auth())),
);

export const pendingComments = keyedQuery('moderation-pending', async () =>
  read(api.moderation.comments.$get(undefined, await auth())),
);

export const suspensions = keyedQuery('moderation-suspensions', async () =>
  read(api.moderation.suspensions.$get(undefined, await auth())),
);

export const escalations = keyedQuery('moderation-escalations', async () =>
  read(api.moderation.escalations.$get(undefined, await auth())),
);

/** Items that may be recalled products, open ones first (docs/product.md, "Recall screening"). */
export const recallMatches = keyedQuery('moderation-recalls', async () =>
  read(api.moderation['recall-matches'].$get(undefined, await auth())),
);

export interface AuditPage {
  entries: AuditEntry[];
  /** The cursor of the next (older) page, or null. */
  next: number | null;
}

async function loadAudit(before: number | null): Promise<AuditPage> {
  const res = await api.moderation.audit.$get(
    { query: before === null ? {} : { before: String(before) } },
    await auth(),
  );
  const next = nextCursor(res.headers.get('Link'));
  return { entries: await read(res), next };
}

export const auditLog = keyedQuery<AuditPage>('moderation-audit', () => loadAudit(null));

/** Loads every list afresh. */
export function refreshAll(uid: string): void {
  for (const query of [reportQueue, pendingComments, suspensions, escalations, recallMatches, auditLog])
    query.refresh(uid);
}

/** Adds the next page of the audit log under what is shown. */
export function loadMoreAudit(uid: string): Promise<void> {
  return showNextPage(auditLog, uid, loadAudit, (shown, page) => ({
    entries: [...shown.entries, ...page.entries],
    next: page.next,
  }));
}

/**
 * Sends a decision; `inPlace` changes what is shown at once (a card goes), then the lists it
 * changes and the audit log are loaded afresh (in that order: a change in place drops the answer
 * of a load begun before it).
 */
async function decide<R>(
  uid: string,
  changed: Pick<KeyedQuery<unknown>, 'refresh'>[],
  answer: Promise<R>,
  inPlace?: (result: R) => void,
) {
  const result = await answer;
  inPlace?.(result);
  for (const query of [...changed, auditLog]) query.refresh(uid);
  return result;
}

// A decision about one parent shows on every card of theirs (suspended, other open reports).
const cards = [reportQueue, pendingComments];

/**
 * Resolves a report and every open report of its comment. Its card goes at once; the queue is
 * then loaded afresh, as the author's other cards count this one.
 */
export async function resolveReport(uid: string, reportId: number, action: ResolveAction, reason: string) {
  return decide(
    uid,
    cards,
    read(
      api.moderation.reports[':reportId'].resolve.$post(
        { param: { reportId: String(reportId) }, json: { action, reason } },
        await auth(),
      ),
    ),
    ({ comment }) =>
      reportQueue.update(uid, (groups) => groups.filter((g) => g.comment.commentId !== comment.commentId)),
  );
}

/** Takes back a dismissal or a restore made moments ago: its reports are open again. */
export async function undoDecision(uid: string, auditId: number) {
  return decide(
    uid,
    cards,
    read(
      api.moderation.decisions[':auditId'].undo.$post({ param: { auditId: String(auditId) } }, await auth()),
    ),
  );
}

/** Approves or rejects a comment that waits for review. */
export async function reviewComment(
  uid: string,
  commentId: number,
  action: 'approve' | 'reject',
  reason: string | null,
) {
  return decide(
    uid,
    cards,
    read(
      api.moderation.comments[':commentId'].review.$post(
        { param: { commentId: String(commentId) }, json: { action, reason } },
        await auth(),
      ),
    ),
    () => pendingComments.update(uid, (comments) => comments.filter((c) => c.commentId !== commentId)),
  );
}

/** Marks every card of one author with their suspension (or its end: null), before the reload. */
function markAuthor(uid: string, author: string, suspension: Suspension | null) {
  const mark = (comment: ModeratedComment): ModeratedComment =>
    comment.authorUid === author && comment.authorStanding
      ? {
          ...comment,
          authorStanding: {
            ...comment.authorStanding,
            suspension: suspension && { until: suspension.until, reason: suspension.reason },
          },
        }
      : comment;
  reportQueue.update(uid, (groups) => groups.map((g) => ({ ...g, comment: mark(g.comment) })));
  pendingComments.update(uid, (comments) => comments.map(mark));
}

/** Suspends a parent for some days, or until lifted (days: null). */
export async function suspendParent(uid: string, target: string, days: number | null, reason: string) {
  return decide(
    uid,
    [suspensions, ...cards],
    read(
      api.moderation.users[':uid'].suspend.$post(
        { param: { uid: target }, json: { days, reason } },
        await auth(),
      ),
    ),
    (suspension) => markAuthor(uid, target, suspension),
  );
}

export async function liftSuspension(uid: string, target: string, reason: string) {
  return decide(
    uid,
    [suspensions, ...cards],
    read(api.moderation.users[':uid'].lift.$post({ param: { uid: target }, json: { reason } }, await auth())),
    () => markAuthor(uid, target, null),
  );
}

export type RecallAction = NonNullable<RecallMatch['decision']>['action'];

/**
 * Confirms a possible recall (the item comes off every list and the site republishes) or dismisses
 * it (the same item and recall are not raised again). The match changes in place: it leaves the
 * open cards for the list of decided ones.
 */
export async function resolveRecallMatch(
  uid: string,
  matchId: number,
  action: RecallAction,
  reason: string | null,
) {
  return decide(
    uid,
    [recallMatches],
    read(
      api.moderation['recall-matches'][':matchId'].resolve.$post(
        {
          param: { matchId: String(matchId) },
          // A dismissal always has its reason (the dialog asks for one); a confirmation may not.
          json: action === 'dismiss' ? { action, reason: reason ?? '' } : { action, reason },
        },
        await auth(),
      ),
    ),
    ({ match }) =>
      recallMatches.update(uid, (matches) => matches.map((m) => (m.matchId === match.matchId ? match : m))),
  );
}
