// @vitest-environment jsdom
// The auth store's transitions in the default (demo) configuration: PUBLIC_FIREBASE_API_KEY is
// unset, so the identity provider is not configured (docs/product.md).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO_TOKEN, DEMO_USER } from '../../api/contract.ts';

type AuthModule = typeof import('../../src/stores/auth.ts');

/** A fresh module, as on a new page load. */
async function freshStore(): Promise<AuthModule> {
  vi.resetModules();
  return import('../../src/stores/auth.ts');
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('auth store in demo configuration', () => {
  it('is demo-configured and starts loading and signed out, without reading storage', async () => {
    localStorage.setItem('nestling:demo', '1');
    const auth = await freshStore();
    expect(auth.isDemoConfigured()).toBe(true);
    expect(auth.$auth.get()).toEqual({ user: null, profile: null, loading: true, demoMode: false });
  });

  it('initAuth leaves visitors signed out and stops loading; it is idempotent', async () => {
    const auth = await freshStore();
    auth.initAuth();
    expect(auth.$auth.get()).toEqual({ user: null, profile: null, loading: false, demoMode: false });
    auth.initAuth();
    expect(auth.$auth.get().user).toBeNull();
    expect(await auth.getIdToken()).toBeNull();
  });

  it('signing in raises DEMO_MODE', async () => {
    const auth = await freshStore();
    auth.initAuth();
    await expect(auth.signInWithGoogle()).rejects.toMatchObject({ code: 'DEMO_MODE', message: 'DEMO_MODE' });
    await expect(auth.lookUpEmail('a@b.example')).rejects.toMatchObject({ code: 'DEMO_MODE' });
    await expect(auth.signInWithEmail('a@b.example', 'pw')).rejects.toMatchObject({ code: 'DEMO_MODE' });
    await expect(auth.createAccount('a@b.example', 'pw')).rejects.toMatchObject({ code: 'DEMO_MODE' });
  });

  it('startDemoMode sets the demo user and profile, and the demo token', async () => {
    const auth = await freshStore();
    auth.initAuth();
    auth.startDemoMode();
    const state = auth.$auth.get();
    expect(state.demoMode).toBe(true);
    expect(state.loading).toBe(false);
    expect(state.user).toEqual({
      uid: DEMO_USER.uid,
      displayName: 'Demo Parent',
      email: DEMO_USER.email,
      photoURL: null,
      emailVerified: true,
      isAnonymous: false,
    });
    expect(state.profile).toMatchObject({
      firebase_uid: 'demo-user',
      display_name: 'Demo Parent',
      email: DEMO_USER.email,
      photo_url: null,
      role: 'user',
      user_type: ['buyer'],
    });
    expect(Number.isNaN(Date.parse(state.profile!.created_at))).toBe(false);
    expect(await auth.getIdToken()).toBe(DEMO_TOKEN);
    expect(localStorage.getItem('nestling:demo')).toBe('1');
    // Sign-in still raises DEMO_MODE; sign-out does nothing.
    await expect(auth.signInWithGoogle()).rejects.toMatchObject({ code: 'DEMO_MODE' });
    await auth.signOut();
    expect(auth.$auth.get().demoMode).toBe(true);
  });

  it('exitDemoMode clears user, profile, demo mode and the flag', async () => {
    const auth = await freshStore();
    auth.initAuth();
    auth.startDemoMode();
    auth.exitDemoMode();
    expect(auth.$auth.get()).toEqual({ user: null, profile: null, loading: false, demoMode: false });
    expect(localStorage.getItem('nestling:demo')).toBeNull();
    expect(await auth.getIdToken()).toBeNull();
  });

  it('the demo flag restores the demo user on the next page load', async () => {
    const first = await freshStore();
    first.initAuth();
    first.startDemoMode();

    const second = await freshStore();
    expect(second.$auth.get().loading).toBe(true);
    second.initAuth();
    expect(second.$auth.get()).toMatchObject({
      loading: false,
      demoMode: true,
      user: { uid: 'demo-user', displayName: 'Demo Parent' },
    });

    second.exitDemoMode();
    const third = await freshStore();
    third.initAuth();
    expect(third.$auth.get().user).toBeNull();
  });
});
