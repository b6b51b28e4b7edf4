import { DEMO_TOKEN, DEMO_USER, isDemoApiKey } from '../contract.ts';
import { type AccountDirectory, createFirebaseAccounts, DEMO_ACCOUNTS } from './accounts.ts';
import type { Env } from '../env.ts';
import { createFirebaseVerifier, type Identity, InvalidTokenError, type TokenVerifier } from './verifier.ts';

/** The demo parent, who stands behind the demo token (docs/product.md, "Demo mode"). */
export const DEMO_IDENTITY: Identity = { ...DEMO_USER, picture: null };

/**
 * The server's token verifier. In demo mode only the fixed demo token is accepted (it stands for
 * the demo parent); otherwise Firebase ID tokens for FIREBASE_PROJECT_ID, and never the demo token.
 */
export function createVerifier(
  env: Pick<Env, 'PUBLIC_FIREBASE_API_KEY' | 'FIREBASE_PROJECT_ID'>,
): TokenVerifier {
  if (isDemoApiKey(env.PUBLIC_FIREBASE_API_KEY)) {
    return async (token) => {
      if (token === DEMO_TOKEN) return DEMO_IDENTITY;
      throw new InvalidTokenError('demo mode accepts only the demo token');
    };
  }
  return createFirebaseVerifier(env.FIREBASE_PROJECT_ID);
}

/** The server's sign-in accounts, for erasure: the demo parent in demo mode, else Firebase's. */
export function createAccounts(
  env: Pick<Env, 'PUBLIC_FIREBASE_API_KEY' | 'FIREBASE_PROJECT_ID'>,
): AccountDirectory {
  return isDemoApiKey(env.PUBLIC_FIREBASE_API_KEY)
    ? DEMO_ACCOUNTS
    : createFirebaseAccounts(env.FIREBASE_PROJECT_ID);
}
