import type { Env } from '../env.ts';
import { DEMO_IDENTITY, DEMO_TOKEN, isDemoApiKey } from './demo.ts';
import { createFirebaseVerifier, InvalidTokenError, type TokenVerifier } from './verifier.ts';

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
