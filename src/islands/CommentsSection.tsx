import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { canModerate, type Comment, type Reply, type ReportCategory } from '../../api/contract.ts';
import { DEMO_LOADING_DELAY_MS, DEMO_POSTING_DELAY_MS } from '../config.ts';
import { ShowMore, useShowMore } from '../components/ShowMore.tsx';
import { errorMessage } from '../lib/api.ts';
import { demoComments, demoReply } from '../lib/demo-comments.ts';
import { addToThread, countAll, findInThread } from '../lib/thread.ts';
import { $auth, accountName, initAuth } from '../stores/auth.ts';
import {
  deleteComment,
  editComment,
  likeComment,
  loadMoreComments,
  postComment,
  reloadThread,
  reportComment,
  type Thread,
  useThread,
} from '../stores/comments.ts';
import { usePostStats } from '../stores/posts.ts';
import { $signInOpen } from '../stores/ui.ts';
import type { CommentDialogKind } from './comments/CommentDialog.tsx';
import { CommentForm } from './comments/CommentForm.tsx';
import {
  type CommentActions,
  commentAnchor,
  CommentItem,
  editButtonId,
  replyButtonId,
} from './comments/CommentItem.tsx';
import { ProfileCard } from './comments/ProfileCard.tsx';
import { ReplyEmailsToggle } from './comments/ReplyEmailsToggle.tsx';
import { LOAD_FAILED, submitErrorMessage } from './comments/messages.ts';
import { SignInCard } from './comments/SignInCard.tsx';

// Only a reader who reports, deletes or removes a comment downloads the dialogs.
const CommentDialog = lazy(() => import('./comments/CommentDialog.tsx'));

interface Props {
  postId: number;
  slug: string;
  /** The post's numbers in the static HTML; replaced by the live ones after load. */
  initialStats: { viewCount: number; likeCount: number; commentCount: number };
  /** The thread's first page as it was at build time, so the page reads without JavaScript. */
  initialThread: Thread;
}

