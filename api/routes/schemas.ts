// The zod schemas of the API's inputs. Limits come from the wire contract, so the islands'
// form limits and the API's agree.
import { z } from 'zod';
import {
  COMMENT_MAX_LENGTH,
  DELETION_INFO_MAX,
  DELETION_REASON_MAX,
  LIST_LIMIT_MAX,
  THREAD_PAGE_DEFAULT,
  THREAD_PAGE_MAX,
} from '../contract.ts';

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

export const deletionRequestBody = z.object({
  email: z.email('must be a valid email address').max(254),
  reason: z.string().trim().max(DELETION_REASON_MAX).nullable().default(null),
  additionalInfo: z
    .string()
    .trim()
    .max(DELETION_INFO_MAX, `must be at most ${DELETION_INFO_MAX} characters`)
    .nullable()
    .default(null),
  confirmed: z.literal(true, 'must be true: confirm that you understand deletion is permanent'),
});
