import { type App, getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';

/** Who a verified ID token belongs to. */
export interface Identity {
  uid: string;
  email: string | null;
  name: string | null;
  picture: string | null;
}

/** Resolves a bearer token to an identity, or throws when the token is not valid. */
export type TokenVerifier = (token: string) => Promise<Identity>;

export class InvalidTokenError extends Error {}

/**
 * Firebase ID token verification (signature, audience = projectId, issuer, expiry) through
 * firebase-admin. firebase-admin accepts the Auth emulator's unsigned tokens only while
 * FIREBASE_AUTH_EMULATOR_HOST is set in the environment, and never otherwise.
 */
export function createFirebaseVerifier(projectId: string): TokenVerifier {
  const name = `nestling-${projectId}`;
  const app: App = getApps().find((a) => a.name === name) ?? initializeApp({ projectId }, name);
  const auth = getAuth(app);
  // A token that verified once stays valid until it expires (revocation is not checked), so a
  // reader's burst of likes and comments pays for verification once. Bounded; cleared when full.
  const verified = new Map<string, { identity: Identity; expiresAt: number }>();
  return async (token) => {
    const hit = verified.get(token);
    if (hit && Date.now() < hit.expiresAt) return hit.identity;
    try {
      const decoded = await auth.verifyIdToken(token);
      const identity: Identity = {
        uid: decoded.uid,
        email: decoded.email ?? null,
        name: typeof decoded.name === 'string' ? decoded.name : null,
        picture: decoded.picture ?? null,
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
