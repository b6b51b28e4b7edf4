// What a parent reads when sign-in fails (docs/product.md, "Sign-in and demo mode"). The identity
// provider's codes and texts are for developers: every failure the dialog shows goes through
// authErrorMessage, so no raw code ever reaches the screen. Imports nothing, so the dialog can
// use it without loading the provider's SDK.

export const INCORRECT_CREDENTIALS_MESSAGE = 'Incorrect email or password';
export const EMAIL_IN_USE_MESSAGE = 'An account already exists for this email.';
/** The password step's line for an email the provider says has no account (protection off). */
export const NO_ACCOUNT_MESSAGE = 'No account found. Please create a password for your new account.';
export const GENERIC_AUTH_MESSAGE = 'Something went wrong. Please try again.';
const TOO_MANY_MESSAGE = 'Too many attempts. Please wait a few minutes, then try again.';
const POPUP_CLOSED_MESSAGE = 'The Google window was closed before signing in finished.';

const MESSAGES = new Map<string, string>(
  Object.entries({
    // With email enumeration protection Firebase answers invalid-credential for a wrong password and
    // an unknown email alike; without it, wrong-password and user-not-found. All read the same.
    'auth/invalid-credential': INCORRECT_CREDENTIALS_MESSAGE,
    'auth/invalid-login-credentials': INCORRECT_CREDENTIALS_MESSAGE,
    'auth/wrong-password': INCORRECT_CREDENTIALS_MESSAGE,
    'auth/user-not-found': INCORRECT_CREDENTIALS_MESSAGE,
    'auth/email-already-in-use': EMAIL_IN_USE_MESSAGE,
    'auth/account-exists-with-different-credential':
      'This email already has an account that signs in another way. Please sign in with your email and password.',
    'auth/invalid-email': 'Please enter a valid email address.',
    'auth/weak-password': 'That password is too short. Please use at least 6 characters.',
    'auth/password-does-not-meet-requirements':
      'That password is not strong enough. Please use a longer password with a mix of letters, numbers and symbols.',
    'auth/too-many-requests': TOO_MANY_MESSAGE,
    'auth/quota-exceeded': TOO_MANY_MESSAGE,
    'auth/network-request-failed':
      'We could not reach the sign-in service. Please check your connection and try again.',
    'auth/timeout': 'The sign-in service took too long to answer. Please try again.',
    'auth/user-disabled': 'This account has been disabled.',
    'auth/popup-closed-by-user': POPUP_CLOSED_MESSAGE,
    'auth/cancelled-popup-request': POPUP_CLOSED_MESSAGE,
    'auth/user-cancelled': 'Signing in was cancelled.',
    'auth/web-storage-unsupported':
      'Your browser is blocking what signing in needs to store. Please allow site data for this site and try again.',
    'auth/not-initialized': 'Sign-in is still starting. Please try again in a moment.',
  }),
);

/** The error's code (Firebase's `auth/...`, our own DEMO_MODE), if it has one. */
export function authErrorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

/** A plain sentence for a failed sign-in step: the known codes' own, else `fallback`. */
export function authErrorMessage(error: unknown, fallback = GENERIC_AUTH_MESSAGE): string {
  const code = authErrorCode(error);
  return (code !== undefined && MESSAGES.get(code)) || fallback;
}
