import { sql } from 'kysely';
import {
  type Comment,
  type CommentPosted,
  type CommentStatus,
  countLinks,
  EDIT_WINDOW_MINUTES,
  EDIT_WINDOW_MS,
  EVIDENCE_RETENTION_DAYS,
  MAX_LINKS_WITHOUT_REVIEW,
  type Reply,
} from '../../contract.ts';
import { bestScore, type CommentSort } from '../../contract/live-threads.ts';
import type { MailSettings } from '../../lib/emails.ts';
import { RuleError } from '../../lib/errors.ts';
import type { DB } from '../database.ts';
import { forUpdate } from '../dialect.ts';
import { groupedTransaction } from '../group-commit.ts';
import type { CommentRow } from '../schema.ts';
import { recordAudit } from './audit.ts';
import { queueReplyEmails } from './notifications.ts';
import { recordThreadEvent } from './thread-events.ts';

/** Who is reading: anonymous (the read cache and the build), a parent, or a moderator. */
export interface Viewer {
  uid: string | null;
  moderator: boolean;
}

export const ANONYMOUS: Viewer = { uid: null, moderator: false };

/** Someone who acts on a comment: its author, a moderator, or the system (uid null). */
export interface Actor {
  uid: string | null;
  name: string;
}

/**
 * The one place that decides what a viewer sees of a comment (docs/product.md, "Trust and
 * safety"). Only visible content goes to everyone; moderators see everything; an author sees
 * their own pending comment and why their comment was removed. A deleted comment comes without
 * its author. The screens draw placeholders from `status`.
 */
export function toWire(row: CommentRow, viewer: Viewer, now: Date): Reply {
  const own = viewer.uid !== null && row.author_uid === viewer.uid;
  const seesContent = row.status === 'visible' || viewer.moderator || (own && row.status === 'pending');
  const anonymous = row.status === 'deleted' && !viewer.moderator;
  const editUntil = Date.parse(row.created_at) + EDIT_WINDOW_MS;
  const editable = own && (row.status === 'visible' || row.status === 'pending') && now.getTime() < editUntil;
  return {
    comment_id: row.comment_id,
    content: seesContent ? row.content : '',
    author_name: anonymous ? '' : row.author_name,
    author_avatar_url: anonymous ? null : row.author_avatar_url,
    created_at: row.created_at,
    like_count: row.like_count,
    status: row.status,
    edited_at: row.edited_at,
    is_own: own,
    can_edit_until: editable ? new Date(editUntil).toISOString() : null,
    status_reason: viewer.moderator || (own && row.status === 'removed') ? row.status_reason : null,
  };
}

/**
 * Which comments a viewer finds in a thread: visible ones and the placeholders of held and removed
 * ones; pending ones only for their author and moderators; deleted ones never (a deleted comment
 * with replies is added by the caller). `table` is the alias the comments table has in the query.
 */
function listedFor(viewer: Viewer, table: string) {
  const status = sql.ref(`${table}.status`);
  if (viewer.moderator) return sql<boolean>`${status} <> 'deleted'`;
  const shown = sql<boolean>`${status} in ('visible', 'held', 'removed')`;
  if (viewer.uid === null) return shown;
  return sql<boolean>`(${shown} or (${status} = 'pending' and ${sql.ref(`${table}.author_uid`)} = ${viewer.uid}))`;
}

export interface ThreadPage {
  comments: Comment[];
  /** The cursor of the next page (the last comment's id), or null on the last page. */
  next: number | null;
}

/**
 * The top-level comments a viewer finds in a thread: the listed ones, and a deleted one while it has
 * replies that are shown (it keeps its place; it disappears otherwise).
 */
function topLevelListed(viewer: Viewer) {
  return sql<boolean>`(${listedFor(viewer, 'comments')} or (comments.status = 'deleted' and exists (
    select 1 from comments replies
    where replies.parent_comment_id = comments.comment_id and ${listedFor(viewer, 'replies')})))`;
}

/**
 * Threads' pages from their top-level rows (newest first, up to the page's limit) and whether more
 * follow: each comment gets its shown replies, oldest first, read for all the pages at once.
 */
