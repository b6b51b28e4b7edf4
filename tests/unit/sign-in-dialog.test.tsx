// @vitest-environment jsdom
// The sign-in dialog (docs/product.md) in jsdom with the real stores. In the default
// configuration the identity provider is not set up (demo), so the email check and Google sign-in
// raise DEMO_MODE. The password step is reached with the provider configured against a stubbed
// network: only globalThis.fetch is replaced, answering the Identity Toolkit's REST calls.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SIGN_IN_DIALOG_RESET_MS, SITE_NAME } from '../../src/config.ts';
import SignInDialog from '../../src/islands/SignInDialog.tsx';
import { NO_ACCOUNT_MESSAGE } from '../../src/lib/auth-messages.ts';
import { $auth, exitDemoMode, initAuth, resetAuthForTests } from '../../src/stores/auth.ts';
import { $signInOpen } from '../../src/stores/ui.ts';

const DEMO_MESSAGE = 'Demo mode is active: Google authentication is not configured in this environment.';

function openDialog() {
  render(<SignInDialog />);
  act(() => $signInOpen.set(true));
  return screen.getByRole('dialog');
}

/** Opens the dialog and submits an email with Enter. */
async function enterEmail(user: ReturnType<typeof userEvent.setup>, address: string) {
  openDialog();
  await user.click(screen.getByRole('button', { name: 'Continue with Email' }));
  await user.type(screen.getByLabelText('Email'), `${address}{Enter}`);
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAuthForTests();
  initAuth();
});
afterEach(() => {
  cleanup();
  act(() => $signInOpen.set(false));
  exitDemoMode();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('sign-in dialog', () => {
  it('names the product in its title and starts with the two choices', () => {
    const dialog = openDialog();
    expect(screen.getByRole('heading', { name: `Sign In to ${SITE_NAME}` })).toBeTruthy();
    expect(dialog.getAttribute('aria-labelledby')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with Email' })).toBeTruthy();
  });

  it('validates the email step, and Back clears the error', async () => {
    const user = userEvent.setup();
    openDialog();
    await user.click(screen.getByRole('button', { name: 'Continue with Email' }));
    const email = screen.getByLabelText('Email');
    expect(document.activeElement).toBe(email);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter your email');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Continue with Email' })).toBeTruthy();
  });

  it('offers demo mode when Google sign-in is not configured', async () => {
    const user = userEvent.setup();
    openDialog();
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    await screen.findByText(DEMO_MESSAGE);
    await user.click(screen.getByRole('button', { name: 'Try Demo Mode' }));
    expect($signInOpen.get()).toBe(false);
    expect($auth.get()).toMatchObject({ demoMode: true, user: { displayName: 'Demo Parent' } });
  });

  it('offers demo mode when the email check meets DEMO_MODE (Enter submits)', async () => {
    const user = userEvent.setup();
    await enterEmail(user, 'parent@example.com');
    await screen.findByText(DEMO_MESSAGE);
    expect(screen.queryByLabelText('Password')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Try Demo Mode' }));
    expect($auth.get().demoMode).toBe(true);
  });

  it('resets to the first step after closing', async () => {
    const user = userEvent.setup();
    openDialog();
    await user.click(screen.getByRole('button', { name: 'Continue with Email' }));
    await user.type(screen.getByLabelText('Email'), 'x@example.com');
    await user.keyboard('{Escape}');
    expect($signInOpen.get()).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
    // Reopened at once, it still shows the email step; after the reset delay, the first step.
    act(() => $signInOpen.set(true));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('x@example.com');
    act(() => $signInOpen.set(false));
    await new Promise((resolve) => setTimeout(resolve, SIGN_IN_DIALOG_RESET_MS + 50));
    act(() => $signInOpen.set(true));
    expect(screen.getByRole('button', { name: 'Continue with Email' })).toBeTruthy();
    expect(screen.queryByLabelText('Email')).toBeNull();
  });
});

describe('sign-in dialog with the provider configured (stubbed network)', () => {
  let methods: string[];
  let requests: string[];
  let protection: boolean;

  beforeEach(() => {
    vi.stubEnv('PUBLIC_FIREBASE_API_KEY', 'unit-test-key');
    vi.stubEnv('PUBLIC_FIREBASE_PROJECT_ID', 'unit-test');
    vi.stubEnv('PUBLIC_FIREBASE_AUTH_DOMAIN', 'unit-test.example');
    vi.stubEnv('PUBLIC_FIREBASE_APP_ID', '1:1:web:1');
    vi.stubEnv('PUBLIC_FIREBASE_AUTH_EMULATOR_HOST', '127.0.0.1:1');
    requests = [];
    methods = ['password'];
    protection = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input instanceof Request ? input.url : input);
        requests.push(url);
        const json = (status: number, body: unknown) =>
          new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
        if (url.includes('accounts:createAuthUri')) {
          // As Firebase answers: under enumeration protection, neither field.
          if (protection) return json(200, { kind: 'identitytoolkit#CreateAuthUriResponse', sessionId: 's' });
          return json(200, { registered: methods.length > 0, signinMethods: methods });
        }
        if (url.includes('accounts:signInWithPassword')) {
          return json(400, { error: { code: 400, message: 'INVALID_LOGIN_CREDENTIALS' } });
        }
        return json(404, { error: { code: 404, message: 'NOT_FOUND' } });
      }),
    );
    resetAuthForTests();
    initAuth();
  });

  it('goes email → password, validates, maps wrong credentials, and Back goes password → email → initial', async () => {
    const user = userEvent.setup();
    await enterEmail(user, 'parent@example.com');
    const password = await screen.findByLabelText('Password');
    expect(document.activeElement).toBe(password);
    const shown = screen.getByLabelText('Email') as HTMLInputElement;
    expect(shown.disabled).toBe(true);
    expect(shown.value).toBe('parent@example.com');

    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter your password');

    await user.type(password, 'wrong-password{Enter}');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Incorrect email or password'));
    expect(requests.some((url) => url.includes('accounts:signInWithPassword'))).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect((screen.getByLabelText('Email') as HTMLInputElement).disabled).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
  });

  it('under enumeration protection the lookup says nothing: signing in and creating an account are offered', async () => {
    protection = true;
    const user = userEvent.setup();
    await enterEmail(user, 'new@example.com');
    const password = await screen.findByLabelText('Password');
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    expect(password.getAttribute('autocomplete')).toBe('current-password');
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toBeTruthy();

    await user.type(password, 'typed-first');
    await user.click(screen.getByRole('button', { name: 'Create an account' }));
    expect(screen.getByText('Create a password for your account.')).toBeTruthy();
    expect(password.getAttribute('autocomplete')).toBe('new-password');
    expect(document.activeElement).toBe(password);
    expect((password as HTMLInputElement).value).toBe('typed-first');
    expect(screen.queryByRole('button', { name: 'Forgot password?' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create an account' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Sign in instead' }));
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    expect(document.activeElement).toBe(password);
    expect(screen.getByRole('button', { name: 'Create an account' })).toBeTruthy();
  });

  it('without enumeration protection an unregistered email has no account: the step creates one', async () => {
    methods = [];
    await enterEmail(userEvent.setup(), 'new@example.com');
    const password = await screen.findByLabelText('Password');
    expect(screen.getByText(NO_ACCOUNT_MESSAGE)).toBeTruthy();
    expect(NO_ACCOUNT_MESSAGE).toBe('No account found. Please create a password for your new account.');
    expect(screen.getByText('Create a password for your account.')).toBeTruthy();
    expect(password.getAttribute('autocomplete')).toBe('new-password');
    expect(screen.queryByRole('button', { name: 'Sign in instead' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Forgot password?' })).toBeNull();
  });

  it('a known password account is only offered signing in', async () => {
    await enterEmail(userEvent.setup(), 'parent@example.com');
    await screen.findByLabelText('Password');
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create an account' })).toBeNull();
  });
});
