import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { Comment } from '../../api/contract.ts';
import { DEMO_LOADING_DELAY_MS, DEMO_POSTING_DELAY_MS } from '../config.ts';
import { demoComments, demoReply } from '../lib/demo-comments.ts';
import { addToThread, countAll } from '../lib/thread.ts';
import { $auth, accountName, initAuth } from '../stores/auth.ts';
import {
  likeComment,
  loadMoreComments,
  postComment,
  type Thread,
  threads,
  useThread,
} from '../stores/comments.ts';
import { usePostStats } from '../stores/posts.ts';
import { $signInOpen } from '../stores/ui.ts';
import { CommentForm } from './comments/CommentForm.tsx';
import { type CommentActions, CommentItem, replyButtonId } from './comments/CommentItem.tsx';
import { ProfileCard } from './comments/ProfileCard.tsx';
import { LOAD_FAILED, submitErrorMessage } from './comments/messages.ts';
import { SignInCard } from './comments/SignInCard.tsx';

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

  const live = useThread(postId, initialThread);
  const stats = usePostStats(slug, initialStats);
  const [demo, setDemo] = useState<DemoThread>({ state: 'loading' });
  const [status, setStatus] = useState('');
  const [more, setMore] = useState<'idle' | 'loading' | 'failed'>('idle');

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
  async function send(content: string, parentCommentId: number | null): Promise<void> {
    if (demoMode) {
      await wait(DEMO_POSTING_DELAY_MS);
      const comment = demoReply(content, authorName);
      setDemo((t) =>
        t.state === 'ready'
          ? { state: 'ready', comments: addToThread(t.comments, comment, parentCommentId) }
          : t,
      );
      return;
    }
    await postComment({ postId, slug }, content, parentCommentId);
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

  async function showMore() {
    if (more === 'loading') return;
    setMore('loading');
    try {
      await loadMoreComments(postId);
      setMore('idle');
    } catch (error) {
      console.error('Failed to load more comments', error);
      setMore('failed');
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
    onLike: (id) => void onLike(id),
    canReply: signedIn,
    replyingTo,
    onReply: toggleReply,
    demoMode,
  };

  const comments: Comment[] | null = demoMode
    ? demo.state === 'ready'
      ? demo.comments
      : null
    : live.thread.comments;
  const count = demoMode ? (comments ? countAll(comments) : 0) : stats.commentCount;

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
    />
  );

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="min-w-0">
        <h2 id="comments-heading" className="text-ink text-2xl font-bold">
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
                onClick={() => threads.store(String(postId)).invalidate()}
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
                />
              ))}
            </ul>
          )}
          {!demoMode && live.thread.next !== null && (
            <div className="mt-4 text-center">
              <button
                type="button"
                onClick={() => void showMore()}
                aria-disabled={more === 'loading' || undefined}
                aria-busy={more === 'loading' || undefined}
                className="border-brand text-brand-dark hover:bg-brand-light rounded-full border px-5 py-2 text-sm font-semibold aria-disabled:cursor-wait aria-disabled:opacity-70"
              >
                {more === 'loading' ? 'Loading more comments…' : 'Show more comments'}
              </button>
              {more === 'failed' && (
                <p role="alert" className="mt-2 text-sm text-red-700">
                  {LOAD_FAILED}. Please try again.
                </p>
              )}
            </div>
          )}
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
