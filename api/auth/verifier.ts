import type { App } from 'firebase-admin/app';
import type { Auth } from 'firebase-admin/auth';
import { lazyModule } from '../lib/lazy-module.ts';

/** Who a verified ID token belongs to. */
export interface Identity {
  uid: string;
  email: string | null;
  name: string | null;
  picture: string | null;
  /** The token's email_verified claim; absent where a verifier does not know it. */
  emailVerified?: boolean;
}

/** Resolves a bearer token to an identity, or throws when the token is not valid. */
export type TokenVerifier = (token: string) => Promise<Identity>;

export class InvalidTokenError extends Error {}

const firebaseApp = lazyModule<typeof import('firebase-admin/app')>('firebase-admin/app');
const firebaseAdminAuth = lazyModule<typeof import('firebase-admin/auth')>('firebase-admin/auth');

/** firebase-admin's Auth for a project (one app per project, shared by verifier and accounts). */
export function firebaseAuth(projectId: string): Auth {
  // Loaded here, when a Firebase verifier or account directory is made (still at start): firebase-admin
  // is a third of a server's start-up CPU, and demo mode and the commands never use it.
  const { getApps, initializeApp } = firebaseApp();
  const { getAuth } = firebaseAdminAuth();
  const name = `nestling-${projectId}`;
  const app: App = getApps().find((a) => a.name === name) ?? initializeApp({ projectId }, name);
  return getAuth(app);
}

type Verified = Map<string, { identity: Identity; expiresAt: number }>;
/** Tokens that verified, per project: kept until they expire or their account is deleted. */
const verifiedByProject = new Map<string, Verified>();

function verifiedTokens(projectId: string): Verified {
  let verified = verifiedByProject.get(projectId);
  if (!verified) verifiedByProject.set(projectId, (verified = new Map()));
  return verified;
}

/** A deleted account's tokens stop working here at once (api/auth/accounts.ts calls it). */
export function forgetVerifiedTokens(projectId: string, uid: string): void {
  const verified = verifiedTokens(projectId);
  for (const [token, entry] of verified) if (entry.identity.uid === uid) verified.delete(token);
}

/**
 * Firebase ID token verification (signature, audience = projectId, issuer, expiry, and that the
 * account still exists and is not disabled or revoked) through firebase-admin. firebase-admin
 * accepts the Auth emulator's unsigned tokens only while FIREBASE_AUTH_EMULATOR_HOST is set in
 * the environment, and never otherwise.
 */
export function createFirebaseVerifier(projectId: string): TokenVerifier {
  const auth = firebaseAuth(projectId);
  // A token that verified once stays valid until it expires or its account is deleted here, so a
  // reader's burst of likes and comments pays for verification once. Bounded; cleared when full.
  const verified = verifiedTokens(projectId);
  return async (token) => {
    const hit = verified.get(token);
    if (hit && Date.now() < hit.expiresAt) return hit.identity;
    try {
      const decoded = await verifyExisting(auth, token);
      const identity: Identity = {
        uid: decoded.uid,
        email: decoded.email ?? null,
        name: typeof decoded.name === 'string' ? decoded.name : null,
        picture: decoded.picture ?? null,
        emailVerified: decoded.email_verified === true,
      };
      if (verified.size >= MAX_CACHED_TOKENS) verified.clear();
      verified.set(token, { identity, expiresAt: decoded.exp * 1000 });
      return identity;
    } catch (error) {
      verified.delete(token);
      throw new InvalidTokenError((error as Error).message);
    }
  };
}

const MAX_CACHED_TOKENS = 10_000;

/** The answers that mean the account itself is gone, disabled or signed out everywhere. */
const ACCOUNT_REFUSED = new Set(['auth/user-not-found', 'auth/user-disabled', 'auth/id-token-revoked']);
let warnedUnchecked = false;

/**
 * Verifies a token and that its account still exists (checkRevoked): an erased account's
 * unexpired token must not sign it back in and re-create its profile. That costs one Admin API
 * lookup per new token and needs the server's Admin credentials; a server that cannot look
 * accounts up still accepts a validly signed token (and says so once in its log), rather than
 * refusing every sign-in.
 */
async function verifyExisting(auth: Auth, token: string) {
  try {
    return await auth.verifyIdToken(token, true);
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
    if (ACCOUNT_REFUSED.has(code)) throw error;
    const decoded = await auth.verifyIdToken(token);
    if (!warnedUnchecked) {
      warnedUnchecked = true;
      console.warn(
        `Cannot check that accounts still exist (${(error as Error).message}); tokens are checked by signature only.`,
      );
    }
    return decoded;
  }
}