async function pagesOf(
  db: DB,
  tops: { rows: CommentRow[]; more: boolean }[],
  viewer: Viewer,
  now: Date,
): Promise<ThreadPage[]> {
  const ids = tops.flatMap(({ rows }) => rows.map((r) => r.comment_id));
  const replies = new Map<number, Reply[]>();
  if (ids.length > 0) {
    const replyRows = await db
      .selectFrom('comments')
      .selectAll()
      .where('parent_comment_id', 'in', ids)
      .where(listedFor(viewer, 'comments'))
      .orderBy('created_at')
      .orderBy('comment_id')
      .execute();
    for (const row of replyRows) {
      const list = replies.get(row.parent_comment_id!) ?? [];
      list.push(toWire(row, viewer, now));
      replies.set(row.parent_comment_id!, list);
    }
  }
  return tops.map(({ rows, more }) => ({
    comments: rows.map((row) => ({
      ...toWire(row, viewer, now),
      reply_count: row.reply_count,
      parent_comment_id: null,
      replies: replies.get(row.comment_id) ?? [],
    })),
    next: more ? rows[rows.length - 1]!.comment_id : null,
  }));
}

/**
 * One page of a thread as a viewer sees it: top-level comments in the asked order (newest first
 * by default; docs/product.md, "Comments"), each with its replies oldest first. `before` is the
 * last comment of the page before, in that order. Newest and oldest are keyset-paged on
 * (created_at, comment_id), so page 100 costs what page 1 costs; best ranks the thread's top-level
 * comments by bestScore (it changes with every like and view, so it is worked out per request).
 */
export async function listThread(
  db: DB,
  postId: number,
  page: { limit: number; before: number | null; sort?: CommentSort },
  viewer: Viewer,
  now: Date,
): Promise<ThreadPage> {
  const sort = page.sort ?? 'newest';
  const listed = db
    .selectFrom('comments')
    .where('post_id', '=', postId)
    .where('parent_comment_id', 'is', null)
    .where(topLevelListed(viewer));
  let cursor: { created_at: string; comment_id: number } | undefined;
  if (page.before !== null) {
    cursor = await db
      .selectFrom('comments')
      .select(['created_at', 'comment_id'])
      .where('comment_id', '=', page.before)
      .where('post_id', '=', postId)
      .where('parent_comment_id', 'is', null)
      .executeTakeFirst();
    if (!cursor) throw new RuleError('before: no such top-level comment on this post');
  }
  let rows: CommentRow[];
  if (sort === 'best') {
    const ranked = await rankBest(
      db,
      postId,
      await listed.select(['comment_id', 'like_count', 'created_at']).execute(),
    );
    const from = cursor ? ranked.indexOf(cursor.comment_id) + 1 : 0;
    if (cursor && from === 0) throw new RuleError('before: that comment is not in this thread');
    const ids = ranked.slice(from, from + page.limit + 1);
    const byId = new Map(
      ids.length === 0
        ? []
        : (await db.selectFrom('comments').selectAll().where('comment_id', 'in', ids).execute()).map((r) => [
            r.comment_id,
            r,
          ]),
    );
    rows = ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
  } else {
    const newest = sort === 'newest';
    let query = listed.selectAll();
    if (cursor) {
      const c = cursor;
      query = query
        .where('created_at', newest ? '<=' : '>=', c.created_at)
        .where((eb) =>
          eb.or([
            eb('created_at', newest ? '<' : '>', c.created_at),
            eb('comment_id', newest ? '<' : '>', c.comment_id),
          ]),
        );
    }
    rows = await query
      .orderBy('created_at', newest ? 'desc' : 'asc')
      .orderBy('comment_id', newest ? 'desc' : 'asc')
      .limit(page.limit + 1)
      .execute();
  }
  const more = rows.length > page.limit;
  const [thread] = await pagesOf(db, [{ rows: more ? rows.slice(0, page.limit) : rows, more }], viewer, now);
  return thread!;
}

