// The signed-in parent's account page (/account; docs/product.md, "Your account"): who they are,
// "Download my data" and "Delete my account". Signed-out readers get the sign-in prompt; after a
// deletion the page says it is done, with this browser signed out.
import { useStore } from '@nanostores/react';
import { type SubmitEvent, useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../lib/api.ts';
import { deleteMyAccount, downloadMyData, leaveAfterDeletion } from '../stores/account.ts';
import { $auth, accountEmail, accountName, initAuth } from '../stores/auth.ts';
import { SignInPrompt } from '../components/SignInPrompt.tsx';
import { Avatar } from './comments/Avatar.tsx';
import { RoleBadge, UserTypeBadge } from './comments/badges.tsx';
import { buttons, DialogFooter, DialogShell } from './dialogs/DialogShell.tsx';

const section = 'border-sand rounded-2xl border bg-white p-6 shadow-sm';
const heading = 'text-ink text-xl font-bold';

type Download =
  | { state: 'idle' }
  | { state: 'working' }
  | { state: 'done'; file: string }
  | { state: 'failed'; message: string };

export default function AccountPage() {
  const auth = useStore($auth, { ssr: 'initial' });
  const [download, setDownload] = useState<Download>({ state: 'idle' });
  const [confirming, setConfirming] = useState(false);
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
  if (auth.loading) return <p className="text-muted">Checking your account…</p>;
  if (!auth.user) {
    return <SignInPrompt text="Sign in to see your account, download your data or delete your account." />;
  }

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
          <Avatar name={name} photoUrl={auth.profile?.photo_url ?? auth.user.photoURL} size="lg" />
          <dl className="min-w-0">
            <dt className="sr-only">Name</dt>
            <dd className="text-ink truncate text-lg font-semibold">{name}</dd>
            <dt className="sr-only">Email</dt>
            <dd className="text-muted truncate">{email || 'No email address'}</dd>
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
            Member since{' '}
            <time dateTime={auth.profile.created_at}>
              {new Date(auth.profile.created_at).toLocaleDateString()}
            </time>
          </p>
        )}
      </section>

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
            setDeleted(sentTo);
            void leaveAfterDeletion();
          }}
          onClose={() => setConfirming(false)}
        />
      )}
    </div>
  );
}

function DeleteAccountDialog({
  email,
  onDeleted,
  onClose,
}: {
  email: string;
  onDeleted: (sentTo: string) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (working) return;
    // An account without an address is refused by the API, with whom to write to instead.
    if (email && typed.trim().toLowerCase() !== email.toLowerCase()) {
      setError("That is not this account's email address. Type it exactly to confirm.");
      document.getElementById(`${id}-email`)?.focus();
      return;
    }
    setWorking(true);
    setError(null);
    try {
      onDeleted((await deleteMyAccount(typed.trim())).email);
    } catch (failure) {
      setError(errorMessage(failure));
      setWorking(false);
    }
  }

  return (
    <DialogShell
      title="Delete your account?"
      description="Your account and what you wrote are deleted at once, and you are signed out. This cannot be undone."
      onClose={onClose}
      fallbackFocus={() =>
        document.getElementById('deleted-heading') ?? document.getElementById('delete-heading')
      }
    >
      <form
        onSubmit={(event) => void submit(event)}
        noValidate
        className="space-y-4"
        aria-busy={working || undefined}
      >
        <div>
          <label htmlFor={`${id}-email`} className="text-ink text-sm font-medium">
            Type your email address to confirm
          </label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
            aria-invalid={error ? true : undefined}
            className="border-sand text-ink focus:border-brand focus:ring-brand/30 mt-1 block w-full rounded-lg border bg-white px-3 py-2 focus:ring-2 focus:outline-none"
          />
          <p id={`${id}-hint`} className="text-muted mt-1 text-xs">
            This account: {email}
          </p>
        </div>
        <DialogFooter
          error={error}
          errorId={`${id}-error`}
          onCancel={onClose}
          submitLabel={working ? 'Deleting my account…' : 'Delete my account'}
          working={working}
          destructive
        />
      </form>
    </DialogShell>
  );
}
