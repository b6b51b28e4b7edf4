import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Comment, LikeStatus } from '../../api/db/queries/community.ts';
import { DEMO_LOADING_DELAY_MS, DEMO_POSTING_DELAY_MS } from '../config.ts';
import { apiRequest } from '../lib/api-client.ts';
import { addDemoComment, demoComments, demoReply } from '../lib/demo-comments.ts';
import { $auth, getIdToken, initAuth } from '../stores/auth.ts';
import { $signInOpen } from '../stores/ui.ts';
import { CommentForm } from './comments/CommentForm.tsx';
import { type CommentActions, CommentItem, replyButtonId } from './comments/CommentItem.tsx';
import { ProfileCard } from './comments/ProfileCard.tsx';
import { LOAD_FAILED, submitErrorMessage } from './comments/messages.ts';
import { SignInCard } from './comments/SignInCard.tsx';

interface Props {
  postId: number;
  slug: string;
  /** The comment count in the static HTML; replaced by the live one after load. */
  initialCount: number;
}

type Thread = { state: 'loading' } | { state: 'error' } | { state: 'ready'; comments: Comment[] };

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const countAll = (comments: Comment[]) => comments.reduce((n, c) => n + 1 + c.replies.length, 0);

/**
 * The post's discussion (spec §2, §4, §5, §8): the thread, the comment box and a sidebar card.
 * In demo mode the thread and posting are simulated in the page (decision 11).
 */
export default function CommentsSection({ postId, initialCount }: Props) {
  // Hydrate with the state the static HTML was rendered with (the store's initial value): another
  // island may already have settled the store, and reading that here would break hydration.
  const auth = useStore($auth, { ssr: 'initial' });
  const signedIn = !auth.loading && auth.user !== null;
  // The simulated discussion is for the demo user only: in demo mode visitors start signed out
  // and read the real thread (decision 11).
  const demoMode = auth.demoMode && auth.user !== null;
  const authorName = auth.profile?.display_name || auth.user?.displayName || 'User';

  const [thread, setThread] = useState<Thread>({ state: 'loading' });
  const [reloadKey, setReloadKey] = useState(0);
  const [status, setStatus] = useState('');

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

  useEffect(() => {
    initAuth();
  }, []);

  // Load (or simulate) the thread; again after every post, like or retry, and when demo mode
  // starts or ends. A newer load wins over an older one.
  useEffect(() => {
    const controller = new AbortController();
    (async () => {
      if (demoMode) {
        await wait(DEMO_LOADING_DELAY_MS);
        return demoComments();
      }
      return apiRequest<Comment[]>(`/api/blog/posts/${postId}/comments`, { signal: controller.signal });
    })().then(
      (comments) => {
        if (!controller.signal.aborted) setThread({ state: 'ready', comments });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Failed to load comments', error);
        setThread({ state: 'error' });
      },
    );
    return () => controller.abort();
  }, [postId, demoMode, reloadKey]);

  const reload = useCallback(() => setReloadKey((k) => k + 1), []);

  /** Sends (or, in demo mode, simulates) a comment; throws so the caller keeps the text. */
  async function send(content: string, parentCommentId: number | null): Promise<void> {
    if (demoMode) {
      await wait(DEMO_POSTING_DELAY_MS);
      const comment = demoReply(content, authorName);
      setThread((t) =>
        t.state === 'ready'
          ? { state: 'ready', comments: addDemoComment(t.comments, comment, parentCommentId) }
          : t,
      );
      return;
    }
    const token = await getIdToken();
    if (!token) throw new Error('Authentication required');
    await apiRequest(`/api/blog/posts/${postId}/comments`, {
      method: 'POST',
      token,
      body: { content: content.trim(), parentCommentId },
    });
    reload();
  }

  async function submitComment() {
    setSubmitting(true);
    setSubmitError(null);
    setStatus('');
    try {
      await send(text, null);
      setText('');
      setStatus('Your comment was posted.');
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
      await send(replyText, parent);
      setStatus('Your reply was posted.');
      closeReply(parent);
    } catch (error) {
      console.error('Failed to submit reply', error);
      setReplyError(submitErrorMessage(error));
      replyRef.current?.focus();
    } finally {
      setReplySubmitting(false);
    }
  }

  async function likeComment(commentId: number) {
    if (likingId !== null || demoMode) return;
    setLikingId(commentId);
    try {
      const token = await getIdToken();
      if (!token) throw new Error('Authentication required');
      await apiRequest<LikeStatus>(`/api/blog/comments/${commentId}/like`, { method: 'POST', token });
      reload();
    } catch (error) {
      // Spec §8: comment like failures are only logged.
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

  const actions: CommentActions = {
    canLike: signedIn && !demoMode,
    likingId,
    onLike: likeComment,
    canReply: signedIn,
    replyingTo,
    onReply: toggleReply,
    demoMode,
  };

  const replyTarget =
    thread.state === 'ready' ? thread.comments.find((c) => c.comment_id === replyingTo) : undefined;
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
    />
  );

  const count = thread.state === 'ready' ? countAll(thread.comments) : initialCount;

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="min-w-0">
        <h2 id="comments-heading" className="text-ink text-2xl font-bold">
          Comments ({count})
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

        <div className="mt-4" aria-busy={thread.state === 'loading' || undefined}>
          {thread.state === 'loading' && (
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
          )}
          {thread.state === 'error' && (
            <div role="alert" className="rounded-lg bg-red-50 p-4 text-red-800">
              <p>{LOAD_FAILED}</p>
              <button
                type="button"
                onClick={() => {
                  setThread({ state: 'loading' });
                  reload();
                }}
                className="mt-2 rounded-lg border border-red-800 px-3 py-1.5 text-sm font-semibold hover:bg-red-100"
              >
                Retry
              </button>
            </div>
          )}
          {thread.state === 'ready' &&
            (thread.comments.length === 0 ? (
              <p className="text-muted py-8 text-center">
                No comments yet. Be the first to share your thoughts!
              </p>
            ) : (
              <ul aria-label="Comments" className="divide-sand divide-y">
                {thread.comments.map((comment) => (
                  <CommentItem
                    key={comment.comment_id}
                    comment={comment}
                    actions={actions}
                    replyBox={comment.comment_id === replyingTo ? replyBox : undefined}
                  />
                ))}
              </ul>
            ))}
        </div>
      </div>

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