/**
 * Some of a thread's top-level comments by id, as listThread gives them (newest first, each with
 * its replies): those a page was told are new, when its reader shows them. Ids that are not
 * top-level comments of the post the viewer finds are left out.
 */
export async function listCommentsById(
  db: DB,
  postId: number,
  ids: number[],
  viewer: Viewer,
  now: Date,
): Promise<Comment[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('comments')
    .selectAll()
    .where('post_id', '=', postId)
    .where('parent_comment_id', 'is', null)
    .where('comment_id', 'in', ids)
    .where(topLevelListed(viewer))
    .orderBy('created_at', 'desc')
    .orderBy('comment_id', 'desc')
    .execute();
  const [page] = await pagesOf(db, [{ rows, more: false }], viewer, now);
  return page!.comments;
}

/**
 * Top-level comments' ids, best first: bestScore of their likes and their readers (the post's
 * views from the day each was posted), ties newest first.
 */
async function rankBest(
  db: DB,
  postId: number,
  comments: { comment_id: number; like_count: number; created_at: string }[],
): Promise<number[]> {
  const days = await db
    .selectFrom('post_view_days')
    .select(['day', 'views'])
    .where('post_id', '=', postId)
    .orderBy('day', 'desc')
    .execute();
  const readersSince = (createdAt: string) => {
    const day = createdAt.slice(0, 10);
    let n = 0;
    for (const d of days) {
      if (d.day < day) break;
      n += d.views;
    }
    return n;
  };
  return comments
    .map((c) => ({ ...c, score: bestScore(c.like_count, readersSince(c.created_at)) }))
    .sort(
      (a, b) => b.score - a.score || b.created_at.localeCompare(a.created_at) || b.comment_id - a.comment_id,
    )
    .map((c) => c.comment_id);
}

/**
 * The first page of several threads, as listThread gives each, in two queries whatever their
 * number: a build renders the first page of every post's thread.
 */
export async function listFirstPages(
  db: DB,
  postIds: number[],
  limit: number,
  viewer: Viewer,
  now: Date,
): Promise<Map<number, ThreadPage>> {
  if (postIds.length === 0) return new Map();
  const ranked = db
    .selectFrom('comments')
    .selectAll()
    .select(
      sql<number>`row_number() over (partition by comments.post_id
        order by comments.created_at desc, comments.comment_id desc)`.as('rank'),
    )
    .where('post_id', 'in', postIds)
    .where('parent_comment_id', 'is', null)
    .where(topLevelListed(viewer))
    .as('ranked');
  const rows = await db
    .selectFrom(ranked)
    .selectAll()
    .where('rank', '<=', limit + 1)
    .orderBy('post_id')
    .orderBy('rank')
    .execute();
  const byPost = new Map<number, CommentRow[]>(postIds.map((id) => [id, []]));
  for (const { rank: _rank, ...row } of rows) byPost.get(row.post_id)!.push(row);
  const tops = [...byPost.values()].map((rows) => ({
    rows: rows.slice(0, limit),
    more: rows.length > limit,
  }));
  const threads = await pagesOf(db, tops, viewer, now);
  return new Map([...byPost.keys()].map((postId, i) => [postId, threads[i]!]));
}

/** The post's comment count as stored (visible comments and replies). */
export async function postCommentCount(db: DB, postId: number): Promise<number> {
  const { comment_count } = await db
    .selectFrom('blog_posts')
    .select('comment_count')
    .where('post_id', '=', postId)
    .executeTakeFirstOrThrow();
  return comment_count;
}

/**
 * The one way a comment's status changes. Counts move by the change in visibility, in the
 * caller's transaction (countVisible). `row` is as read by findCommentForUpdate in the same
 * transaction.
 */
