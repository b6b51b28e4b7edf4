// The one auth store every island shares (docs/product.md: sign-in, popup or redirect, demo
// mode). The Firebase SDK is imported lazily: only for a visitor who
// opens sign-in, or who already has a session (a small localStorage hint), so anonymous readers
// never download it.
import type { Auth, User } from 'firebase/auth';
import { map } from 'nanostores';
import {
  basicDisplayName,
  DEMO_TOKEN,
  DEMO_USER,
  isDemoApiKey,
  type ProfileAnswer,
} from '../../api/contract.ts';
import { AUTH_INIT_INTERVAL_MS, AUTH_INIT_TRIES, POST_REDIRECT_WAIT_MS } from '../config.ts';
import { api, read, withToken } from '../lib/api.ts';
import { authErrorCode } from '../lib/auth-messages.ts';

export type Profile = ProfileAnswer;

/** The signed-in user as the product uses it (docs/product.md). */
export interface AuthUser {
  uid: string;
  displayName: string | null;
  email: string | null;
  photoURL: string | null;
  emailVerified: boolean;
  isAnonymous: boolean;
}

export interface AuthState {
  user: AuthUser | null;
  profile: Profile | null;
  /** True until the first auth state answer. */
  loading: boolean;
  demoMode: boolean;
}

// Never read browser storage here: islands render this value on the server and must hydrate it.
export const $auth = map<AuthState>({ user: null, profile: null, loading: true, demoMode: false });

const SESSION_HINT = 'nestling:session';
const DEMO_FLAG = 'nestling:demo';
const REDIRECT_PATH = 'nestling:redirectPath';
const PENDING_REDIRECT = 'nestling:pendingRedirect';

