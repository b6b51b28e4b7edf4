// The sign-in dialog's password step and what it says (src/islands/SignInDialog.tsx).
import type { ReactNode, RefObject, SubmitEvent } from 'react';
import { SITE_NAME } from '../../config.ts';
import { GoogleIcon } from '../../components/icons.tsx';
import { input, primary, secondary, type SignInState, StepButtons, textButton } from './parts.tsx';

export const DIALOG_DEMO_MESSAGE =
  'Demo mode is active: Google authentication is not configured in this environment.';

/** The first step: Google, or email and password. */
export function FirstStep({
  working,
  onGoogle,
  onEmail,
}: {
  working: boolean;
  onGoogle: () => void;
  onEmail: () => void;
}) {
  return (
    <div className="space-y-3">
      <button type="button" className={secondary} onClick={onGoogle} disabled={working}>
        <GoogleIcon className="h-4 w-4" />
        Continue with Google
      </button>
      <button type="button" className={primary} disabled={working} onClick={onEmail}>
        Continue with Email
      </button>
    </div>
  );
}

/** A field with its label above it. */
function Labelled({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="text-ink block text-sm font-medium">
        {label}
      </label>
      {children}
    </div>
  );
}

/** The email address, looked up before the password step. */
export function EmailStep({
  email,
  working,
  onEmail,
  onSubmit,
  onBack,
  emailInput,
}: {
  email: string;
  working: boolean;
  onEmail: (value: string) => void;
  onSubmit: (event: SubmitEvent<HTMLFormElement>) => void;
  onBack: () => void;
  emailInput: RefObject<HTMLInputElement | null>;
}) {
  return (
    <form className="space-y-4" onSubmit={onSubmit} noValidate>
      <Labelled id="sign-in-email" label="Email">
        <input
          ref={emailInput}
          id="sign-in-email"
          type="email"
          autoComplete="email"
          autoFocus
          value={email}
          onChange={(e) => onEmail(e.target.value)}
          className={input}
        />
      </Labelled>
      <StepButtons label="Continue" onBack={onBack} working={working} />
    </form>
  );
}

interface PasswordStepProps {
  state: SignInState;
  onPassword: (value: string) => void;
  onSubmit: (event: SubmitEvent<HTMLFormElement>) => void;
  onForgot: () => void;
  /** Switches between signing in and creating an account. */
  onChoose: (create: boolean) => void;
  onBack: () => void;
  passwordInput: RefObject<HTMLInputElement | null>;
  forgotButton: RefObject<HTMLButtonElement | null>;
}

/** The password: to sign in (with Forgot password?) or to create the account. */
export function PasswordStep({
  state: { email, password, creating, mayBeNew, working },
  onPassword,
  onSubmit,
  onForgot,
  onChoose,
  onBack,
  passwordInput,
  forgotButton,
}: PasswordStepProps) {
  return (
    <>
      <form className="space-y-4" onSubmit={onSubmit} noValidate>
        <Labelled id="sign-in-email-shown" label="Email">
          <input id="sign-in-email-shown" type="email" value={email} disabled className={input} />
        </Labelled>
        <Labelled id="sign-in-password" label="Password">
          <input
            ref={passwordInput}
            id="sign-in-password"
            type="password"
            autoComplete={creating ? 'new-password' : 'current-password'}
            autoFocus
            value={password}
            onChange={(e) => onPassword(e.target.value)}
            className={input}
          />
          {!creating && (
            <button
              ref={forgotButton}
              type="button"
              className={`${textButton} mt-2`}
              onClick={onForgot}
              disabled={working}
            >
              Forgot password?
            </button>
          )}
        </Labelled>
        <StepButtons label="Sign In" onBack={onBack} working={working} />
      </form>
      {mayBeNew && (
        <p className="text-muted mt-4 text-sm">
          {creating ? 'Already have an account?' : `New to ${SITE_NAME}?`}{' '}
          <button type="button" className={textButton} onClick={() => onChoose(!creating)} disabled={working}>
            {creating ? 'Sign in instead' : 'Create an account'}
          </button>
        </p>
      )}
    </>
  );
}

/** What happened: information, the offer of demo mode, or the error. */
export function Messages({
  state: { info, demo, error },
  onTryDemo,
}: {
  state: SignInState;
  onTryDemo: () => void;
}) {
  return (
    <>
      <div aria-live="polite" className="mt-4 space-y-3 empty:hidden">
        {info && <p className="bg-brand-light text-brand-dark rounded-lg p-3 text-sm">{info}</p>}
        {demo && (
          <div className="bg-brand-light text-brand-dark rounded-lg p-3 text-sm">
            <p>{DIALOG_DEMO_MESSAGE}</p>
            <button
              type="button"
              onClick={onTryDemo}
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
    </>
  );
}
