// The three-step sign-in dialog (docs/product.md, "Sign-in and demo mode"). It works with and
// without Firebase's email enumeration protection: an empty answer to the email lookup never
// decides between signing in and creating an account; the parent does.
// Radix gives the focus trap, Escape, an accessible title and returning focus to the opener.
import { useStore } from '@nanostores/react';
import * as Dialog from '@radix-ui/react-dialog';
import { type SubmitEvent, useEffect, useRef, useState } from 'react';
import { SIGN_IN_DIALOG_RESET_MS, SITE_NAME } from '../config.ts';
import { authErrorCode, authErrorMessage } from '../lib/auth-messages.ts';
import {
  createAccount,
  fetchSignInMethods,
  sendPasswordReset,
  signInWithEmail,
  signInWithGoogle,
  startDemoMode,
} from '../stores/auth.ts';
import { $signInOpen } from '../stores/ui.ts';
import { CloseIcon, GoogleIcon } from '../components/icons.tsx';

type Step = 'initial' | 'email' | 'password';

export const DIALOG_DEMO_MESSAGE =
  'Demo mode is active: Google authentication is not configured in this environment.';

function resetSentMessage(email: string): string {
  return `If an account exists for ${email}, we've sent a link to reset the password.`;
}

const primary =
  'bg-brand hover:bg-brand-dark w-full rounded-lg px-4 py-2.5 text-sm font-semibold text-white disabled:cursor-wait disabled:opacity-60';
const secondary =
  'border-sand text-ink hover:bg-cream inline-flex w-full items-center justify-center gap-2 rounded-lg border bg-white px-4 py-2.5 text-sm font-semibold disabled:cursor-wait disabled:opacity-60';
const textButton =
  'text-brand-dark rounded text-sm font-semibold underline underline-offset-2 hover:no-underline disabled:cursor-wait disabled:opacity-60';
const input =
  'border-sand text-ink focus:border-brand mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-base disabled:bg-gray-100 disabled:text-muted';

