// The one mapping from the identity provider's error codes to what a parent reads
// (docs/product.md, "Sign-in and demo mode"): no raw code ever reaches the screen.
import { FirebaseError } from 'firebase/app';
import { describe, expect, it } from 'vitest';
import {
  authErrorCode,
  authErrorMessage,
  EMAIL_IN_USE_MESSAGE,
  GENERIC_AUTH_MESSAGE,
  INCORRECT_CREDENTIALS_MESSAGE,
} from '../../src/lib/auth-messages.ts';
import { AuthError } from '../../src/stores/auth.ts';

const firebase = (code: string) => new FirebaseError(code, `Firebase: Error (${code}).`);

describe('authErrorMessage', () => {
  it('reads a wrong password and an unknown email the same, with and without enumeration protection', () => {
    for (const code of [
      'auth/invalid-credential',
      'auth/invalid-login-credentials',
      'auth/wrong-password',
      'auth/user-not-found',
    ]) {
      expect(authErrorMessage(firebase(code))).toBe(INCORRECT_CREDENTIALS_MESSAGE);
    }
    expect(INCORRECT_CREDENTIALS_MESSAGE).toBe('Incorrect email or password');
  });

  it('says an account exists for email-already-in-use', () => {
    expect(authErrorMessage(firebase('auth/email-already-in-use'))).toBe(EMAIL_IN_USE_MESSAGE);
  });

  it('gives plain sentences for throttling, the network and weak passwords', () => {
    expect(authErrorMessage(firebase('auth/too-many-requests'))).toBe(
      'Too many attempts. Please wait a few minutes, then try again.',
    );
    expect(authErrorMessage(firebase('auth/network-request-failed'))).toBe(
      'We could not reach the sign-in service. Please check your connection and try again.',
    );
    expect(authErrorMessage(firebase('auth/weak-password'))).toBe(
      'That password is too short. Please use at least 6 characters.',
    );
    expect(
      authErrorMessage(new AuthError('auth/not-initialized', 'Authentication is not initialised yet')),
    ).toBe('Sign-in is still starting. Please try again in a moment.');
  });

  it('never shows a code or the provider’s own text: unknown codes and plain errors read as the fallback', () => {
    expect(authErrorMessage(firebase('auth/some-future-code'))).toBe(GENERIC_AUTH_MESSAGE);
    expect(authErrorMessage(firebase('auth/some-future-code'), 'Failed to sign in')).toBe(
      'Failed to sign in',
    );
    expect(authErrorMessage(new TypeError('Failed to fetch dynamically imported module'))).toBe(
      GENERIC_AUTH_MESSAGE,
    );
    expect(authErrorMessage('auth/wrong-password')).toBe(GENERIC_AUTH_MESSAGE);
    expect(authErrorMessage(null)).toBe(GENERIC_AUTH_MESSAGE);
    // Codes are looked up as data, not as properties of an object.
    expect(authErrorMessage({ code: 'constructor' })).toBe(GENERIC_AUTH_MESSAGE);
    expect(authErrorMessage({ code: 'toString' })).toBe(GENERIC_AUTH_MESSAGE);
  });

  it('every message is a sentence, not a code', () => {
    const codes = [
      'auth/invalid-credential',
      'auth/email-already-in-use',
      'auth/invalid-email',
      'auth/weak-password',
      'auth/password-does-not-meet-requirements',
      'auth/too-many-requests',
      'auth/network-request-failed',
      'auth/user-disabled',
      'auth/popup-closed-by-user',
      'auth/some-future-code',
    ];
    for (const code of codes) {
      const message = authErrorMessage(firebase(code));
      expect(message).not.toMatch(/auth\/|firebase|[a-z]+-[a-z]+-/i);
      expect(message).toMatch(/^[A-Z].*\S$/);
    }
  });
});

describe('authErrorCode', () => {
  it('reads the code of Firebase errors and ours, and nothing else', () => {
    expect(authErrorCode(firebase('auth/invalid-credential'))).toBe('auth/invalid-credential');
    expect(authErrorCode(new AuthError('DEMO_MODE'))).toBe('DEMO_MODE');
    expect(authErrorCode(new Error('plain'))).toBeUndefined();
    expect(authErrorCode(undefined)).toBeUndefined();
  });
});
