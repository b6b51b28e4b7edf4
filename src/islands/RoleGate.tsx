import { useStore } from '@nanostores/react';
import { type ReactNode, useEffect } from 'react';
import { SignInPrompt } from '../components/SignInPrompt.tsx';
import { $auth, type AuthState, initAuth } from '../stores/auth.ts';

/** Which accounts a screen is for: any signed-in parent, or those whose role passes `role`. */
export type Access = 'signed-in' | { role: (role: string | null | undefined) => boolean };

/**
 * Whether the account may use a screen for `access`. A role is only known from the server's
 * profile, and demo mode's parent has none (the API would refuse them).
 */
export function hasAccess(auth: AuthState, access: Access): boolean {
  if (auth.loading || auth.user === null) return false;
  return access === 'signed-in' || (!auth.demoMode && access.role(auth.profile?.role));
}

/**
 * The account of a screen behind a RoleGate: it starts sign-in as the island loads, and answers the
 * account's state and, only when the account may use the screen, its uid.
 */
export function useGatedAccount(access: Access): { auth: AuthState; uid: string | null } {
  const auth = useStore($auth, { ssr: 'initial' });
  useEffect(() => initAuth(), []);
  return { auth, uid: hasAccess(auth, access) ? (auth.user?.uid ?? null) : null };
}

interface Props {
  auth: AuthState;
  access: Access;
  /** What a signed-out visitor is asked to sign in as, beside Sign In. */
  signIn: string;
  /** What a signed-in parent without the role is told (the screen's 403). */
  forbidden?: ReactNode;
  children: ReactNode;
}

/**
 * What a signed-in parent without the role reads: whom the page is for, in plain words, with no
 * command or setting to run, and `children` for where to go instead.
 */
export function StaffOnly({
  staff,
  email,
  children,
}: {
  staff: 'moderators' | 'admins';
  email: string;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby="staff-only-heading" className="rounded-2xl bg-amber-50 p-6 text-amber-950">
      <h2 id="staff-only-heading" className="text-xl font-bold">
        This page is for Nestling’s {staff}
      </h2>
      <p className="mt-2 break-words">
        You are signed in as {email || 'a parent'}, which is not{' '}
        {staff === 'admins' ? 'an admin' : 'a moderator'} account. If it should be, ask one of Nestling’s
        admins to give it the role.
      </p>
      {children}
    </section>
  );
}

/**
 * The door of a screen for some accounts only: "Checking your account…" while sign-in (and, for
 * a role, the profile) loads, a sign-in prompt for visitors, the 403 for the wrong role, and the
 * screen itself for the right one.
 */
export function RoleGate({ auth, access, signIn, forbidden, children }: Props) {
  const profilePending = access !== 'signed-in' && auth.user !== null && !auth.profile && !auth.demoMode;
  if (auth.loading || profilePending) return <p className="text-muted">Checking your account…</p>;
  if (!auth.user) return <SignInPrompt text={signIn} />;
  if (!hasAccess(auth, access)) return <>{forbidden}</>;
  return <>{children}</>;
}
