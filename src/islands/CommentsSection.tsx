import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { canModerate, type Reply, type ReportCategory } from '../../api/contract.ts';
import { errorMessage } from '../lib/api.ts';
import { findInThread } from '../lib/thread.ts';
import { minutesLeft, useClock } from '../lib/time.ts';
import { $auth, accountName, initAuth } from '../stores/auth.ts';
import {
  deleteComment,
  editComment,
  inDemo,
  postComment,
  reportComment,
  type Thread,
  useDiscussion,
} from '../stores/comments.ts';
import { $signInOpen } from '../stores/ui.ts';
import type { CommentDialogKind } from './comments/CommentDialog.tsx';
import { CommentForm } from './comments/CommentForm.tsx';
import { type CommentActions, commentAnchor, editButtonId, replyButtonId } from './comments/CommentItem.tsx';
import { CommentsAside } from './comments/CommentsAside.tsx';
import { LeaveComment } from './comments/LeaveComment.tsx';
import { postedMessage, submitErrorMessage } from './comments/messages.ts';
import { ReplyEmailsToggle } from './comments/ReplyEmailsToggle.tsx';
import { ThreadView } from './comments/ThreadView.tsx';
import { focusLater, useJumpToComment } from './comments/focus.ts';
import { useDraft } from './comments/useDraft.ts';
import { useLiking } from './comments/useLiking.ts';

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

/**
 * The post's discussion: the thread (first page in the static HTML, then live), the comment box
 * and a sidebar card. Demo mode's simulated thread comes through the same store functions.
 */
export default function CommentsSection({ postId, slug, initialStats, initialThread }: Props) {
  // Hydrate with the state the static HTML was rendered with (the store's initial value): another
  // island may already have settled the store, and reading that here would break hydration.
  const auth = useStore($auth, { ssr: 'initial' });
  const signedIn = !auth.loading && auth.user !== null;
  const demoMode = inDemo(auth);
  const authorName = accountName(auth);
  const moderator = signedIn && !demoMode && canModerate(auth.profile?.role);
  const suspension = (signedIn && auth.profile?.suspension) || null;
  const post = { postId, slug };
  const { comments, hasMore, failed, count } = useDiscussion(post, {
    thread: initialThread,
    stats: initialStats,
  });
  const [status, setStatus] = useState('');

  const comment = useDraft(submitErrorMessage);
  const reply = useDraft(submitErrorMessage);
  const edit = useDraft(errorMessage);
  const [replyingTo, setReplyingTo] = useState<number | null>(null);
  const [editing, setEditing] = useState<Reply | null>(null);
  const liking = useLiking(postId);
  const [dialog, setDialog] = useState<{ kind: CommentDialogKind; comment: Reply } | null>(null);

  useEffect(() => {
    initAuth();
  }, []);

  useJumpToComment(comments);

  async function submitComment() {
    setStatus('');
    await comment.submit(async (text) =>
      setStatus(postedMessage(await postComment(post, text, null), 'comment')),
    );
    comment.ref.current?.focus();
  }

  function closeReply(commentId: number) {
    setReplyingTo(null);
    reply.reset();
    // Back to the Reply button that opened the box.
    focusLater(replyButtonId(commentId));
  }

  function toggleReply(commentId: number) {
    if (reply.submitting) return;
    if (replyingTo === commentId) return closeReply(commentId);
    // One reply box at a time: opening another closes (and clears) the first.
    setReplyingTo(commentId);
    reply.reset();
    requestAnimationFrame(() => reply.ref.current?.focus());
  }

  async function submitReply() {
    if (replyingTo === null) return;
    const parent = replyingTo;
    setStatus('');
    const sent = await reply.submit(async (text) =>
      setStatus(postedMessage(await postComment(post, text, parent), 'reply')),
    );
    if (sent) closeReply(parent);
  }

  function openEdit(target: Reply) {
    setEditing(target);
    edit.reset(target.content);
    requestAnimationFrame(() => edit.ref.current?.focus());
  }

  function closeEdit() {
    const id = editing?.comment_id;
    setEditing(null);
    edit.reset();
    // Back to the Edit button (or, when the window has closed meanwhile, the comment itself).
    if (id !== undefined) focusLater(editButtonId(id), commentAnchor(id));
  }

  async function submitEdit() {
    if (!editing) return;
    const sent = await edit.submit(async (text) => {
      const after = await editComment(post, editing.comment_id, text);
      setStatus(
        after.status === 'pending'
          ? 'Your edit was saved. With more than two links, your comment now waits for a moderator.'
          : 'Your edit was saved.',
      );
    });
    if (sent) closeEdit();
  }

  function openDialog(kind: CommentDialogKind, target: Reply) {
    if (kind === 'report' && !signedIn) return $signInOpen.set(true);
    setDialog({ kind, comment: target });
  }

  async function report(target: Reply, filed: { category: ReportCategory; note: string | null }) {
    const after = await reportComment(post, target, filed);
    setStatus('Your report was received.');
    return after;
  }

  async function remove(target: Reply, reason: string | null) {
    await deleteComment(post, target, reason);
    setStatus(target.is_own ? 'Your comment was deleted.' : 'The comment was removed.');
  }

  const editable = (comments ?? []).some(
    (c) => c.can_edit_until !== null || c.replies.some((r) => r.can_edit_until !== null),
  );
  const now = useClock(editable);

  const actions: CommentActions = {
    canLike: signedIn && !demoMode,
    likingId: liking.id,
    onLike: liking.like,
    canReply: signedIn && !suspension,
    replyingTo,
    onReply: toggleReply,
    onReport: (target) => openDialog('report', target),
    editingId: editing?.comment_id ?? null,
    onEdit: openEdit,
    onDelete: (target) => openDialog(target.is_own ? 'delete' : 'remove', target),
    moderator,
    now,
    demoMode,
  };

  // Reply emails are real mail: not for demo mode's simulated thread.
  const notify = signedIn && !demoMode ? <ReplyEmailsToggle postId={postId} /> : undefined;

  const replyTarget = comments?.find((c) => c.comment_id === replyingTo);
  const replyBox = replyTarget && (
    <CommentForm
      label={`Your reply to ${replyTarget.author_name}`}
      placeholder="Write a reply…"
      {...reply.field}
      onSubmit={submitReply}
      submitLabel="Post Reply"
      onCancel={() => closeReply(replyTarget.comment_id)}
      rows={3}
      notify={notify}
    />
  );

  const editTarget = editing && comments ? findInThread(comments, editing.comment_id) : undefined;
  const editBox = editTarget && (
    <CommentForm
      label={`Edit your ${comments?.some((c) => c.comment_id === editTarget.comment_id) ? 'comment' : 'reply'}`}
      {...edit.field}
      onSubmit={submitEdit}
      submitLabel="Save"
      onCancel={closeEdit}
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
        <LeaveComment
          loading={auth.loading}
          signedIn={signedIn}
          authorName={authorName}
          suspension={suspension}
          draft={comment}
          onSubmit={submitComment}
          notify={notify}
        />
        <p role="status" className="sr-only">
          {status}
        </p>
        <ThreadView
          postId={postId}
          slug={slug}
          comments={comments}
          hasMore={hasMore}
          failed={failed}
          actions={actions}
          replyBox={replyBox}
          editBox={editBox}
        />
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

      <CommentsAside auth={auth} />
    </div>
  );
}