export async function changeStatus(
  trx: DB,
  row: CommentRow,
  next: { status: CommentStatus; reason: string | null; purgeAfter?: string | null; content?: string },
  now: Date,
): Promise<CommentRow> {
  const delta = (next.status === 'visible' ? 1 : 0) - (row.status === 'visible' ? 1 : 0);
  const updated = await trx
    .updateTable('comments')
    .set({
      status: next.status,
      status_reason: next.status === 'visible' ? null : next.reason,
      ...(next.purgeAfter !== undefined ? { purge_after: next.purgeAfter } : {}),
      ...(next.content !== undefined ? { content: next.content } : {}),
      ...(next.status === 'visible' && row.published_at === null ? { published_at: now.toISOString() } : {}),
    })
    .where('comment_id', '=', row.comment_id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await countVisible(trx, row, delta, now);
  return updated;
}

/**
 * What a comment appearing (delta 1), leaving (-1) or changing in place (0) does beside its own
 * row: for a reply, its parent's reply_count, and the post's comment_count, which it answers (null
 * when nothing was counted); and the change is one that the thread's open pages see (decision
 * 026). The parent is updated before the post, the order in which a new reply locks them, so two
 * such transactions on PostgreSQL wait for each other rather than deadlock.
 */
async function countVisible(
  trx: DB,
  row: Pick<CommentRow, 'comment_id' | 'post_id' | 'parent_comment_id'>,
  delta: number,
  now: Date,
): Promise<number | null> {
  let commentCount: number | null = null;
  if (delta !== 0) {
    if (row.parent_comment_id !== null) {
      await trx
        .updateTable('comments')
        .set((eb) => ({ reply_count: eb('reply_count', '+', delta) }))
        .where('comment_id', '=', row.parent_comment_id)
        .execute();
    }
    ({ comment_count: commentCount } = await trx
      .updateTable('blog_posts')
      .set((eb) => ({ comment_count: eb('comment_count', '+', delta) }))
      .where('post_id', '=', row.post_id)
      .returning('comment_count')
      .executeTakeFirstOrThrow());
  }
  await recordThreadEvent(trx, { postId: row.post_id, commentId: row.comment_id }, now);
  return commentCount;
}

/** Whether a comment has ever been reported as a child safety concern (its content is evidence). */
export async function hasChildSafetyReport(db: DB, commentId: number): Promise<boolean> {
  const row = await db
    .selectFrom('comment_reports')
    .select('report_id')
    .where('comment_id', '=', commentId)
    .where('category', '=', 'child_safety')
    .executeTakeFirst();
  return row !== undefined;
}

/** A year from now: how long content removed for child safety is kept as evidence. */
export function evidenceUntil(now: Date): string {
  return new Date(now.getTime() + EVIDENCE_RETENTION_DAYS * 86_400_000).toISOString();
}

/**
 * Reads a comment that the transaction is about to change, and locks it until the transaction ends,
 * so concurrent decisions on one comment (a report, an edit, a moderator) run one after the other
 * and changeStatus moves the counts from the status the row really had.
 */
export async function findCommentForUpdate(trx: DB, commentId: number): Promise<CommentRow | undefined> {
  return trx
    .selectFrom('comments')
    .selectAll()
    .where('comment_id', '=', commentId)
    .$call(forUpdate(trx))
    .executeTakeFirst();
}

export interface NewComment {
  postId: number;
  parentCommentId: number | null;
  content: string;
  author: { uid: string; name: string; avatarUrl: string | null; moderator: boolean };
}

const FIRST_COMMENT = 'First comment from a new parent';
const MANY_LINKS = `More than ${MAX_LINKS_WITHOUT_REVIEW} links`;

/**
 * Why a new or edited comment must wait for a moderator (docs/product.md, "Pre-moderation"), or
 * null. Moderators' own comments never wait.
 */
async function reviewReason(
  db: DB,
  input: { authorUid: string; content: string; moderator: boolean; holdFirst: boolean },
): Promise<string | null> {
  if (input.moderator) return null;
  if (countLinks(input.content) > MAX_LINKS_WITHOUT_REVIEW) return MANY_LINKS;
  if (!input.holdFirst) return null;
  const published = await db
    .selectFrom('comments')
    .select('comment_id')
    .where('author_uid', '=', input.authorUid)
    .where('published_at', 'is not', null)
    .executeTakeFirst();
  return published ? null : FIRST_COMMENT;
}

/**
 * Adds a comment or a reply (only to a visible top-level comment of the same post). It is counted
 * at once, or waits for review (`pending`, not counted) when pre-moderation asks for it.
 */
export async function addComment(
  db: DB,
  input: NewComment,
  options: {
    holdFirst: boolean;
    /** For reply emails; null sends none (the bench's seeding). */
    mail: MailSettings | null;
  },
  now: Date,
): Promise<CommentPosted & { emailsQueued: number }> {
  return groupedTransaction(db, async (trx) => {
    if (input.parentCommentId !== null) {
      const parent = await trx
        .selectFrom('comments')
        .select(['post_id', 'parent_comment_id', 'status'])
        .where('comment_id', '=', input.parentCommentId)
        // Held or removed meanwhile would count a reply under a hidden comment.
        .$call(forUpdate(trx))
        .executeTakeFirst();
      if (!parent || parent.post_id !== input.postId) {
        throw new RuleError('parentCommentId: no such comment on this post');
      }
      if (parent.parent_comment_id !== null) {
        throw new RuleError('parentCommentId: replies are allowed only on top-level comments');
      }
      if (parent.status !== 'visible') {
        throw new RuleError('parentCommentId: this comment is not open for replies', 409);
      }
    }
    const reason = await reviewReason(trx, {
      authorUid: input.author.uid,
      content: input.content,
      moderator: input.author.moderator,
      holdFirst: options.holdFirst,
    });
    // Shown at once, it is counted and announced as it is written; waiting for review, it is neither.
    const row = await trx
      .insertInto('comments')
      .values({
        post_id: input.postId,
        parent_comment_id: input.parentCommentId,
        author_uid: input.author.uid,
        author_name: input.author.name,
        author_avatar_url: input.author.avatarUrl,
        content: input.content,
        created_at: now.toISOString(),
        seed_key: null,
        status: reason === null ? 'visible' : 'pending',
        status_reason: reason,
        published_at: reason === null ? now.toISOString() : null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const counted = reason === null ? await countVisible(trx, row, 1, now) : null;
    const viewer = { uid: input.author.uid, moderator: input.author.moderator };
    return {
      comment: toWire(row, viewer, now),
      commentCount: counted ?? (await postCommentCount(trx, input.postId)),
      // A reply shown at once tells those who follow the thread; one that waits, when approved.
      emailsQueued: await queueReplyEmails(trx, row, options.mail, now),
    };
  });
}

export interface EditedComment extends CommentPosted {
  postId: number;
}

/**
 * The author's edit, within EDIT_WINDOW_MINUTES of posting, of a comment that is visible or
 * waiting for review and not under review for reports. An edit that adds too many links sends it
 * back to review (and out of the counts).
 */
export async function editComment(
  db: DB,
  input: { commentId: number; author: { uid: string; moderator: boolean }; content: string },
  now: Date,
): Promise<EditedComment> {
  return db.transaction().execute(async (trx) => {
    const row = await findCommentForUpdate(trx, input.commentId);
    if (!row || row.status === 'deleted') throw new RuleError('Comment not found', 404);
    if (row.author_uid !== input.author.uid) {
      throw new RuleError('You can edit only your own comments.', 403);
    }
    if (row.status !== 'visible' && row.status !== 'pending') {
      throw new RuleError('This comment is with the moderators and can no longer be edited.', 409);
    }
    if (now.getTime() >= Date.parse(row.created_at) + EDIT_WINDOW_MS) {
      throw new RuleError(
        `Comments can be edited for ${EDIT_WINDOW_MINUTES} minutes after posting; the time for this one is over.`,
        403,
      );
    }
    const openReport = await trx
      .selectFrom('comment_reports')
      .select('report_id')
      .where('comment_id', '=', row.comment_id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (openReport) {
      throw new RuleError(
        'This comment has been reported and cannot be edited until a moderator has reviewed it.',
        409,
      );
    }
    let updated = row;
    if (input.content !== row.content) {
      updated = await trx
        .updateTable('comments')
        .set({ content: input.content, edited_at: now.toISOString() })
        .where('comment_id', '=', row.comment_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (row.status === 'visible') {
        await recordThreadEvent(trx, { postId: row.post_id, commentId: row.comment_id }, now);
      }
      if (row.status === 'visible' && !input.author.moderator) {
        if (countLinks(input.content) > MAX_LINKS_WITHOUT_REVIEW) {
          updated = await changeStatus(trx, updated, { status: 'pending', reason: MANY_LINKS }, now);
        }
      }
    }
    return {
      comment: toWire(updated, input.author, now),
      commentCount: await postCommentCount(trx, row.post_id),
      postId: row.post_id,
    };
  });
}

/**
 * The one rule for an author's deletion, used by deleteOwnComment and account erasure: the
 * comment becomes `deleted` (out of the counts), its words blanked unless they are child-safety
 * evidence, which is kept out of sight until its purge date.
 */
export async function markDeleted(
  trx: DB,
  row: CommentRow,
  now: Date,
): Promise<{ updated: CommentRow; evidence: boolean }> {
  const evidence = row.purge_after !== null || (await hasChildSafetyReport(trx, row.comment_id));
  const updated = await changeStatus(
    trx,
    row,
    {
      status: 'deleted',
      reason: 'Deleted by its author',
      ...(evidence ? { purgeAfter: row.purge_after ?? evidenceUntil(now) } : { content: '' }),
    },
    now,
  );
  return { updated, evidence };
}

/**
 * The author deletes their comment (markDeleted, with an audit entry). Removal by a moderator is
 * removeComment in ./moderation.ts.
 */
export async function deleteOwnComment(
  trx: DB,
  row: CommentRow,
  actor: Actor,
  now: Date,
): Promise<CommentRow> {
  const { updated, evidence } = await markDeleted(trx, row, now);
  await recordAudit(
    trx,
    {
      actor,
      action: 'comment.delete',
      target: { type: 'comment', id: row.comment_id },
      reason: null,
      details: { postId: row.post_id, previousStatus: row.status, evidenceKept: evidence },
    },
    now,
  );
  return updated;
}

/**
 * Account erasure's part of the comments: every comment of the parent is deleted by the author's
 * rule (markDeleted) and loses its author. One that nothing else refers to (no replies, no
 * reports, not evidence) then goes altogether; one with replies stays as the placeholder "This
 * comment was deleted." so the replies keep their place.
 */
export async function eraseAuthor(
  trx: DB,
  uid: string,
  now: Date,
): Promise<{ comments: number; removed: number; evidence: number }> {
  const rows = await trx.selectFrom('comments').selectAll().where('author_uid', '=', uid).execute();
  let evidence = 0;
  for (const row of rows) {
    if (row.status === 'deleted') {
      if (row.purge_after !== null) evidence += 1;
      continue;
    }
    if ((await markDeleted(trx, row, now)).evidence) evidence += 1;
  }
  await trx
    .updateTable('comments')
    .set({ author_uid: null, author_name: '', author_avatar_url: null })
    .where('author_uid', '=', uid)
    .execute();
  const ids = rows.map((r) => r.comment_id);
  let removed = 0;
  // Replies first, so a comment whose only replies were the parent's own can go too.
  for (const replies of [true, false]) {
    if (ids.length === 0) break;
    const result = await trx
      .deleteFrom('comments')
      .where('comment_id', 'in', ids)
      .where('parent_comment_id', replies ? 'is not' : 'is', null)
      .where('purge_after', 'is', null)
      // Nothing refers to it: no reply (of any status) and no report.
      .where(({ and, not, exists, selectFrom }) =>
        and([
          not(
            exists(
              selectFrom('comments as replies')
                .select('replies.comment_id')
                .whereRef('replies.parent_comment_id', '=', 'comments.comment_id'),
            ),
          ),
          not(
            exists(
              selectFrom('comment_reports')
                .select('comment_reports.report_id')
                .whereRef('comment_reports.comment_id', '=', 'comments.comment_id'),
            ),
          ),
        ]),
      )
      .executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  return { comments: rows.length, removed, evidence };
}
