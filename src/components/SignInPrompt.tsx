import { $signInOpen } from '../stores/ui.ts';

/** A signed-out visitor on a page for some accounts only: what to sign in as, and Sign In. */
export function SignInPrompt({ text }: { text: string }) {
  return (
    <div className="border-sand rounded-2xl border bg-white p-6">
      <p className="text-ink">{text}</p>
      <button
        type="button"
        onClick={() => $signInOpen.set(true)}
        className="bg-brand hover:bg-brand-dark mt-4 rounded-full px-5 py-2.5 font-semibold text-white"
      >
        Sign In
      </button>
    </div>
  );
}
