// @vitest-environment jsdom
// The comments island in jsdom with the real stores. Only the network is stubbed: globalThis.fetch
// answers fixed JSON.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Comment } from '../../api/contract.ts';
import { DEMO_LOADING_DELAY_MS, DEMO_POSTING_DELAY_MS } from '../../src/config.ts';
import CommentsSection from '../../src/islands/CommentsSection.tsx';
import LikeButton from '../../src/islands/LikeButton.tsx';
import { isSafeAvatarUrl } from '../../src/islands/comments/Avatar.tsx';
import { signInErrorMessage, submitErrorMessage } from '../../src/islands/comments/messages.ts';
import { ApiError } from '../../src/lib/api.ts';
import { SHOWN_TO_READERS } from '../../src/lib/thread.ts';
import { $auth, exitDemoMode, initAuth, startDemoMode } from '../../src/stores/auth.ts';
import { $toasts } from '../../src/stores/toast.ts';
import { $signInOpen } from '../../src/stores/ui.ts';

// Each test reads its own post, so the page-wide stores of one test never answer for another.
let POST_ID = 7;
let SLUG = 'a-post-7';
const DAY = 24 * 60 * 60 * 1000;
const SHOWN = SHOWN_TO_READERS;

function comment(
  id: number,
  author: string,
  content: string,
  msAgo: number,
  replies: Comment['replies'] = [],
): Comment {
  return {
    comment_id: id,
    content,
    author_name: author,
    author_avatar_url: null,
    created_at: new Date(Date.now() - msAgo).toISOString(),
    like_count: id,
    ...SHOWN,
    reply_count: replies.length,
    parent_comment_id: null,
    replies,
  };
}

function thread(): Comment[] {
  return [
    comment(1, 'Ada Parent', 'First!\nSecond line <b>not bold</b>', 3 * DAY, [
      {
        comment_id: 3,
        content: 'A reply',
        author_name: 'Ben Reply',
        author_avatar_url: null,
        created_at: new Date(Date.now() - 2 * DAY).toISOString(),
        like_count: 0,
        ...SHOWN,
      },
    ]),
    comment(2, 'Cleo Parent', 'Another comment', 5 * 60 * 1000),
  ];
}

type Answer = { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;
let answers: Record<string, () => Answer>;
let calls: { method: string; url: string }[];

function stubFetch() {
  calls = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, url });
    const answer = await (
      answers[`${method} ${url}`] ?? (() => ({ status: 404, body: { error: 'Not found' } }))
    )();
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  }) as typeof fetch;
}

let COMMENTS_URL = '';
let STATS_URL = '';

/** The auth store settles once it knows there is no session (up to AUTH_INIT_TRIES × 100 ms). */
const authSettled = () => waitFor(() => expect($auth.get().loading).toBe(false), { timeout: 3_000 });

const INITIAL_STATS = { viewCount: 10, likeCount: 4, commentCount: 3 };

/** Renders the island over the static first page and waits until auth has settled (signed out). */
async function renderSection(initialComments: Comment[] = []) {
  const view = render(
    <CommentsSection
      postId={POST_ID}
      slug={SLUG}
      initialStats={INITIAL_STATS}
      initialThread={{ comments: initialComments, next: null }}
    />,
  );
  await authSettled();
  return view;
}

/** A signed-in (non-demo) reader, set through the auth store's public atom. */
function signInAsReader() {
  const now = new Date().toISOString();
  act(() => {
    $auth.set({
      user: {
        uid: 'u1',
        displayName: 'Dana Reader',
        email: 'dana@example.com',
        photoURL: null,
        emailVerified: true,
        isAnonymous: false,
      },
      profile: {
        firebase_uid: 'u1',
        display_name: 'Dana Reader',
        email: 'dana@example.com',
        photo_url: null,
        role: 'admin',
        user_type: ['buyer', 'seller'],
        created_at: now,
        updated_at: now,
        suspension: null,
      },
      loading: false,
      demoMode: false,
    });
  });
}

