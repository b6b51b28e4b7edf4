// What the comment islands tell people when something fails (docs/product.md).
import type { Reply } from '../../../api/contract.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';

export const SUBMIT_FAILED = 'Failed to submit comment. Please try again.';
export const LOAD_FAILED = 'Failed to load comments';

/** What to announce after posting: a comment waiting for review says so. */
export const postedMessage = (comment: Reply, what: 'comment' | 'reply') =>
  comment.status === 'pending'
    ? `Your ${what} is awaiting review: it will appear for others once a moderator approves it.`
    : `Your ${what} was posted.`;

/**
 * A failed post: the server's own sentence when it says what to do (wait when rate limited, why
 * and until when when suspended, why a reply is refused), else the product's.
 */
export function submitErrorMessage(error: unknown): string {
  return error instanceof ApiError && [403, 409, 429].includes(error.status)
    ? errorMessage(error)
    : SUBMIT_FAILED;
}

/**
 * What a suspended parent reads in place of the comment box, before they type: until when (the
 * date in their own time zone) and why. The API refuses their writes with the same words.
 */
export function suspendedNotice(until: string | null, reason: string): string {
  return `Your account is suspended ${until ? `until ${until}` : 'until a moderator lifts it'} (${reason}). You can still read, but you cannot comment, reply, like or report while it lasts.`;
}

// What a thread shows in place of a comment that is not visible (docs/product.md, "Trust and safety").
export const HELD_PLACEHOLDER = 'This comment is hidden while a moderator reviews it.';
export const REMOVED_PLACEHOLDER = 'This comment was removed by a moderator.';
export const DELETED_PLACEHOLDER = 'This comment was deleted.';
export const AWAITING_REVIEW = 'Awaiting review';

export const DEMO_MODE_MESSAGE =
  'Demo mode is active: Google authentication is not configured in this environment. You can try commenting with a sample account instead.';

/** The comment card's sign-in messages (docs/product.md). */
export function signInErrorMessage(error: unknown): { message: string; demo: boolean } {
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  switch (code) {
    case 'DEMO_MODE':
      return { message: DEMO_MODE_MESSAGE, demo: true };
    case 'auth/popup-blocked':
      return { message: 'Popup was blocked. Please allow popups for this site and try again.', demo: false };
    case 'auth/popup-closed-by-user':
    case 'auth/cancelled-popup-request':
      return { message: 'Sign in was cancelled. Please try again.', demo: false };
    case 'auth/unauthorized-domain':
      return {
        message: 'This domain is not authorized for authentication. Please contact support.',
        demo: false,
      };
    default:
      return { message: 'Failed to sign in. Please try again.', demo: false };
  }
}
