// "Email me when someone replies" beside the comment and reply boxes (docs/product.md, "Email"):
// follows the post's thread. The first time, the parent must open the link we email them before
// anything else is sent; the note under the box says so.
import { useStore } from '@nanostores/react';
import { useId, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { $auth } from '../../stores/auth.ts';
import { followStore, followThread } from '../../stores/notifications.ts';

export function ReplyEmailsToggle({ postId }: { postId: number }) {
  const auth = useStore($auth);
  const { data } = useStore(followStore(postId, auth.user?.uid ?? null));
  const id = useId();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function change(subscribed: boolean) {
    if (saving) return;
    setSaving(true);
    setFailure(null);
    try {
      await followThread(postId, subscribed);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setSaving(false);
    }
  }

  const note = !data?.subscribed
    ? ''
    : data.email === 'pending'
      ? `Check ${data.address}: open the link we sent to confirm your address. Emails start after that.`
      : `Replies in this discussion are emailed to ${data.address}, at most one an hour.`;
  return (
    <div className="grid gap-1">
      <div className="flex items-center gap-2">
        <input
          id={`${id}-replies`}
          type="checkbox"
          checked={data?.subscribed ?? false}
          onChange={(event) => void change(event.target.checked)}
          aria-describedby={`${id}-note`}
          aria-busy={saving || undefined}
          className="h-4 w-4 accent-[var(--color-brand)]"
        />
        <label htmlFor={`${id}-replies`} className="text-ink text-sm">
          Email me when someone replies
        </label>
      </div>
      <p id={`${id}-note`} aria-live="polite" className="text-muted text-xs">
        {saving ? 'Saving…' : note}
      </p>
      {failure && (
        <p role="alert" className="text-sm text-red-700">
          {failure}
        </p>
      )}
    </div>
  );
}