/** An error with a code, like Firebase's (`auth/...`) and our own DEMO_MODE. */
export class AuthError extends Error {
  constructor(
    readonly code: string,
    message = code,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

const env = import.meta.env;
/** An API key beginning with "demo-" (or none) means the identity provider is not configured. */
export function isDemoConfigured(): boolean {
  return isDemoApiKey(env.PUBLIC_FIREBASE_API_KEY);
}

const storage = {
  get(area: 'local' | 'session', key: string): string | null {
    try {
      return (area === 'local' ? localStorage : sessionStorage).getItem(key);
    } catch {
      return null;
    }
  },
  set(area: 'local' | 'session', key: string, value: string | null): void {
    try {
      const s = area === 'local' ? localStorage : sessionStorage;
      if (value === null) s.removeItem(key);
      else s.setItem(key, value);
    } catch {
      // Private browsing without storage: the session simply is not remembered.
    }
  },
};

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function demoUser(): AuthUser {
  return {
    uid: DEMO_USER.uid,
    displayName: DEMO_USER.name,
    email: DEMO_USER.email,
    photoURL: null,
    emailVerified: true,
    isAnonymous: false,
  };
}

function demoProfile(): Profile {
  const now = new Date().toISOString();
  return {
    firebase_uid: DEMO_USER.uid,
    display_name: DEMO_USER.name,
    email: DEMO_USER.email,
    photo_url: null,
    role: 'user',
    user_type: ['buyer'],
    created_at: now,
    updated_at: now,
    suspension: null,
  };
}

// ---- Firebase, loaded on demand --------------------------------------------------------------

type FirebaseAuthModule = typeof import('firebase/auth');
let firebase: Promise<{ auth: Auth; sdk: FirebaseAuthModule }> | null = null;
let unsubscribe: (() => void) | null = null;
/** Set once the provider has given its first auth state answer. */
let stateKnown = false;

function loadFirebase(): Promise<{ auth: Auth; sdk: FirebaseAuthModule }> {
  firebase ??= (async () => {
    const [{ initializeApp }, sdk] = await Promise.all([import('firebase/app'), import('firebase/auth')]);
    const app = initializeApp({
      apiKey: env.PUBLIC_FIREBASE_API_KEY as string,
      authDomain: env.PUBLIC_FIREBASE_AUTH_DOMAIN as string,
      projectId: env.PUBLIC_FIREBASE_PROJECT_ID as string,
      appId: env.PUBLIC_FIREBASE_APP_ID as string,
    });
    const auth = sdk.getAuth(app);
    const emulator = env.PUBLIC_FIREBASE_AUTH_EMULATOR_HOST as string | undefined;
    if (emulator) sdk.connectAuthEmulator(auth, `http://${emulator}`, { disableWarnings: true });
    await sdk.setPersistence(auth, sdk.browserLocalPersistence);
    unsubscribe = sdk.onAuthStateChanged(auth, (user) => {
      stateKnown = true;
      void applyUser(user);
    });
    return { auth, sdk };
  })();
  return firebase;
}

/** The provider is ready once its first auth state is known: up to 10 tries of 100 ms (docs/product.md). */
async function readyAuth(): Promise<{ auth: Auth; sdk: FirebaseAuthModule }> {
  const loaded = await loadFirebase();
  for (let i = 0; i < AUTH_INIT_TRIES; i += 1) {
    if (stateKnown) return loaded;
    await wait(AUTH_INIT_INTERVAL_MS);
  }
  if (!stateKnown) throw new AuthError('auth/not-initialized', 'Authentication is not initialised yet');
  return loaded;
}

let userGeneration = 0;
async function applyUser(user: User | null): Promise<void> {
  const generation = ++userGeneration;
  if ($auth.get().demoMode) return;
  if (!user) {
    storage.set('local', SESSION_HINT, null);
    $auth.set({ user: null, profile: null, loading: false, demoMode: false });
    return;
  }
  storage.set('local', SESSION_HINT, '1');
  const authUser: AuthUser = {
    uid: user.uid,
    displayName: user.displayName,
    email: user.email,
    photoURL: user.photoURL,
    emailVerified: user.emailVerified,
    isAnonymous: user.isAnonymous,
  };
  const previous = $auth.get().profile;
  const keep = previous?.firebase_uid === user.uid ? previous : null;
  $auth.set({ user: authUser, profile: keep, loading: false, demoMode: false });
  let profile: Profile | null = null;
  try {
    profile = await read(api.profile.$get(undefined, withToken(await user.getIdToken())));
  } catch (error) {
    console.error('Profile lookup failed', error);
  }
  if (generation === userGeneration) $auth.setKey('profile', profile);
}

async function finishRedirect(): Promise<void> {
  const { auth, sdk } = await loadFirebase();
  try {
    const result = await sdk.getRedirectResult(auth);
    if (!result) {
      // No result, yet a redirect was expected: give the provider a moment, then look again.
      await wait(POST_REDIRECT_WAIT_MS);
      if (auth.currentUser) await applyUser(auth.currentUser);
    }
  } catch (error) {
    console.error('Redirect sign-in failed', error);
  } finally {
    storage.set('session', PENDING_REDIRECT, null);
    storage.set('session', REDIRECT_PATH, null);
  }
}

// ---- Actions ---------------------------------------------------------------------------------

let initialised = false;

/** Starts the store once per page; islands call it on mount. */
export function initAuth(): void {
  if (initialised || typeof window === 'undefined') return;
  initialised = true;
  if (isDemoConfigured()) {
    // docs/product.md, "Sign-in and demo mode": signed out, unless this browser started demo mode earlier.
    if (storage.get('local', DEMO_FLAG) === '1') {
      $auth.set({ user: demoUser(), profile: demoProfile(), loading: false, demoMode: true });
    } else {
      $auth.setKey('loading', false);
    }
    return;
  }
  const pendingRedirect = storage.get('session', PENDING_REDIRECT) === '1';
  if (storage.get('local', SESSION_HINT) !== '1' && !pendingRedirect) {
    $auth.setKey('loading', false);
    return;
  }
  loadFirebase().catch((error: unknown) => {
    console.error('Loading Firebase failed', error);
    $auth.setKey('loading', false);
  });
  if (pendingRedirect) void finishRedirect();
}

/** The bearer token for the API: the fixed demo token in demo mode; null on failure. */
export async function getIdToken(): Promise<string | null> {
  if ($auth.get().demoMode) return DEMO_TOKEN;
  if (!firebase) return null;
  try {
    const { auth } = await firebase;
    return (await auth.currentUser?.getIdToken()) ?? null;
  } catch (error) {
    console.error('Getting the ID token failed', error);
    return null;
  }
}

function assertConfigured(): void {
  if (isDemoConfigured() || $auth.get().demoMode) throw new AuthError('DEMO_MODE');
}

/** Google sign-in: a popup first, a full-page redirect when the popup is blocked. */
export async function signInWithGoogle(): Promise<void> {
  assertConfigured();
  const { auth, sdk } = await readyAuth();
  const provider = new sdk.GoogleAuthProvider();
  provider.addScope('email');
  provider.addScope('profile');
  provider.setCustomParameters({ prompt: 'select_account' });
  try {
    await sdk.signInWithPopup(auth, provider);
    storage.set('local', SESSION_HINT, '1');
  } catch (error) {
    if (authErrorCode(error) !== 'auth/popup-blocked') throw error;
    storage.set('session', REDIRECT_PATH, window.location.href);
    storage.set('session', PENDING_REDIRECT, '1');
    await sdk.signInWithRedirect(auth, provider);
  }
}

/** What the provider says about an email: its sign-in methods, and whether it has an account. */
export interface EmailLookup {
  methods: string[];
  /** True or false only when the provider says; unknown under email enumeration protection. */
  registered: boolean | null;
}

const UNKNOWN: EmailLookup = { methods: [], registered: null };

/** The Identity Toolkit's createAuthUri answer, read field by field: any field may be missing. */
function readLookup(body: unknown): EmailLookup {
  if (typeof body !== 'object' || body === null) return UNKNOWN;
  const registered = 'registered' in body && typeof body.registered === 'boolean' ? body.registered : null;
  const list = 'signinMethods' in body && Array.isArray(body.signinMethods) ? body.signinMethods : [];
  return { methods: list.filter((method): method is string => typeof method === 'string'), registered };
}

function lookupError(body: unknown): string {
  if (typeof body !== 'object' || body === null || !('error' in body)) return '';
  const { error } = body;
  return typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : '';
}

/**
 * Looks an email up (docs/product.md, "Sign-in and demo mode"). Firebase's SDK keeps only the
 * methods, which are empty for a new email and for every email under email enumeration
 * protection; the REST answer also says `registered` when, and only when, the protection is off.
 * That is what lets the dialog say an address has no account without a setting to keep in step
 * with the Firebase project. A failed lookup is logged and reads as unknown; only an address the
 * provider rejects is the parent's to correct.
 */
export async function lookUpEmail(email: string): Promise<EmailLookup> {
  assertConfigured();
  const emulator = env.PUBLIC_FIREBASE_AUTH_EMULATOR_HOST;
  const origin = emulator
    ? `http://${emulator}/identitytoolkit.googleapis.com`
    : 'https://identitytoolkit.googleapis.com';
  const key = encodeURIComponent(env.PUBLIC_FIREBASE_API_KEY ?? '');
  const lookup = async (): Promise<EmailLookup> => {
    let response: Response;
    try {
      response = await fetch(`${origin}/v1/accounts:createAuthUri?key=${key}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ identifier: email, continueUri: window.location.href }),
      });
    } catch (error) {
      console.error('Looking up the email failed', error);
      return UNKNOWN;
    }
    const body: unknown = await response.json().catch(() => null);
    if (response.ok) return readLookup(body);
    const reason = lookupError(body);
    if (reason === 'INVALID_EMAIL' || reason === 'INVALID_IDENTIFIER')
      throw new AuthError('auth/invalid-email');
    console.error('Looking up the email failed', response.status, reason);
    return UNKNOWN;
  };
  // The SDK loads meanwhile, ready for the password step.
  const [, answer] = await Promise.all([readyAuth(), lookup()]);
  return answer;
}

export async function signInWithEmail(email: string, password: string): Promise<void> {
  assertConfigured();
  const { auth, sdk } = await readyAuth();
  await sdk.signInWithEmailAndPassword(auth, email, password);
  storage.set('local', SESSION_HINT, '1');
}

/** Creates the account, sends Firebase's verification email (docs/product.md). */
export async function createAccount(email: string, password: string): Promise<void> {
  assertConfigured();
  const { auth, sdk } = await readyAuth();
  const { user } = await sdk.createUserWithEmailAndPassword(auth, email, password);
  storage.set('local', SESSION_HINT, '1');
  try {
    await sdk.sendEmailVerification(user);
  } catch (error) {
    console.error('Sending the verification email failed', error);
  }
}

/**
 * Sends the provider's password-reset email. An unknown address (reported only without email
 * enumeration protection) reads as sent, so the answer never tells whether an account exists.
 */
export async function sendPasswordReset(email: string): Promise<void> {
  assertConfigured();
  const { auth, sdk } = await readyAuth();
  try {
    await sdk.sendPasswordResetEmail(auth, email);
  } catch (error) {
    if (authErrorCode(error) !== 'auth/user-not-found') throw error;
  }
}

/** Signs out and forgets the stored redirect path; does nothing in demo mode. */
export async function signOut(): Promise<void> {
  if ($auth.get().demoMode) return;
  storage.set('session', REDIRECT_PATH, null);
  storage.set('local', SESSION_HINT, null);
  if (!firebase) return;
  const { auth, sdk } = await firebase;
  await sdk.signOut(auth);
}

/** Demo mode's sample account for this browser (docs/product.md). */
export function startDemoMode(): void {
  storage.set('local', DEMO_FLAG, '1');
  $auth.set({ user: demoUser(), profile: demoProfile(), loading: false, demoMode: true });
}

export function exitDemoMode(): void {
  storage.set('local', DEMO_FLAG, null);
  $auth.set({ user: null, profile: null, loading: false, demoMode: false });
}

/** The name shown for an account: the profile's, else the basic-profile rule on the provider's user. */
export function accountName({ user, profile }: Pick<AuthState, 'user' | 'profile'>): string {
  return profile?.display_name || basicDisplayName({ name: user?.displayName, email: user?.email });
}

export function accountEmail({ user, profile }: Pick<AuthState, 'user' | 'profile'>): string {
  return profile?.email || user?.email || '';
}

/** For tests: forget everything so the next initAuth starts afresh. */
export function resetAuthForTests(): void {
  unsubscribe?.();
  unsubscribe = null;
  firebase = null;
  stateKnown = false;
  initialised = false;
  $auth.set({ user: null, profile: null, loading: true, demoMode: false });
}
