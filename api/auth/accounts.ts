import { DEMO_USER } from '../contract.ts';
import { firebaseAuth, forgetVerifiedTokens } from './verifier.ts';

/** The sign-in accounts (Firebase Authentication), as account erasure needs them. */
export interface AccountDirectory {
  /** The uid of the sign-in account with this address, or null when there is none. */
  findByEmail: (email: string) => Promise<string | null>;
  /** Deletes the sign-in account (one already gone is fine); its tokens stop working at once. */
  deleteUser: (uid: string) => Promise<void>;
}

/** Refused: this process cannot reach the sign-in accounts (the build; tests that do not need them). */
export class AccountsUnavailableError extends Error {}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

/** Firebase's accounts through the Admin SDK (the Auth emulator when FIREBASE_AUTH_EMULATOR_HOST is set). */
export function createFirebaseAccounts(projectId: string): AccountDirectory {
  const auth = firebaseAuth(projectId);
  return {
    async findByEmail(email) {
      try {
        return (await auth.getUserByEmail(email)).uid;
      } catch (error) {
        if (codeOf(error) === 'auth/user-not-found') return null;
        throw error;
      }
    },
    async deleteUser(uid) {
      forgetVerifiedTokens(projectId, uid);
      try {
        await auth.deleteUser(uid);
      } catch (error) {
        if (codeOf(error) !== 'auth/user-not-found') throw error;
      }
    },
  };
}

/** Demo mode has one account, the demo parent's, which lives in the browser: nothing to delete. */
export const DEMO_ACCOUNTS: AccountDirectory = {
  findByEmail: async (email) => (email === DEMO_USER.email ? DEMO_USER.uid : null),
  deleteUser: async () => {},
};

export const NO_ACCOUNTS: AccountDirectory = {
  findByEmail: async () => {
    throw new AccountsUnavailableError('Sign-in accounts cannot be reached from this process');
  },
  deleteUser: async () => {
    throw new AccountsUnavailableError('Sign-in accounts cannot be reached from this process');
  },
};
