import type { AuthState } from '../../stores/auth.ts';
import { ProfileCard } from './ProfileCard.tsx';
import { SignInCard } from './SignInCard.tsx';

/** Beside the thread: the viewer's profile card, or an invitation to sign in. */
export function CommentsAside({ auth }: { auth: AuthState }) {
  return (
    <aside aria-label="Your account" className="lg:pt-14">
      {auth.loading ? (
        <div aria-busy="true" className="border-sand animate-pulse rounded-2xl border bg-white p-5">
          <span className="sr-only">Loading…</span>
          <div className="flex items-center gap-3">
            <div className="bg-sand h-14 w-14 rounded-full" />
            <div className="bg-sand h-5 flex-1 rounded" />
          </div>
          <div className="bg-sand mt-4 h-9 rounded-lg" />
        </div>
      ) : auth.user !== null ? (
        <ProfileCard auth={auth} />
      ) : (
        <SignInCard />
      )}
    </aside>
  );
}
