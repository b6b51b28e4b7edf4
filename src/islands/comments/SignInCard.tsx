import { useState } from 'react';
import { signInWithGoogle, startDemoMode } from '../../stores/auth.ts';
import { GoogleIcon } from '../../components/icons.tsx';
import { signInErrorMessage } from './messages.ts';

/** The sidebar card for signed-out readers: Google sign-in, or demo mode where it is not set up. */
export function SignInCard() {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<{ message: string; demo: boolean } | null>(null);

  async function signIn() {
    if (pending) return;
    setPending(true);
    setFailure(null);
    try {
      await signInWithGoogle();
    } catch (error) {
      const mapped = signInErrorMessage(error);
      if (!mapped.demo) console.error('Sign-in failed', error);
      setFailure(mapped);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="border-sand rounded-2xl border bg-white p-5 shadow-sm">
      <h3 className="text-ink text-lg font-semibold">Join the conversation</h3>
      <p className="text-muted mt-1 text-sm">Sign in to comment, reply and like posts with other parents.</p>
      <button
        type="button"
        onClick={signIn}
        aria-disabled={pending || undefined}
        className="border-sand text-ink hover:bg-cream mt-4 inline-flex w-full items-center justify-center gap-2 rounded-lg border bg-white px-4 py-2.5 text-sm font-semibold aria-disabled:cursor-wait aria-disabled:opacity-70"
      >
        <GoogleIcon className="h-4 w-4" />
        Sign in with Google
      </button>
      <div aria-live="polite" className="mt-3">
        {failure && (
          <div
            className={`rounded-lg p-3 text-sm ${failure.demo ? 'bg-brand-light text-brand-dark' : 'bg-red-50 text-red-800'}`}
          >
            <p>{failure.message}</p>
            {failure.demo && (
              <button
                type="button"
                onClick={() => startDemoMode()}
                className="bg-brand hover:bg-brand-dark mt-3 w-full rounded-lg px-4 py-2 text-sm font-semibold text-white"
              >
                Try Demo Mode
              </button>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
