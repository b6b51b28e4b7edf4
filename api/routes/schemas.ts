// The zod schemas of the API's inputs. Limits come from the wire contract, so the islands'
// form limits and the API's agree.
import { z } from 'zod';
import {
  COMMENT_MAX_LENGTH,
  DELETION_INFO_MAX,
  DELETION_REASON_MAX,
  LINK_TOKEN_PATTERN,
  LIST_LIMIT_MAX,
  MODERATION_REASON_MAX,
  RECALLS_LIMIT_DEFAULT,
  RECALLS_LIMIT_MAX,
  REPORT_CATEGORIES,
  REPORT_NOTE_MAX,
  ROLES,
  SUSPENSION_DAYS_MAX,
  THREAD_PAGE_DEFAULT,
  THREAD_PAGE_MAX,
  THREADS_PER_REQUEST_MAX,
  UNSUBSCRIBE_SCOPES,
} from '../contract.ts';
import {
  COMMENT_SORTS,
  DEFAULT_COMMENT_SORT,
  NEW_COMMENTS_PER_REQUEST_MAX,
} from '../contract/live-threads.ts';

/** A whole number from a query string, within bounds. */
function intQuery(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,16}$/, `must be an integer from ${min} to ${max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, `must be an integer from ${min} to ${max}`)
        .max(max, `must be an integer from ${min} to ${max}`),
    );
}

/** `?limit=` on list endpoints: an integer from 1 to 50. */
export function limitQuery(defaultLimit: number) {
  return z.object({ limit: intQuery(1, LIST_LIMIT_MAX).default(defaultLimit) });
}

/** A page of a thread: `?limit=` (1 to 100, default 50) and `?before=<commentId>`. */
export const threadQuery = z.object({
  limit: intQuery(1, THREAD_PAGE_MAX).default(THREAD_PAGE_DEFAULT),
  before: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, 'must be a comment id')
    .transform(Number)
    .optional(),
  // The thread's order (docs/product.md, "Comments"); a 400 names a value that is not one of them.
  sort: z
    .enum(COMMENT_SORTS, {
      error: (issue) =>
        `must be ${COMMENT_SORTS.join(', ')}, not ${JSON.stringify(String(issue.input)).slice(0, 60)}`,
    })
    .default(DEFAULT_COMMENT_SORT),
});

/** `?after=`: the last thread change a page has (0: none). */
export const threadChangesQuery = z.object({
  after: z
    .string({ error: 'must be a change id' })
    .regex(/^(0|[1-9]\d{0,15})$/, 'must be a change id')
    .transform(Number),
});

/** A stream's `?after=` (the thread page's X-Thread-Event); Last-Event-ID takes over on reconnects. */
export const threadStreamQuery = z.object({ after: threadChangesQuery.shape.after.optional() });

/** Ids separated by commas, each once, at most `max` of them ("post", "comment": what they name). */
function idList(what: string, max: number) {
  const message = `must be ${what} ids separated by commas`;
  return z
    .string({ error: message })
    .regex(/^[1-9]\d{0,15}(,[1-9]\d{0,15})*$/, message)
    .transform((list) => [...new Set(list.split(',').map(Number))])
    .pipe(z.array(z.number()).max(max, `must name at most ${max} ${what}s`));
}

/** `?ids=4,5,6`: the new top-level comments a page shows (up to NEW_COMMENTS_PER_REQUEST_MAX). */
export const commentIdsQuery = z.object({ ids: idList('comment', NEW_COMMENTS_PER_REQUEST_MAX) });

/** `?posts=1,2,3` (up to THREADS_PER_REQUEST_MAX post ids, each once) and the page's `?limit=`. */
export const threadsQuery = z.object({
  posts: idList('post', THREADS_PER_REQUEST_MAX),
  limit: threadQuery.shape.limit,
});

// Any text of a sane length may be looked up; one that matches no post is simply a 404.
export const slugParam = z.object({
  slug: z.string().min(1).max(200, 'must be at most 200 characters'),
});

const id = z
  .string()
  .regex(/^[1-9]\d{0,15}$/, 'must be a positive integer')
  .transform(Number);
export const postIdParam = z.object({ postId: id });
export const commentIdParam = z.object({ commentId: id });
export const reportIdParam = z.object({ reportId: id });
export const auditIdParam = z.object({ auditId: id });
/** A Firebase uid: 1 to 128 characters. */
export const uidParam = z.object({ uid: z.string().min(1).max(128, 'must be at most 128 characters') });

/** Comment text: plain text, trimmed, not blank, at most COMMENT_MAX_LENGTH characters. */
export const commentContent = z
  .string({ error: 'must be a string' })
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(1, 'must not be blank')
      .max(COMMENT_MAX_LENGTH, `must be at most ${COMMENT_MAX_LENGTH} characters`),
  );

export const newCommentBody = z.object({
  content: commentContent,
  parentCommentId: z.number().int().positive().nullable().default(null),
});

/** An email address: trimmed, and lowercased so one address is one address. */
const emailAddress = z
  .string({ error: 'must be a valid email address' })
  .trim()
  .toLowerCase()
  .pipe(z.email('must be a valid email address').max(254, 'must be at most 254 characters'));

/** POST /api/account/deletion-requests: anyone may ask for an account's erasure by its address. */
export const deletionRequestBody = z.object({
  email: emailAddress,
  reason: z.string().trim().max(DELETION_REASON_MAX).nullable().default(null),
  additionalInfo: z
    .string()
    .trim()
    .max(DELETION_INFO_MAX, `must be at most ${DELETION_INFO_MAX} characters`)
    .nullable()
    .default(null),
  confirmed: z.literal(true, 'must be true: confirm that you understand deletion is permanent'),
});

export const editCommentBody = z.object({ content: commentContent });

/** A moderator's written reason: trimmed, not blank, at most MODERATION_REASON_MAX characters. */
const reason = z
  .string({ error: 'must be a string: say why' })
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(1, 'must not be blank: say why')
      .max(MODERATION_REASON_MAX, `must be at most ${MODERATION_REASON_MAX} characters`),
  );
/** A reason that may be left out (blank counts as none). */
const optionalReason = z
  .string({ error: 'must be a string or null' })
  .trim()
  .max(MODERATION_REASON_MAX, `must be at most ${MODERATION_REASON_MAX} characters`)
  .nullable()
  .default(null)
  .transform((s) => s || null);

/** DELETE /api/blog/comments/:commentId: a moderator removing someone else's comment says why. */
export const deleteCommentBody = z.object({ reason: optionalReason });
/** POST /api/admin/publish/rollback: an admin may say why (kept in the audit log). */
export const rollbackBody = z.object({ reason: optionalReason });

const categoryList = REPORT_CATEGORIES.join(', ');
export const newReportBody = z.object({
  category: z.enum(REPORT_CATEGORIES, { error: `must be one of ${categoryList}` }),
  note: z
    .string({ error: 'must be a string or null' })
    .trim()
    .max(REPORT_NOTE_MAX, `must be at most ${REPORT_NOTE_MAX} characters`)
    .nullable()
    .default(null)
    .transform((s) => s || null),
});

export const reportStatusQuery = z.object({
  status: z.enum(['open', 'resolved'], { error: 'must be open or resolved' }).default('open'),
});

export const resolveBody = z.object({
  action: z.enum(['remove', 'restore', 'dismiss'], { error: 'must be remove, restore or dismiss' }),
  reason,
});

export const reviewBody = z.object({
  action: z.enum(['approve', 'reject'], { error: 'must be approve or reject' }),
  reason: optionalReason,
});

const daysRule = `must be a whole number of days from 1 to ${SUSPENSION_DAYS_MAX}, or null (until lifted)`;
export const suspendBody = z.object({
  days: z
    .number({ error: daysRule })
    .int(daysRule)
    .min(1, daysRule)
    .max(SUSPENSION_DAYS_MAX, daysRule)
    .nullable(),
  reason,
});

export const liftBody = z.object({ reason });

/** A page of a log, newest first: `?limit=` (1 to 100, default 50) and `?before=<id>`. */
function logPageQuery(idRule: string) {
  return z.object({
    limit: intQuery(1, 100).default(50),
    before: z
      .string()
      .regex(/^[1-9]\d{0,15}$/, idRule)
      .transform(Number)
      .optional(),
  });
}

export const auditQuery = logPageQuery('must be an entry id');
export const outboxQuery = logPageQuery('must be a message id');

export const deletionRequestIdParam = z.object({ requestId: id });

/** DELETE /api/account: the account's address, typed to confirm (compared without case). */
export const accountDeleteBody = z.object({
  confirmEmail: z
    .string({ error: "must be a string: type your account's email address to confirm" })
    .trim()
    .min(1, "must not be blank: type your account's email address to confirm")
    .max(254, 'must be at most 254 characters'),
});

export const threadNotificationsBody = z.object({
  subscribed: z.boolean({ error: 'must be true or false' }),
});

const linkToken = z
  .string({ error: 'must be the token from the link' })
  .regex(LINK_TOKEN_PATTERN, 'must be the token from the link (64 hexadecimal characters)');
const scope = z.enum(UNSUBSCRIBE_SCOPES, { error: 'must be thread or all' });

export const confirmEmailBody = z.object({ token: linkToken });
export const unsubscribeBody = z.object({ token: linkToken, scope });
/** A mail client's one-click POST carries the token and scope in the address (RFC 8058). */
export const oneClickQuery = z.object({ token: linkToken, scope });

/** GET /api/recalls: `?limit=` from 1 to RECALLS_LIMIT_MAX. */
export const recallsQuery = z.object({
  limit: intQuery(1, RECALLS_LIMIT_MAX).default(RECALLS_LIMIT_DEFAULT),
});

export const recallMatchIdParam = z.object({ matchId: id });

/**
 * A moderator's decision on a possible recall (docs/product.md, "Recall screening"): a confirmation
 * may say why, a dismissal must, since the pair is never raised again.
 */
export const recallResolveBody = z
  .object({
    action: z.enum(['confirm', 'dismiss'], { error: 'must be confirm or dismiss' }),
    reason: optionalReason,
  })
  .superRefine((body, ctx) => {
    if (body.action === 'dismiss' && body.reason === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: 'must not be blank: say why you dismiss it',
      });
    }
  });

/** What a deletion request holds once validated. */
export type DeletionRequestInput = z.output<typeof deletionRequestBody>;

// ---- The studio's posts (docs/product.md, "The studio") ---------------------------------------

// Its imports are here so the block stays whole.
import {
  IMAGE_ALT_MAX,
  POST_EXCERPT_MAX,
  POST_MARKDOWN_MAX,
  POST_STATUSES,
  POST_TITLE_MAX,
  SLUG_MAX,
  SLUG_PATTERN,
} from '../contract/studio.ts';

const slugRule = `must be lowercase letters and digits joined by single hyphens, at most ${SLUG_MAX} characters`;
const postSlug = z.string({ error: slugRule }).trim().max(SLUG_MAX, slugRule).regex(SLUG_PATTERN, slugRule);

/** A featured image: an address on this site (an upload, a file in public/) or an https address. */
const imageAddress = z
  .string({ error: 'must be an address starting with / or https://, or null' })
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .regex(/^(?:\/(?!\/)|https:\/\/)\S+$/, 'must be an address starting with / or https://, or null');

const studioPostShape = {
  title: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be blank')
    .max(POST_TITLE_MAX, `must be at most ${POST_TITLE_MAX} characters`),
  excerpt: z
    .string({ error: 'must be a string' })
    .trim()
    .max(POST_EXCERPT_MAX, `must be at most ${POST_EXCERPT_MAX} characters`),
  markdown: z
    .string({ error: 'must be a string' })
    .max(POST_MARKDOWN_MAX, `must be at most ${POST_MARKDOWN_MAX} characters`),
  categories: z
    .array(z.string({ error: 'must be category slugs' }).regex(SLUG_PATTERN, 'must be category slugs'), {
      error: 'must be a list of category slugs',
    })
    .max(20, 'must be at most 20 categories')
    .transform((slugs) => [...new Set(slugs)]),
  kind: z.enum(['article', 'discussion'], { error: 'must be article or discussion' }),
  featured: z.boolean({ error: 'must be true or false' }),
  featuredImageUrl: imageAddress.nullable().default(null),
  featuredImageAlt: z
    .string({ error: 'must be a string or null' })
    .trim()
    .max(IMAGE_ALT_MAX, `must be at most ${IMAGE_ALT_MAX} characters`)
    .nullable()
    .default(null)
    .transform((s) => s || null),
};

/** A featured image needs its alt text; without an image, no alt text is kept. */
function imageNeedsAlt<T extends { featuredImageUrl: string | null; featuredImageAlt: string | null }>(
  post: T,
  ctx: z.RefinementCtx,
): void {
  if (post.featuredImageUrl !== null && post.featuredImageAlt === null) {
    ctx.addIssue({
      code: 'custom',
      path: ['featuredImageAlt'],
      message: 'must not be blank when there is a featured image: describe it for readers who cannot see it',
    });
  }
}
const withoutStrayAlt = <T extends { featuredImageUrl: string | null; featuredImageAlt: string | null }>(
  post: T,
): T => (post.featuredImageUrl === null ? { ...post, featuredImageAlt: null } : post);

/** POST /api/studio/posts: a new post; the slug is made from the title when left out. */
export const newStudioPostBody = z
  .object({ ...studioPostShape, slug: postSlug.nullable().default(null) })
  .superRefine(imageNeedsAlt)
  .transform(withoutStrayAlt);

/** PUT /api/studio/posts/:postId: the whole post and the revision the editor started from. */
export const saveStudioPostBody = z
  .object({
    ...studioPostShape,
    slug: postSlug,
    baseRevision: z
      .number({ error: 'must be the revision you started from' })
      .int('must be the revision you started from')
      .min(0, 'must be the revision you started from'),
  })
  .superRefine(imageNeedsAlt)
  .transform(withoutStrayAlt);

/** POST /api/studio/posts/:postId/publish: now, or at a time with its offset (stored in UTC). */
export const publishStudioPostBody = z.object({
  at: z.iso
    .datetime({
      offset: true,
      error: 'must be an ISO 8601 time with its offset, e.g. 2026-12-01T09:00:00+01:00',
    })
    .nullable()
    .default(null),
});

export const studioPostsQuery = z.object({
  status: z.enum(POST_STATUSES, { error: `must be one of ${POST_STATUSES.join(', ')}` }).optional(),
});

export const studioRevisionParam = z.object({
  postId: id,
  revision: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, 'must be a revision number')
    .transform(Number),
});

export const releaseIdParam = z.object({ releaseId: id });

/** POST /api/studio/render: the editor's live preview. */
export const renderBody = z.object({ markdown: studioPostShape.markdown });

// ---- People and roles (docs/product.md, "Roles") -------------------------------------------------

/** GET /api/admin/people?email=: the person who signed in with that address. */
export const personQuery = z.object({ email: emailAddress });

/** PUT /api/admin/people/role: give the person with that address a role. */
export const roleChangeBody = z.object({
  email: emailAddress,
  role: z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` }),
});

