// The signed-in parent's account page (/account; docs/product.md, "Your account"): who they are,
// "Download my data" and "Delete my account". Signed-out readers get the sign-in prompt; after a
// deletion the page says it is done, with this browser signed out.
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../lib/api.ts';
import { formatDate } from '../lib/time.ts';
import { downloadMyData, leaveAfterDeletion } from '../stores/account.ts';
import { $auth, accountEmail, accountName, type AuthState, initAuth } from '../stores/auth.ts';
import { Avatar } from './comments/Avatar.tsx';
import { RoleBadge, UserTypeBadge } from './comments/badges.tsx';
import { DeleteAccountDialog } from './account/DeleteAccountDialog.tsx';
import { buttons } from './dialogs/DialogShell.tsx';
import { RoleGate } from './RoleGate.tsx';
import AlertSwitches from './favourites/AlertSwitches.tsx';

const section = 'border-sand rounded-2xl border bg-white p-6 shadow-sm';
const heading = 'text-ink text-xl font-bold';

type Download =
  | { state: 'idle' }
  | { state: 'working' }
  | { state: 'done'; file: string }
  | { state: 'failed'; message: string };

export default function AccountPage() {
  const auth = useStore($auth, { ssr: 'initial' });
  const [deleted, setDeleted] = useState<string | null>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => initAuth(), []);
  useEffect(() => {
    if (deleted !== null) doneRef.current?.focus();
  }, [deleted]);

  if (deleted !== null) {
    return (
      <section aria-labelledby="deleted-heading" className={section}>
        <h2 id="deleted-heading" ref={doneRef} tabIndex={-1} className={`${heading} focus:outline-none`}>
          Your account has been deleted
        </h2>
        <p className="text-ink mt-2">
          Your profile, likes, email settings and comments are gone, and you have been signed out.
          {deleted ? ` We sent a confirmation to ${deleted}.` : ''}
        </p>
        <a href="/" className="text-brand-dark mt-4 inline-block font-semibold underline underline-offset-4">
          Back to the home page
        </a>
      </section>
    );
  }
  return (
    <RoleGate
      auth={auth}
      access="signed-in"
      signIn="Sign in to see your account, download your data or delete your account."
    >
      {auth.user && <Account auth={auth} user={auth.user} onDeleted={setDeleted} />}
    </RoleGate>
  );
}

/** The signed-in parent's profile, their data and the way to delete the account. */
function Account({
  auth,
  user,
  onDeleted,
}: {
  auth: AuthState;
  user: NonNullable<AuthState['user']>;
  onDeleted: (sentTo: string) => void;
}) {
  const [download, setDownload] = useState<Download>({ state: 'idle' });
  const [confirming, setConfirming] = useState(false);
  const name = accountName(auth);
  const email = accountEmail(auth);

  async function save() {
    if (download.state === 'working') return;
    setDownload({ state: 'working' });
    try {
      setDownload({ state: 'done', file: await downloadMyData() });
    } catch (failure) {
      setDownload({ state: 'failed', message: errorMessage(failure) });
    }
  }

  return (
    <div className="space-y-8">
      <section aria-labelledby="profile-heading" className={section}>
        <h2 id="profile-heading" className={heading}>
          Profile
        </h2>
        <div className="mt-4 flex items-center gap-4">
          <Avatar name={name} photoUrl={auth.profile?.photo_url ?? user.photoURL} size="lg" />
          <dl className="min-w-0">
            <dt className="sr-only">Name</dt>
            <dd className="text-ink text-lg font-semibold [overflow-wrap:anywhere]">{name}</dd>
            <dt className="sr-only">Email</dt>
            <dd className="text-muted [overflow-wrap:anywhere]">{email || 'No email address'}</dd>
          </dl>
        </div>
        <ul aria-label="Role and badges" className="mt-4 flex flex-wrap gap-2">
          <li>
            <RoleBadge role={auth.profile?.role} />
          </li>
          {(auth.profile?.user_type ?? []).map((type) => (
            <li key={type}>
              <UserTypeBadge type={type} />
            </li>
          ))}
        </ul>
        {auth.profile && (
          <p className="text-muted mt-4 text-sm">
            Member since <time dateTime={auth.profile.created_at}>{formatDate(auth.profile.created_at)}</time>
          </p>
        )}
      </section>

      {!auth.demoMode && <AlertSwitches className={section} />}

      <section aria-labelledby="data-heading" className={section}>
        <h2 id="data-heading" className={heading}>
          Your data
        </h2>
        <p className="text-muted mt-2">
          Everything we keep about you — your profile, every comment and reply with a link to it, your likes,
          the reports you filed and your email settings — as one JSON file.
        </p>
        <button
          type="button"
          onClick={() => void save()}
          aria-disabled={download.state === 'working' || undefined}
          aria-busy={download.state === 'working' || undefined}
          className={`${buttons.primary} mt-4`}
        >
          {download.state === 'working' ? 'Preparing your file…' : 'Download my data'}
        </button>
        <p role="status" className="text-muted mt-2 text-sm">
          {download.state === 'done' ? `Saved as ${download.file}.` : ''}
        </p>
        {download.state === 'failed' && (
          <p role="alert" className="mt-2 rounded-lg bg-red-50 p-3 text-sm text-red-800">
            {download.message}
          </p>
        )}
      </section>

      <section aria-labelledby="delete-heading" className="rounded-2xl border border-red-200 bg-red-50 p-6">
        <h2 id="delete-heading" className="text-xl font-bold text-red-900">
          Delete your account
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-6 text-red-900">
          <li>It happens at once and cannot be undone; you are signed out.</li>
          <li>Your profile, sign-in, likes and email settings are deleted.</li>
          <li>
            Your comments and replies are deleted. One that others replied to stays as “This comment was
            deleted.”, without your name, so their replies still make sense.
          </li>
          <li>Reports you filed stay, without your name, so moderators can finish them.</li>
          <li>We email you a confirmation.</li>
        </ul>
        <button type="button" onClick={() => setConfirming(true)} className={`${buttons.danger} mt-4`}>
          Delete my account
        </button>
      </section>

      {confirming && (
        <DeleteAccountDialog
          email={email}
          onDeleted={(sentTo) => {
            // The page says it is done first; signing out then changes nothing on it.
            onDeleted(sentTo);
            void leaveAfterDeletion();
          }}
          onClose={() => setConfirming(false)}
        />
      )}
    </div>
  );
}
