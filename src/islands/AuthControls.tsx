// The navigation's right side: the favourites link, and Sign In or the account menu (docs/product.md).
// It also hosts the sign-in dialog; both the dialog and the account menu load
// on demand, so an anonymous reader downloads neither until they are needed.
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { $auth, exitDemoMode, initAuth, signOut } from '../stores/auth.ts';
import { $signInOpen } from '../stores/ui.ts';
import { HeartIcon } from '../components/icons.tsx';

// Only signed-in visitors need the menu, and only those who open sign-in need the dialog.
const AccountMenu = lazy(() => import('./AccountMenu.tsx'));
const SignInDialog = lazy(() => import('./SignInDialog.tsx'));

/**
 * The badge's count: 0 when signed out, with neither a request nor the favourites store's code
 * (docs/product.md, "Page weight"); signed in, the count of the one favourites store that every
 * heart reads too, loaded then (docs/product.md, "Favourites and alerts").
 */
function useFavouritesCount(uid: string | null): number {
  // Whose count it is: another parent's (or none) reads as 0 until this one's arrives.
  const [seen, setSeen] = useState<{ uid: string; count: number } | null>(null);
  useEffect(() => {
    if (!uid) return;
    let stop: (() => void) | undefined;
    let gone = false;
    void import('../stores/favourites.ts').then(({ $favourites, watchFavourites }) => {
      if (gone) return;
      watchFavourites();
      stop = $favourites.subscribe((state) => setSeen({ uid, count: state.count }));
    });
    return () => {
      gone = true;
      stop?.();
    };
  }, [uid]);
  return seen !== null && seen.uid === uid ? seen.count : 0;
}

export default function AuthControls() {
  const auth = useStore($auth, { ssr: 'initial' });
  const signInOpen = useStore($signInOpen);
  const [dialogWanted, setDialogWanted] = useState(false);
  // Loaded on first use and kept, so it can close and reset gracefully.
  if (signInOpen && !dialogWanted) setDialogWanted(true);
  useEffect(() => initAuth(), []);

  const { user, loading, demoMode } = auth;
  const favourites = useFavouritesCount(loading ? null : (user?.uid ?? null));

  async function leave() {
    if (demoMode) {
      exitDemoMode();
      return;
    }
    try {
      await signOut();
    } catch (error) {
      console.error('Sign-out failed', error);
    }
  }

  return (
    <div className="flex items-center gap-1">
      <a
        href="/favourites"
        aria-label={`Favourites, ${favourites} ${favourites === 1 ? 'item' : 'items'}`}
        data-testid="favourites-badge"
        className="text-ink hover:bg-sand hover:text-brand-dark relative flex h-10 w-10 items-center justify-center rounded-md"
      >
        <HeartIcon className="h-5 w-5" />
        <span
          aria-hidden="true"
          className="bg-accent absolute top-1 right-1 flex h-4 min-w-4 items-center justify-center rounded-full px-1 text-[10px] leading-none font-bold text-white"
        >
          {favourites}
        </span>
      </a>

      {loading ? (
        <span
          aria-hidden="true"
          data-testid="auth-placeholder"
          className="bg-sand inline-block h-10 w-20 animate-pulse rounded-lg"
        />
      ) : user ? (
        <Suspense
          fallback={<span aria-hidden="true" className="bg-sand inline-block h-10 w-20 rounded-lg" />}
        >
          <AccountMenu onLeave={() => void leave()} />
        </Suspense>
      ) : (
        <button
          type="button"
          data-testid="sign-in-button"
          onClick={() => $signInOpen.set(true)}
          className="bg-brand hover:bg-brand-dark h-10 rounded-lg px-3 text-sm font-semibold whitespace-nowrap text-white sm:px-4"
        >
          Sign In
        </button>
      )}
      {dialogWanted && (
        <Suspense fallback={null}>
          <SignInDialog />
        </Suspense>
      )}
    </div>
  );
}