type DemoThread = { state: 'loading' } | { state: 'ready'; comments: Comment[] };

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** "14 minutes", "1 minute", "less than a minute". */
function minutesLeft(until: string | null, now: number): string {
  const minutes = Math.floor(((until ? Date.parse(until) : now) - now) / 60_000);
  if (minutes < 1) return 'less than a minute';
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** The clock the Edit buttons and the edit box read, ticking while anything of the viewer's can be edited. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/**
 * The post's discussion: the thread (first page in the static HTML, then live), the comment box
 * and a sidebar card. In demo mode the thread and posting are simulated in the page.
 */
export default function CommentsSection({ postId, slug, initialStats, initialThread }: Props) {
  // Hydrate with the state the static HTML was rendered with (the store's initial value): another
  // island may already have settled the store, and reading that here would break hydration.
  const auth = useStore($auth, { ssr: 'initial' });
  const signedIn = !auth.loading && auth.user !== null;
  // The simulated discussion is for the demo user only: in demo mode visitors start signed out
  // and read the real thread.
  const demoMode = auth.demoMode && auth.user !== null;
  const authorName = accountName(auth);

  const moderator = signedIn && !demoMode && canModerate(auth.profile?.role);
  // Each viewer reads their own thread (their pending comments, moderators everything); none while
  // sign-in is still being checked, so the static thread stays until it is known.
  const live = useThread(postId, auth.loading ? undefined : (auth.user?.uid ?? null), initialThread);
  const stats = usePostStats(slug, initialStats);
  const [demo, setDemo] = useState<DemoThread>({ state: 'loading' });
  const [status, setStatus] = useState('');
  const more = useShowMore(
    () => loadMoreComments(postId),
    (error) => console.error('Failed to load more comments', error),
  );

  const [text, setText] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);

  const [replyingTo, setReplyingTo] = useState<number | null>(null);
  const [replyText, setReplyText] = useState('');
  const [replySubmitting, setReplySubmitting] = useState(false);
  const [replyError, setReplyError] = useState<string | null>(null);
  const replyRef = useRef<HTMLTextAreaElement>(null);

  const [likingId, setLikingId] = useState<number | null>(null);

  const [editing, setEditing] = useState<Reply | null>(null);
  const [editText, setEditText] = useState('');
  const [editSubmitting, setEditSubmitting] = useState(false);
  const [editError, setEditError] = useState<string | null>(null);
  const editRef = useRef<HTMLTextAreaElement>(null);

  const [dialog, setDialog] = useState<{ kind: CommentDialogKind; comment: Reply } | null>(null);

  useEffect(() => {
    initAuth();
  }, []);

  // A link to one comment (`#comment-<id>`, as in reply emails) lands on it once the live thread
  // shows it, also when it is newer than the static page.
  const jumped = useRef(false);
  useEffect(() => {
    if (jumped.current || !/^#comment-\d+$/.test(window.location.hash)) return;
    const target = document.getElementById(window.location.hash.slice(1));
    if (!target) return;
    jumped.current = true;
    target.scrollIntoView({ block: 'center' });
    target.focus({ preventScroll: true });
  }, [live.thread]);

  // Demo mode's sample thread, after the simulated loading delay.
  useEffect(() => {
    if (!demoMode) return;
    let current = true;
    void wait(DEMO_LOADING_DELAY_MS).then(() => {
      if (current) setDemo({ state: 'ready', comments: demoComments() });
    });
    return () => {
      current = false;
      setDemo({ state: 'loading' });
    };
  }, [demoMode]);

  /** Sends (or, in demo mode, simulates) a comment; throws so the caller keeps the text. */
  async function send(content: string, parentCommentId: number | null): Promise<Reply> {
    if (demoMode) {
      await wait(DEMO_POSTING_DELAY_MS);
      const comment = demoReply(content, authorName);
      setDemo((t) =>
        t.state === 'ready'
          ? { state: 'ready', comments: addToThread(t.comments, comment, parentCommentId) }
          : t,
      );
      return comment;
    }
    return postComment({ postId, slug }, content, parentCommentId);
  }

  /** What to announce after posting: a comment waiting for review says so. */
  const postedMessage = (comment: Reply, what: 'comment' | 'reply') =>
    comment.status === 'pending'
      ? `Your ${what} is awaiting review: it will appear for others once a moderator approves it.`
      : `Your ${what} was posted.`;

  async function submitComment() {
    setSubmitting(true);
    setSubmitError(null);
    setStatus('');
    try {
      const posted = await send(text, null);
      setText('');
      setStatus(postedMessage(posted, 'comment'));
    } catch (error) {
      console.error('Failed to submit comment', error);
      setSubmitError(submitErrorMessage(error));
    } finally {
      setSubmitting(false);
      textRef.current?.focus();
    }
  }

  function closeReply(commentId: number) {
    setReplyingTo(null);
    setReplyText('');
    setReplyError(null);
    // Back to the Reply button that opened the box.
    requestAnimationFrame(() => document.getElementById(replyButtonId(commentId))?.focus());
  }

  async function submitReply() {
    if (replyingTo === null) return;
    const parent = replyingTo;
    setReplySubmitting(true);
    setReplyError(null);
    setStatus('');
    try {
      const posted = await send(replyText, parent);
      setStatus(postedMessage(posted, 'reply'));
      closeReply(parent);
    } catch (error) {
      console.error('Failed to submit reply', error);
      setReplyError(submitErrorMessage(error));
      replyRef.current?.focus();
    } finally {
      setReplySubmitting(false);
    }
  }

  async function onLike(commentId: number) {
    if (likingId !== null || demoMode) return;
    setLikingId(commentId);
    try {
      await likeComment(postId, commentId);
    } catch (error) {
      // Comment like failures are only logged.
      console.error('Failed to like comment', error);
    } finally {
      setLikingId(null);
    }
  }

  function toggleReply(commentId: number) {
    if (replySubmitting) return;
    if (replyingTo === commentId) {
      closeReply(commentId);
      return;
    }
    // One reply box at a time: opening another closes (and clears) the first.
    setReplyingTo(commentId);
    setReplyText('');
    setReplyError(null);
    requestAnimationFrame(() => replyRef.current?.focus());
  }

  function openEdit(comment: Reply) {
    setEditing(comment);
    setEditText(comment.content);
    setEditError(null);
    requestAnimationFrame(() => editRef.current?.focus());
  }

  function closeEdit() {
    const id = editing?.comment_id;
    setEditing(null);
    setEditError(null);
    // Back to the Edit button (or, when the window has closed meanwhile, the comment itself).
    if (id !== undefined) {
      requestAnimationFrame(() =>
        (document.getElementById(editButtonId(id)) ?? document.getElementById(commentAnchor(id)))?.focus(),
      );
    }
  }

  async function submitEdit() {
    if (!editing) return;
    setEditSubmitting(true);
    setEditError(null);
    try {
      const after = await editComment({ postId, slug }, editing.comment_id, editText);
      setStatus(
        after.status === 'pending'
          ? 'Your edit was saved. With more than two links, your comment now waits for a moderator.'
          : 'Your edit was saved.',
      );
      closeEdit();
    } catch (error) {
      console.error('Failed to edit comment', error);
      setEditError(errorMessage(error));
      editRef.current?.focus();
    } finally {
      setEditSubmitting(false);
    }
  }

  function openDialog(kind: CommentDialogKind, comment: Reply) {
    if (kind === 'report' && !signedIn) {
      $signInOpen.set(true);
      return;
    }
    setDialog({ kind, comment });
  }

  async function report(comment: Reply, filed: { category: ReportCategory; note: string | null }) {
    if (demoMode) {
      // Demo mode's thread is simulated: nothing is sent.
      await wait(DEMO_POSTING_DELAY_MS);
      return comment;
    }
    const after = await reportComment({ postId, slug }, comment.comment_id, filed);
    setStatus('Your report was received.');
    return after;
  }

  async function remove(comment: Reply, reason: string | null) {
    await deleteComment({ postId, slug }, comment, reason);
    setStatus(comment.is_own ? 'Your comment was deleted.' : 'The comment was removed.');
  }

  const comments: Comment[] | null = demoMode
    ? demo.state === 'ready'
      ? demo.comments
      : null
    : live.thread.comments;
  const editable = (comments ?? []).some(
    (c) => c.can_edit_until !== null || c.replies.some((r) => r.can_edit_until !== null),
  );
  const now = useNow(editable);

  const actions: CommentActions = {
    canLike: signedIn && !demoMode,
    likingId,
    onLike: (id) => void onLike(id),
    canReply: signedIn,
    replyingTo,
    onReply: toggleReply,
    onReport: (comment) => openDialog('report', comment),
    editingId: editing?.comment_id ?? null,
    onEdit: openEdit,
    onDelete: (comment) => openDialog(comment.is_own ? 'delete' : 'remove', comment),
    moderator,
    now,
    demoMode,
  };

  const count = demoMode ? (comments ? countAll(comments) : 0) : stats.commentCount;

  // Reply emails are real mail: not for demo mode's simulated thread.
  const notify = signedIn && !demoMode ? <ReplyEmailsToggle postId={postId} /> : undefined;

  const replyTarget = comments?.find((c) => c.comment_id === replyingTo);
  const replyBox = replyTarget && (
    <CommentForm
      label={`Your reply to ${replyTarget.author_name}`}
      placeholder="Write a reply…"
      value={replyText}
      onChange={setReplyText}
      onSubmit={submitReply}
      submitting={replySubmitting}
      submitLabel="Post Reply"
      onCancel={() => closeReply(replyTarget.comment_id)}
      error={replyError}
      textareaRef={replyRef}
      rows={3}
      notify={notify}
    />
  );

  const editTarget = editing && comments ? findInThread(comments, editing.comment_id) : undefined;
  const editBox = editTarget && (
    <CommentForm
      label={`Edit your ${comments?.some((c) => c.comment_id === editTarget.comment_id) ? 'comment' : 'reply'}`}
      value={editText}
      onChange={setEditText}
      onSubmit={submitEdit}
      submitting={editSubmitting}
      submitLabel="Save"
      onCancel={closeEdit}
      error={editError}
      textareaRef={editRef}
      rows={3}
      hint={`You can edit it for ${minutesLeft(editTarget.can_edit_until, now)} more.`}
    />
  );

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="min-w-0">
        <h2 id="comments-heading" tabIndex={-1} className="text-ink text-2xl font-bold focus:outline-none">
          {`Comments (${count})`}
        </h2>

        <div className="border-sand mt-6 rounded-2xl border bg-white p-5 shadow-sm">
          {auth.loading ? (
            <div aria-busy="true" className="animate-pulse space-y-3">
              <span className="sr-only">Loading…</span>
              <div className="bg-sand h-4 w-40 rounded" />
              <div className="bg-sand h-24 rounded-lg" />
              <div className="bg-sand ml-auto h-9 w-32 rounded-lg" />
            </div>
          ) : signedIn ? (
            <>
              <h3 className="text-ink mb-3 text-lg font-semibold">Leave a comment</h3>
              <CommentForm
                label={`Comment as ${authorName}`}
                showLabel
                placeholder="Share your thoughts, tips or questions…"
                value={text}
                onChange={setText}
                onSubmit={submitComment}
                submitting={submitting}
                submitLabel="Post Comment"
                error={submitError}
                textareaRef={textRef}
                notify={notify}
              />
            </>
          ) : (
            <div className="text-center">
              <h3 className="text-ink text-lg font-semibold">Leave a comment</h3>
              <p className="text-muted mt-1">
                Please sign in to post comments and participate in discussions.
              </p>
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

        <p role="status" className="sr-only">
          {status}
        </p>

        <div className="mt-4" aria-busy={comments === null || undefined}>
          {!demoMode && live.failed && (
            <div role="alert" className="rounded-lg bg-red-50 p-4 text-red-800">
              <p>{LOAD_FAILED}</p>
              <button
                type="button"
                onClick={() => reloadThread(postId)}
                className="mt-2 rounded-lg border border-red-800 px-3 py-1.5 text-sm font-semibold hover:bg-red-100"
              >
                Retry
              </button>
            </div>
          )}
          {comments === null ? (
            <div className="animate-pulse space-y-6 py-5">
              <span className="sr-only">Loading comments…</span>
              {[0, 1].map((i) => (
                <div key={i} className="flex gap-3">
                  <div className="bg-sand h-10 w-10 rounded-full" />
                  <div className="flex-1 space-y-2">
                    <div className="bg-sand h-4 w-1/3 rounded" />
                    <div className="bg-sand h-4 w-full rounded" />
                    <div className="bg-sand h-4 w-2/3 rounded" />
                  </div>
                </div>
              ))}
            </div>
          ) : comments.length === 0 ? (
            <p className="text-muted py-8 text-center">
              No comments yet. Be the first to share your thoughts!
            </p>
          ) : (
            <ul aria-label="Comments" className="divide-sand divide-y">
              {comments.map((comment) => (
                <CommentItem
                  key={comment.comment_id}
                  comment={comment}
                  actions={actions}
                  replyBox={comment.comment_id === replyingTo ? replyBox : undefined}
                  editBox={editBox}
                />
              ))}
            </ul>
          )}
          {!demoMode && live.thread.next !== null && (
            <ShowMore
              state={more.state}
              onClick={more.run}
              label="Show more comments"
              loadingLabel="Loading more comments…"
              failure={`${LOAD_FAILED}. Please try again.`}
            />
          )}
        </div>
      </div>

      {dialog && (
        <Suspense fallback={null}>
          <CommentDialog
            kind={dialog.kind}
            comment={dialog.comment}
            onReport={(filed) => report(dialog.comment, filed)}
            onDelete={(reason) => remove(dialog.comment, reason)}
            onClose={() => setDialog(null)}
            fallbackFocus={() => document.getElementById('comments-heading')}
          />
        </Suspense>
      )}

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
        ) : signedIn ? (
          <ProfileCard auth={auth} />
        ) : (
          <SignInCard />
        )}
      </aside>
    </div>
  );
}
