// The account page's confirmation: the parent types their account's address to delete it.
import { type SubmitEvent, useId, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { deleteMyAccount } from '../../stores/account.ts';
import { DialogFooter, DialogShell } from '../dialogs/DialogShell.tsx';

export function DeleteAccountDialog({
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
