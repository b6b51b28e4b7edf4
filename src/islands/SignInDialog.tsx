// The three-step sign-in dialog (docs/product.md, "Sign-in and demo mode"). It works with and
// without Firebase's email enumeration protection: with it on (the default) the email lookup does
// not say whether an account exists, so the parent chooses between signing in and creating one;
// with it off the lookup says an address has no account, and the password step creates one.
// Radix gives the focus trap, Escape, an accessible title and returning focus to the opener.
import { useStore } from '@nanostores/react';
import * as Dialog from '@radix-ui/react-dialog';
import { type SubmitEvent, useEffect, useRef, useState } from 'react';
import { SIGN_IN_DIALOG_RESET_MS, SITE_NAME } from '../config.ts';
import { authErrorCode, authErrorMessage, NO_ACCOUNT_MESSAGE } from '../lib/auth-messages.ts';
import {
  createAccount,
  lookUpEmail,
  sendPasswordReset,
  signInWithEmail,
  signInWithGoogle,
  startDemoMode,
} from '../stores/auth.ts';
import { $signInOpen } from '../stores/ui.ts';
import { CloseIcon } from '../components/icons.tsx';
import { type SignInState, START } from './sign-in/parts.tsx';
import { EmailStep, FirstStep, Messages, PasswordStep } from './sign-in/steps.tsx';

export { DIALOG_DEMO_MESSAGE } from './sign-in/steps.tsx';

function resetSentMessage(email: string): string {
  return `If an account exists for ${email}, we've sent a link to reset the password.`;
}

export default function SignInDialog() {
  const open = useStore($signInOpen);
  const [state, setState] = useState<SignInState>(START);
  const { step, email, password, creating, working } = state;
  const update = (change: Partial<SignInState>) => setState((current) => ({ ...current, ...change }));
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
      setState(START);
    }, SIGN_IN_DIALOG_RESET_MS);
    return () => {
      if (resetTimer.current) clearTimeout(resetTimer.current);
    };
  }, [open]);

  const close = () => $signInOpen.set(false);

  const clearMessages = () => update({ error: null, info: null, demo: false });

  function showFailure(caught: unknown, fallback?: string) {
    if (authErrorCode(caught) === 'DEMO_MODE') update({ demo: true, error: null });
    else update({ error: authErrorMessage(caught, fallback) });
  }

  /** Switches the password step between signing in and creating an account, keeping what was typed. */
  function choose(create: boolean) {
    clearMessages();
    update({ creating: create });
    // The button pressed disappears with the switch: keep focus where the parent types next.
    passwordInput.current?.focus();
  }

  async function google() {
    clearMessages();
    update({ working: true });
    try {
      await signInWithGoogle();
      close();
    } catch (caught) {
      if (authErrorCode(caught) !== 'DEMO_MODE') console.error('Google sign-in failed', caught);
      showFailure(caught, 'Failed to sign in with Google');
    } finally {
      update({ working: false });
    }
  }

  async function submitEmail(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    clearMessages();
    const address = email.trim();
    if (!address) {
      update({ error: 'Please enter your email' });
      emailInput.current?.focus();
      return;
    }
    update({ working: true });
    try {
      const { methods, registered } = await lookUpEmail(address);
      if (registered === false) {
        // Only without enumeration protection does the provider say so: a new account.
        update({ creating: true, mayBeNew: false, info: NO_ACCOUNT_MESSAGE, step: 'password' });
      } else if (methods.length === 0 || methods.includes('password')) {
        update({ creating: false, mayBeNew: methods.length === 0 && registered === null, step: 'password' });
      } else {
        update({ info: `This email is registered with ${methods.join(', ')}. Please use Google sign-in.` });
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
      update({ working: false });
    }
  }

  async function submitPassword(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    clearMessages();
    if (!password) {
      update({ error: 'Please enter your password' });
      passwordInput.current?.focus();
      return;
    }
    update({ working: true });
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
      // The account was made meanwhile (another tab or device): offer signing in instead.
      if (authErrorCode(caught) === 'auth/email-already-in-use') update({ mayBeNew: true });
      focusAfterWork.current = passwordInput.current;
    } finally {
      update({ working: false });
    }
  }

  async function forgotPassword() {
    clearMessages();
    const address = email.trim();
    focusAfterWork.current = forgotButton.current;
    update({ working: true });
    try {
      await sendPasswordReset(address);
      update({ info: resetSentMessage(address) });
    } catch (caught) {
      showFailure(caught);
    } finally {
      update({ working: false });
    }
  }

  function back() {
    update({
      error: null,
      info: null,
      demo: false,
      password: '',
      creating: false,
      mayBeNew: false,
      step: step === 'password' ? 'email' : 'initial',
    });
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
              <FirstStep
                working={working}
                onGoogle={google}
                onEmail={() => update({ error: null, info: null, demo: false, step: 'email' })}
              />
            )}

            {step === 'email' && (
              <EmailStep
                email={email}
                working={working}
                onEmail={(value) => update({ email: value })}
                onSubmit={submitEmail}
                onBack={back}
                emailInput={emailInput}
              />
            )}

            {step === 'password' && (
              <PasswordStep
                state={state}
                onPassword={(value) => update({ password: value })}
                onSubmit={submitPassword}
                onForgot={forgotPassword}
                onChoose={choose}
                onBack={back}
                passwordInput={passwordInput}
                forgotButton={forgotButton}
              />
            )}
          </div>

          <Messages state={state} onTryDemo={tryDemo} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