// Its imports are here so the block stays whole.
import { LISTING_DECISIONS, LISTING_ID_MAX, LISTING_TEXT_MAX } from '../contract/screening.ts';

/** /api/moderation/listings/:itemId */
export const listingIdParam = z.object({
  itemId: z
    .string()
    .min(1, 'must not be empty')
    .max(LISTING_ID_MAX, `must be at most ${LISTING_ID_MAX} characters`),
});

/** A moderator's decision on a listing: a block says why; a new age group names it. */
export const listingDecisionBody = z
  .object({
    decision: z.enum(LISTING_DECISIONS, { error: `must be one of ${LISTING_DECISIONS.join(', ')}` }),
    reason: optionalReason,
    ageGroup: z
      .string({ error: 'must be a string or null' })
      .trim()
      .max(LISTING_TEXT_MAX, `must be at most ${LISTING_TEXT_MAX} characters`)
      .nullable()
      .default(null)
      .transform((s) => s || null),
  })
  .refine((b) => b.decision !== 'block' || b.reason !== null, {
    path: ['reason'],
    message: 'must not be blank: say why the listing is blocked',
  })
  .refine((b) => b.decision !== 'reage' || b.ageGroup !== null, {
    path: ['ageGroup'],
    message: 'must name the age group the listing belongs in',
  });