beforeEach(() => {
  POST_ID += 1;
  SLUG = `a-post-${POST_ID}`;
  COMMENTS_URL = `/api/blog/posts/${POST_ID}/comments`;
  STATS_URL = `/api/blog/posts/${SLUG}/stats`;
  initAuth();
  answers = {
    [`GET ${COMMENTS_URL}`]: () => ({ status: 200, body: thread() }),
    [`GET ${STATS_URL}`]: () => ({
      status: 200,
      body: { postId: POST_ID, viewCount: 11, likeCount: 4, commentCount: 3 },
    }),
  };
  stubFetch();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  act(() => exitDemoMode());
});

describe('CommentsSection: the thread', () => {
  it('shows the empty state and a count of 0', async () => {
    answers[`GET ${COMMENTS_URL}`] = () => ({ status: 200, body: [] });
    answers[`GET ${STATS_URL}`] = () => ({
      status: 200,
      body: { postId: POST_ID, viewCount: 11, likeCount: 4, commentCount: 0 },
    });
    await renderSection();
    expect(await screen.findByText('No comments yet. Be the first to share your thoughts!')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Comments (0)');
  });

  it('shows the load failure with a Retry that loads again', async () => {
    answers[`GET ${COMMENTS_URL}`] = () => ({ status: 500, body: { error: 'boom' } });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderSection();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load comments');
    answers[`GET ${COMMENTS_URL}`] = () => ({ status: 200, body: thread() });
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Another comment')).toBeTruthy();
    vi.restoreAllMocks();
  });

  it('lists comments with replies under their parent, relative times and plain-text content', async () => {
    await renderSection();
    const first = await screen.findByRole('article', { name: 'Comment by Ada Parent' });
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Comments (3)');

    const times = Array.from(document.querySelectorAll('time'));
    expect(times.map((t) => t.textContent)).toEqual(['3 days ago', '2 days ago', '5 minutes ago']);
    // dateTime carries the machine-readable instant.
    expect(Math.abs(Date.now() - 3 * DAY - Date.parse(times[0]!.dateTime))).toBeLessThan(60_000);

    // Plain text: markup is shown as typed, line breaks are kept by CSS.
    const body = within(first).getByText(/First!/);
    expect(body.textContent).toBe('First!\nSecond line <b>not bold</b>');
    expect(body.querySelector('b')).toBeNull();
    expect(body.className).toContain('whitespace-pre-line');

    const replies = within(first).getByRole('list', { name: 'Replies to Ada Parent' });
    expect(within(replies).getByRole('article', { name: 'Reply by Ben Reply' })).toBeTruthy();
    // Initials avatars, no external images.
    expect(document.querySelectorAll('img')).toHaveLength(0);
    expect(within(first).getByText('AP')).toBeTruthy();
  });
});

describe('CommentsSection: signed out', () => {
  it('prompts to sign in and offers neither the comment box, Reply nor comment likes', async () => {
    await renderSection();
    await screen.findByText('Another comment');
    expect(screen.getByText('Please sign in to post comments and participate in discussions.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Post Comment' })).toBeNull();
    expect(screen.queryAllByRole('button', { name: /^Reply/ })).toHaveLength(0);
    expect(screen.queryAllByRole('button', { name: /^Like / })).toHaveLength(0);
    expect(screen.getByText('1 like')).toBeTruthy();
  });
});

