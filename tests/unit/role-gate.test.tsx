// @vitest-environment jsdom
// The door of the screens for some accounts only (account, moderation, publishing, outbox).
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { canModerate, isAdmin } from '../../api/contract.ts';
import { type Access, RoleGate } from '../../src/islands/RoleGate.tsx';
import type { AuthState } from '../../src/stores/auth.ts';

afterEach(cleanup);

const user = {
  uid: 'u1',
  displayName: 'Mo Derator',
  email: 'mo@example.com',
  photoURL: null,
  emailVerified: true,
  isAnonymous: false,
};
const profile = (role: string) => ({
  firebase_uid: 'u1',
  display_name: 'Mo Derator',
  email: 'mo@example.com',
  photo_url: null,
  role,
  user_type: [],
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  suspension: null,
});

function gate(auth: AuthState, access: Access) {
  render(
    <RoleGate auth={auth} access={access} signIn="Sign in with a moderator account." forbidden={<p>403</p>}>
      <p>The console</p>
    </RoleGate>,
  );
  const shown = (text: string) => screen.queryByText(text) !== null;
  return {
    checking: shown('Checking your account…'),
    signIn:
      shown('Sign in with a moderator account.') &&
      screen.queryByRole('button', { name: 'Sign In' }) !== null,
    forbidden: shown('403'),
    allowed: shown('The console'),
  };
}

const none = { checking: false, signIn: false, forbidden: false, allowed: false };
const moderators: Access = { role: canModerate };

describe('RoleGate', () => {
  it('says it is checking while sign-in, and then the profile, loads', () => {
    expect(gate({ user: null, profile: null, loading: true, demoMode: false }, moderators)).toEqual({
      ...none,
      checking: true,
    });
    cleanup();
    expect(gate({ user, profile: null, loading: false, demoMode: false }, moderators)).toEqual({
      ...none,
      checking: true,
    });
  });

  it('asks a signed-out visitor to sign in', () => {
    expect(gate({ user: null, profile: null, loading: false, demoMode: false }, moderators)).toEqual({
      ...none,
      signIn: true,
    });
  });

  it('shows the 403 to the wrong role, and to demo mode whatever its name implies', () => {
    expect(gate({ user, profile: profile('user'), loading: false, demoMode: false }, moderators)).toEqual({
      ...none,
      forbidden: true,
    });
    cleanup();
    expect(
      gate({ user, profile: profile('moderator'), loading: false, demoMode: false }, { role: isAdmin }),
    ).toEqual({
      ...none,
      forbidden: true,
    });
    cleanup();
    expect(gate({ user, profile: null, loading: false, demoMode: true }, moderators)).toEqual({
      ...none,
      forbidden: true,
    });
  });

  it('opens for the right role, and for any signed-in parent where that is all it asks', () => {
    expect(
      gate({ user, profile: profile('moderator'), loading: false, demoMode: false }, moderators),
    ).toEqual({
      ...none,
      allowed: true,
    });
    cleanup();
    expect(gate({ user, profile: null, loading: false, demoMode: false }, 'signed-in')).toEqual({
      ...none,
      allowed: true,
    });
  });
});
