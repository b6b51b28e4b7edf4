// The sign-in dialog's state and its shared pieces (src/islands/SignInDialog.tsx).

export type Step = 'initial' | 'email' | 'password';

/** Everything the dialog shows; closing puts it back to START in one step. */
export interface SignInState {
  step: Step;
  email: string;
  password: string;
  error: string | null;
  info: string | null;
  /** Sign-in raised DEMO_MODE: offer Try Demo Mode. */
  demo: boolean;
  /** The password step creates an account rather than signing in. */
  creating: boolean;
  /** The lookup answered no methods: a new email, or any email under enumeration protection. */
  mayBeNew: boolean;
  working: boolean;
}

export const START: SignInState = {
  step: 'initial',
  email: '',
  password: '',
  error: null,
  info: null,
  demo: false,
  creating: false,
  mayBeNew: false,
  working: false,
};

export const primary =
  'bg-brand hover:bg-brand-dark w-full rounded-lg px-4 py-2.5 text-sm font-semibold text-white disabled:cursor-wait disabled:opacity-60';
export const secondary =
  'border-sand text-ink hover:bg-cream inline-flex w-full items-center justify-center gap-2 rounded-lg border bg-white px-4 py-2.5 text-sm font-semibold disabled:cursor-wait disabled:opacity-60';
export const textButton =
  'text-brand-dark rounded text-sm font-semibold underline underline-offset-2 hover:no-underline disabled:cursor-wait disabled:opacity-60';
export const input =
  'border-sand text-ink focus:border-brand mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-base disabled:bg-gray-100 disabled:text-muted';

/** Back and the step's submit button, side by side. */
export function StepButtons({
  label,
  onBack,
  working,
}: {
  label: string;
  onBack: () => void;
  working: boolean;
}) {
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