export default function SignInDialog() {
  const open = useStore($signInOpen);
  const [step, setStep] = useState<Step>('initial');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [demo, setDemo] = useState(false);
  const [creating, setCreating] = useState(false);
  // The lookup answered no methods: a new email, or any email under enumeration protection.
  const [mayBeNew, setMayBeNew] = useState(false);
  const [working, setWorking] = useState(false);
  const resetTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const forgotButton = useRef<HTMLButtonElement>(null);
  // Buttons are disabled while work runs, which drops their focus; this is where it goes after.
  const focusAfterWork = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (working) return;
    focusAfterWork.current?.focus();
    focusAfterWork.current = null;
  }, [working]);

  // Closing resets the dialog after 200 ms (docs/product.md), so the content does not change while it fades.
  useEffect(() => {
    if (open) {
      if (resetTimer.current) clearTimeout(resetTimer.current);
      resetTimer.current = null;
      return;
    }
    resetTimer.current = setTimeout(() => {
      setStep('initial');
      setEmail('');
      setPassword('');
      setError(null);
      setInfo(null);
      setDemo(false);
      setCreating(false);
      setMayBeNew(false);
      setWorking(false);
    }, SIGN_IN_DIALOG_RESET_MS);
    return () => {
      if (resetTimer.current) clearTimeout(resetTimer.current);
    };
  }, [open]);

  const close = () => $signInOpen.set(false);

  function clearMessages() {
    setError(null);
    setInfo(null);
    setDemo(false);
  }

  function showFailure(caught: unknown, fallback?: string) {
    if (authErrorCode(caught) === 'DEMO_MODE') {
      setDemo(true);
      setError(null);
    } else {
      setError(authErrorMessage(caught, fallback));
    }
  }

  /** Switches the password step between signing in and creating an account, keeping what was typed. */
  function choose(create: boolean) {
    clearMessages();
    setCreating(create);
    // The button pressed disappears with the switch: keep focus where the parent types next.
    passwordInput.current?.focus();
  }

  async function google() {
    clearMessages();
    setWorking(true);
    try {
      await signInWithGoogle();
      close();
    } catch (caught) {
      if (authErrorCode(caught) !== 'DEMO_MODE') console.error('Google sign-in failed', caught);
      showFailure(caught, 'Failed to sign in with Google');
    } finally {
      setWorking(false);
    }
  }

  async function submitEmail(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    clearMessages();
    const address = email.trim();
    if (!address) {
      setError('Please enter your email');
      emailInput.current?.focus();
      return;
    }
    setWorking(true);
    try {
      const methods = await fetchSignInMethods(address);
      if (methods.length === 0 || methods.includes('password')) {
        setCreating(false);
        setMayBeNew(methods.length === 0);
        setStep('password');
      } else {
        setInfo(`This email is registered with ${methods.join(', ')}. Please use Google sign-in.`);
        try {
          await signInWithGoogle();
          close();
        } catch (caught) {
          showFailure(caught, 'Failed to sign in with Google');
        }
      }
    } catch (caught) {
      showFailure(caught, 'An error occurred');
      focusAfterWork.current = emailInput.current;
    } finally {
      setWorking(false);
    }
  }

  async function submitPassword(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    clearMessages();
    if (!password) {
      setError('Please enter your password');
      passwordInput.current?.focus();
      return;
    }
    setWorking(true);
    try {
      if (creating) {
        await createAccount(email.trim(), password);
        close();
        window.location.assign('/confirmation');
      } else {
        await signInWithEmail(email.trim(), password);
        close();
      }
    } catch (caught) {
      showFailure(caught, 'Failed to sign in');
      focusAfterWork.current = passwordInput.current;
    } finally {
      setWorking(false);
    }
  }

  async function forgotPassword() {
    clearMessages();
    const address = email.trim();
    focusAfterWork.current = forgotButton.current;
    setWorking(true);
    try {
      await sendPasswordReset(address);
      setInfo(resetSentMessage(address));
    } catch (caught) {
      showFailure(caught);
    } finally {
      setWorking(false);
    }
  }

  function back() {
    clearMessages();
    setPassword('');
    setCreating(false);
    setMayBeNew(false);
    setStep(step === 'password' ? 'email' : 'initial');
  }

  function tryDemo() {
    startDemoMode();
    close();
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => $signInOpen.set(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-ink text-xl font-bold">Sign In to {SITE_NAME}</Dialog.Title>
            <Dialog.Close
              aria-label="Close"
              className="text-muted hover:bg-sand hover:text-ink -mt-1 -mr-2 rounded-md p-1.5"
            >
              <CloseIcon className="h-5 w-5" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="text-muted mt-1 text-sm">
            {step === 'initial' && 'Choose how you would like to sign in.'}
            {step === 'email' && 'Enter your email address to continue.'}
            {step === 'password' &&
              (creating ? 'Create a password for your account.' : 'Enter your password.')}
          </Dialog.Description>

          <div className="mt-5">
            {step === 'initial' && (
              <div className="space-y-3">
                <button type="button" className={secondary} onClick={google} disabled={working}>
                  <GoogleIcon className="h-4 w-4" />
                  Continue with Google
                </button>
                <button
                  type="button"
                  className={primary}
                  disabled={working}
                  onClick={() => {
                    clearMessages();
                    setStep('email');
                  }}
                >
                  Continue with Email
                </button>
              </div>
            )}

            {step === 'email' && (
              <form className="space-y-4" onSubmit={submitEmail} noValidate>
                <div>
                  <label htmlFor="sign-in-email" className="text-ink block text-sm font-medium">
                    Email
                  </label>
                  <input
                    ref={emailInput}
                    id="sign-in-email"
                    type="email"
                    autoComplete="email"
                    autoFocus
                    value={email}
                    onChange={(e) => setEmail(e.target.value)}
                    className={input}
                  />
                </div>
                <StepButtons label="Continue" onBack={back} working={working} />
              </form>
            )}

            {step === 'password' && (
              <form className="space-y-4" onSubmit={submitPassword} noValidate>
                <div>
                  <label htmlFor="sign-in-email-shown" className="text-ink block text-sm font-medium">
                    Email
                  </label>
                  <input id="sign-in-email-shown" type="email" value={email} disabled className={input} />
                </div>
                <div>
                  <label htmlFor="sign-in-password" className="text-ink block text-sm font-medium">
                    Password
                  </label>
                  <input
                    ref={passwordInput}
                    id="sign-in-password"
                    type="password"
                    autoComplete={creating ? 'new-password' : 'current-password'}
                    autoFocus
                    value={password}
                    onChange={(e) => setPassword(e.target.value)}
                    className={input}
                  />
                  {!creating && (
                    <button
                      ref={forgotButton}
                      type="button"
                      className={`${textButton} mt-2`}
                      onClick={forgotPassword}
                      disabled={working}
                    >
                      Forgot password?
                    </button>
                  )}
                </div>
                <StepButtons label="Sign In" onBack={back} working={working} />
              </form>
            )}
            {step === 'password' && mayBeNew && (
              <p className="text-muted mt-4 text-sm">
                {creating ? 'Already have an account?' : `New to ${SITE_NAME}?`}{' '}
                <button
                  type="button"
                  className={textButton}
                  onClick={() => choose(!creating)}
                  disabled={working}
                >
                  {creating ? 'Sign in instead' : 'Create an account'}
                </button>
              </p>
            )}
          </div>

          <div aria-live="polite" className="mt-4 space-y-3 empty:hidden">
            {info && <p className="bg-brand-light text-brand-dark rounded-lg p-3 text-sm">{info}</p>}
            {demo && (
              <div className="bg-brand-light text-brand-dark rounded-lg p-3 text-sm">
                <p>{DIALOG_DEMO_MESSAGE}</p>
                <button
                  type="button"
                  onClick={tryDemo}
                  className="bg-brand hover:bg-brand-dark mt-3 w-full rounded-lg px-4 py-2 text-sm font-semibold text-white"
                >
                  Try Demo Mode
                </button>
              </div>
            )}
          </div>
          {error && (
            <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 text-sm text-red-800">
              {error}
            </p>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Back and the step's submit button, side by side. */
function StepButtons({ label, onBack, working }: { label: string; onBack: () => void; working: boolean }) {
  return (
    <div className="flex gap-3">
      <button type="button" className={secondary} onClick={onBack} disabled={working}>
        Back
      </button>
      <button type="submit" className={primary} disabled={working}>
        {label}
      </button>
    </div>
  );
}
