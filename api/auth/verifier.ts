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
  return async (token) => {
    try {
      const decoded = await auth.verifyIdToken(token);
      return {
        uid: decoded.uid,
        email: decoded.email ?? null,
        name: typeof decoded.name === 'string' ? decoded.name : null,
        picture: decoded.picture ?? null,
      };
    } catch (error) {
      throw new InvalidTokenError((error as Error).message);
    }
  };
}