describe('CommentsSection: signed in', () => {
  it('disables Post Comment while blank or whitespace, and keeps the text when posting fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderSection();
    signInAsReader();
    const box = screen.getByLabelText('Comment as Dana Reader');
    const button = screen.getByRole('button', { name: 'Post Comment' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await userEvent.type(box, '   ');
    expect(button.disabled).toBe(true);
    await userEvent.type(box, 'Hello there');
    expect(button.disabled).toBe(false);
    expect(screen.getByText('14/2000 characters')).toBeTruthy();

    // No token from the auth store here: the post fails without losing the text.
    await userEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to submit comment. Please try again.',
    );
    expect((box as HTMLTextAreaElement).value).toBe('   Hello there');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    vi.restoreAllMocks();
  });

  it('opens the reply box for one comment at a time; Cancel clears and closes it', async () => {
    await renderSection();
    signInAsReader();
    await screen.findByText('Another comment');
    const replyToAda = screen.getByRole('button', { name: 'Reply to Ada Parent' });
    const replyToCleo = screen.getByRole('button', { name: 'Reply to Cleo Parent' });

    await userEvent.click(replyToAda);
    const adaBox = screen.getByRole('textbox', { name: 'Your reply to Ada Parent' });
    expect(replyToAda.getAttribute('aria-expanded')).toBe('true');
    await userEvent.type(adaBox, 'Draft for Ada');
    expect((screen.getByRole('button', { name: 'Post Reply' }) as HTMLButtonElement).disabled).toBe(false);

    await userEvent.click(replyToCleo);
    expect(screen.queryByRole('textbox', { name: 'Your reply to Ada Parent' })).toBeNull();
    expect(replyToAda.getAttribute('aria-expanded')).toBe('false');
    const cleoBox = screen.getByRole('textbox', { name: 'Your reply to Cleo Parent' }) as HTMLTextAreaElement;
    expect(cleoBox.value).toBe('');
    expect(screen.getAllByRole('button', { name: 'Post Reply' })).toHaveLength(1);

    await userEvent.type(cleoBox, 'Draft for Cleo');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('textbox', { name: /^Your reply to/ })).toBeNull();
    await userEvent.click(replyToCleo);
    expect(
      (screen.getByRole('textbox', { name: 'Your reply to Cleo Parent' }) as HTMLTextAreaElement).value,
    ).toBe('');
  });

  it('offers Reply on top-level comments only, and comment likes with counts', async () => {
    await renderSection();
    signInAsReader();
    await screen.findByText('Another comment');
    const reply = screen.getByRole('article', { name: 'Reply by Ben Reply' });
    expect(within(reply).queryByRole('button', { name: /^Reply/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: /^Reply to / }).map((b) => b.textContent)).toEqual([
      'Reply',
      'Reply',
    ]);
    expect(screen.getByRole('button', { name: 'Like comment by Ada Parent, 1 like' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Like reply by Ben Reply, 0 likes' })).toBeTruthy();
  });

  it('shows the profile card with role and user-type badges', async () => {
    await renderSection();
    signInAsReader();
    const card = screen.getByRole('complementary', { name: 'Your account' });
    expect(within(card).getByRole('heading', { level: 3 }).textContent).toBe('Dana Reader');
    expect(within(card).getByText('Admin')).toBeTruthy();
    expect(within(card).getByText('Buyer')).toBeTruthy();
    expect(within(card).getByText('Seller')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Exit Demo Mode' })).toBeNull();
  });
});

describe('CommentsSection: trust and safety', () => {
  it('shows placeholders in place, "Awaiting review" on the viewer\'s own, the reason for its author and "(edited)"', async () => {
    const own = { is_own: true, can_edit_until: null } as const;
    answers[`GET ${COMMENTS_URL}`] = () => ({
      status: 200,
      body: [
        { ...comment(11, 'Held Author', '', DAY), status: 'held' },
        { ...comment(12, 'Dana Reader', '', DAY), ...own, status: 'removed', status_reason: 'Off topic' },
        {
          ...comment(13, '', '', DAY, [{ ...thread()[0]!.replies[0]!, comment_id: 14 }]),
          status: 'deleted',
        },
        { ...comment(15, 'Dana Reader', 'Links here', DAY), ...own, status: 'pending' },
        { ...comment(16, 'Eve Editor', 'Changed my mind', DAY), edited_at: new Date().toISOString() },
      ],
    });
    await renderSection();
    expect(await screen.findByText('This comment is hidden while a moderator reviews it.')).toBeTruthy();
    const removed = screen.getByRole('article', { name: 'Comment by Dana Reader' });
    expect(within(removed).getByText('This comment was removed by a moderator.')).toBeTruthy();
    expect(within(removed).getByText('Reason: Off topic')).toBeTruthy();
    const deleted = screen.getByRole('article', { name: 'Deleted comment' });
    expect(within(deleted).getByText('This comment was deleted.')).toBeTruthy();
    expect(within(deleted).getByRole('article', { name: 'Reply by Ben Reply' })).toBeTruthy();
    const pending = screen.getByRole('article', { name: 'Comment by Dana Reader, awaiting review' });
    expect(within(pending).getByText('Awaiting review')).toBeTruthy();
    expect(within(pending).getByText('Only you can see this until a moderator approves it.')).toBeTruthy();
    const edited = screen.getByRole('article', { name: 'Comment by Eve Editor' });
    expect(within(edited).getByText(/\(edited/)).toBeTruthy();
    // Placeholders offer no like, reply or report.
    expect(screen.queryAllByRole('button', { name: /Report comment by (Held Author|Dana Reader)/ })).toEqual(
      [],
    );
  });

  it('asks signed-out readers to sign in to report', async () => {
    await renderSection();
    await screen.findByText('Another comment');
    await userEvent.click(screen.getByRole('button', { name: 'Report comment by Cleo Parent' }));
    expect($signInOpen.get()).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => $signInOpen.set(false));
  });

  it('opens the report dialog, asks for a category, and keeps what was chosen when sending fails', async () => {
    await renderSection();
    signInAsReader();
    await screen.findByText('Another comment');
    await userEvent.click(screen.getByRole('button', { name: 'Report reply by Ben Reply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this comment' });
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual([
      'child_safety',
      'unsafe_item',
      'inappropriate_content',
      'suspicious_behavior',
      'suspected_non_parent',
    ]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Report' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Please choose what is wrong with this comment.',
    );
    await userEvent.click(within(dialog).getByRole('radio', { name: /^Suspicious behavior/ }));
    // Answered, the error goes.
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await userEvent.type(within(dialog).getByLabelText('Add a note (optional)'), 'Odd offer');
    expect(within(dialog).getByText('9/1000 characters')).toBeTruthy();
    // No token in this test: the request fails and the dialog keeps the choice and the note.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Report' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Authentication required');
    expect(
      (within(dialog).getByRole('radio', { name: /^Suspicious behavior/ }) as HTMLInputElement).checked,
    ).toBe(true);
    expect((within(dialog).getByLabelText('Add a note (optional)') as HTMLTextAreaElement).value).toBe(
      'Odd offer',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('CommentsSection: demo mode', () => {
  it('simulates the thread and a posted comment locally, sending nothing to the API', async () => {
    await renderSection();
    await screen.findByText('Another comment');
    vi.useFakeTimers();
    act(() => startDemoMode());
    expect(screen.queryByRole('article', { name: 'Comment by Sam Admin' })).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(DEMO_LOADING_DELAY_MS));
    expect(screen.getByRole('article', { name: 'Comment by Sam Admin' })).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Comment by Riley Moderator' })).toBeTruthy();
    // Demo roles show as icons; comment likes are not available (counts only).
    expect(
      within(screen.getByRole('article', { name: 'Comment by Sam Admin' })).getByText('Admin'),
    ).toBeTruthy();
    expect(screen.queryAllByRole('button', { name: /^Like / })).toHaveLength(0);
    const card = screen.getByRole('complementary', { name: 'Your account' });
    expect(within(card).getByRole('button', { name: 'Exit Demo Mode' })).toBeTruthy();

    const author = $auth.get().profile?.display_name || $auth.get().user?.displayName || 'User';
    const box = screen.getByLabelText(`Comment as ${author}`) as HTMLTextAreaElement;
    const button = screen.getByRole('button', { name: 'Post Comment' }) as HTMLButtonElement;
    fireEvent.change(box, { target: { value: 'A simulated comment' } });
    const before = calls.length;
    fireEvent.click(button);
    expect(button.disabled).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(DEMO_POSTING_DELAY_MS - 1));
    expect(screen.queryByText('A simulated comment', { ignore: 'textarea' })).toBeNull();
    expect(button.disabled).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(1));
    const posted = screen.getByRole('article', { name: `Comment by ${author}` });
    expect(within(posted).getByText('A simulated comment')).toBeTruthy();
    expect(within(posted).getByText('less than a minute ago')).toBeTruthy();
    expect(box.value).toBe('');
    expect(calls.slice(before).filter((c) => c.url.includes('/comments'))).toEqual([]);
  });
});

describe('LikeButton', () => {
  it('shows the live count and, signed out, asks to sign in instead of liking', async () => {
    answers[`GET ${STATS_URL}`] = () => ({
      status: 200,
      body: { postId: POST_ID, viewCount: 11, likeCount: 9, commentCount: 3 },
    });
    render(<LikeButton slug={SLUG} initial={INITIAL_STATS} />);
    const button = screen.getByRole('button', { name: 'Like this post, 4 likes' });
    await authSettled();
    await screen.findByRole('button', { name: 'Like this post, 9 likes' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(button);
    expect($toasts.get().map((t) => t.description)).toEqual(['Please sign in to like posts']);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });
});

describe('messages', () => {
  it('maps sign-in failures to the comment card messages', () => {
    const failure = (code: string) => signInErrorMessage(Object.assign(new Error(code), { code }));
    expect(failure('DEMO_MODE')).toEqual({
      message: expect.stringMatching(/demo mode is active.*not configured in this environment/i),
      demo: true,
    });
    expect(failure('auth/popup-blocked').message).toBe(
      'Popup was blocked. Please allow popups for this site and try again.',
    );
    expect(failure('auth/popup-closed-by-user').message).toBe('Sign in was cancelled. Please try again.');
    expect(failure('auth/cancelled-popup-request').message).toBe('Sign in was cancelled. Please try again.');
    expect(failure('auth/unauthorized-domain').message).toBe(
      'This domain is not authorized for authentication. Please contact support.',
    );
    expect(failure('auth/network-request-failed').message).toBe('Failed to sign in. Please try again.');
    expect(signInErrorMessage('weird').message).toBe('Failed to sign in. Please try again.');
  });

  it("shows the server's message for a 429 or a suspension, and the generic one otherwise", () => {
    const wait = 'You are commenting too quickly. Please wait 42 seconds and try again.';
    expect(submitErrorMessage(new ApiError(429, `429: ${JSON.stringify({ error: wait })}`, wait))).toBe(wait);
    expect(
      submitErrorMessage(
        new ApiError(400, '400: {"error":"content: must not be blank"}', 'content: must not be blank'),
      ),
    ).toBe('Failed to submit comment. Please try again.');
    const suspended = 'Your account is suspended until a moderator lifts it (Threats). You can still read, …';
    expect(submitErrorMessage(new ApiError(403, `403: ${suspended}`, suspended))).toBe(suspended);
    expect(submitErrorMessage(new Error('Authentication required'))).toBe(
      'Failed to submit comment. Please try again.',
    );
  });

  it('accepts avatar photos only from same-origin paths or https', () => {
    expect(isSafeAvatarUrl('/avatars/1.png')).toBe(true);
    expect(isSafeAvatarUrl('https://lh3.googleusercontent.com/a/x')).toBe(true);
    for (const url of [
      'http://example.com/a.png',
      '//evil.example/a.png',
      'javascript:alert(1)',
      'data:image/png;base64,AA',
      '',
      null,
    ]) {
      expect(isSafeAvatarUrl(url)).toBe(false);
    }
  });
});
