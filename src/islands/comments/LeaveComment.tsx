import type { ReactNode } from 'react';
import type { OwnSuspension } from '../../../api/contract.ts';
import { useTimeLabels } from '../../lib/time.ts';
import { $signInOpen } from '../../stores/ui.ts';
import { CommentForm } from './CommentForm.tsx';
import { suspendedNotice } from './messages.ts';
import type { Draft } from './useDraft.ts';

interface Props {
  /** Sign-in is still being checked. */
  loading: boolean;
  signedIn: boolean;
  authorName: string;
  /** The signed-in parent's suspension in force, if any: the box says so instead of taking text. */
  suspension: OwnSuspension | null;
  draft: Draft;
  onSubmit: () => void;
  notify?: ReactNode;
}

/** Why a suspended parent cannot comment, with the end in their own time zone. */
function Suspended({ suspension }: { suspension: OwnSuspension }) {
  const until = useTimeLabels(suspension.until)?.absolute ?? null;
  return (
    <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
      {suspendedNotice(until, suspension.reason)}
    </p>
  );
}

/** The box above the thread: the comment form, or a prompt to sign in, or why they cannot comment. */
export function LeaveComment({ loading, signedIn, authorName, suspension, draft, onSubmit, notify }: Props) {
  return (
    <div className="border-sand mt-6 rounded-2xl border bg-white p-5 shadow-sm">
      {loading ? (
        <div aria-busy="true" className="animate-pulse space-y-3">
          <span className="sr-only">Loading…</span>
          <div className="bg-sand h-4 w-40 rounded" />
          <div className="bg-sand h-24 rounded-lg" />
          <div className="bg-sand ml-auto h-9 w-32 rounded-lg" />
        </div>
      ) : signedIn && suspension ? (
        <>
          <h3 className="text-ink mb-3 text-lg font-semibold">Leave a comment</h3>
          <Suspended suspension={suspension} />
        </>
      ) : signedIn ? (
        <>
          <h3 className="text-ink mb-3 text-lg font-semibold">Leave a comment</h3>
          <CommentForm
            label={`Comment as ${authorName}`}
            showLabel
            placeholder="Share your thoughts, tips or questions…"
            {...draft.field}
            onSubmit={onSubmit}
            submitLabel="Post Comment"
            notify={notify}
          />
        </>
      ) : (
        <div className="text-center">
          <h3 className="text-ink text-lg font-semibold">Leave a comment</h3>
          <p className="text-muted mt-1">Please sign in to post comments and participate in discussions.</p>
          <button
            type="button"
            onClick={() => $signInOpen.set(true)}
            className="bg-brand hover:bg-brand-dark mt-4 rounded-lg px-5 py-2 text-sm font-semibold text-white"
          >
            Sign In
          </button>
        </div>
      )}
    </div>
  );
}
