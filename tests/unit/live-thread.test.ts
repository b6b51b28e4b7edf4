// How a page's thread takes a change from its live stream (src/lib/live-thread.ts), and the "best"
// order's score (docs/product.md, "Comments").
import { describe, expect, it } from 'vitest';
import type { Comment, Reply } from '../../api/contract.ts';
import { bestScore, type ThreadChange } from '../../api/contract/live-threads.ts';
import {
  applyChange,
  applyToWaiting,
  isThreadChange,
  newCommentsLabel,
  touchesWaiting,
} from '../../src/lib/live-thread.ts';
import { SHOWN_TO_READERS } from '../../src/lib/thread.ts';

const reply = (id: number, extra: Partial<Reply> = {}): Reply => ({
  ...SHOWN_TO_READERS,
  comment_id: id,
  content: `c${id}`,
  author_name: 'A',
  author_avatar_url: null,
  created_at: '2026-01-01T00:00:00.000Z',
  like_count: 0,
  ...extra,
});
const top = (id: number, replies: Reply[] = [], extra: Partial<Reply> = {}): Comment => ({
  ...reply(id, extra),
  reply_count: replies.length,
  parent_comment_id: null,
  replies,
});
const changed = (
  comment: Reply,
  parentCommentId: number | null = null,
  replyCount = 0,
): ThreadChange<Reply> => ({
  id: 1,
  kind: 'comment',
  comment,
  parentCommentId,
  replyCount,
  commentCount: 9,
});

const newOne = (commentId: number): ThreadChange<Reply> => ({
  id: 2,
  kind: 'new',
  commentId,
  commentCount: 9,
});

describe('applyChange', () => {
  it('holds a new top-level comment back, and puts a new reply under its parent, marked new', () => {
    const thread = [top(1)];
    const root = applyChange(
      thread,
      changed(reply(2, { created_at: '2026-01-02T00:00:00.000Z', like_count: 1 })),
      false,
    );
    expect(root.comments).toBe(thread);
    expect(root.waiting).toBe(2);
    // A like on an older one the reader has not paged to is not a new comment.
    const older = changed(reply(5, { created_at: '2025-12-01T00:00:00.000Z', like_count: 3 }));
    expect(applyChange(thread, older, false)).toEqual({
      comments: thread,
      waiting: null,
      added: [],
      reload: false,
    });
    // Announced only: it waits the same way, its content to come when the reader shows it.
    const announced = applyChange(thread, newOne(6), false);
    expect(announced).toEqual({ comments: thread, waiting: 6, added: [], reload: false });
    const answer = applyChange(thread, changed(reply(3), 1, 1), false);
    expect(answer.comments[0]!.replies.map((r) => r.comment_id)).toEqual([3]);
    expect(answer.comments[0]!.reply_count).toBe(1);
    expect(answer.added).toEqual([3]);
    // A reply to a comment not on the page, and a placeholder of one never shown, add nothing.
    expect(applyChange(thread, changed(reply(4), 99, 1), false).comments).toBe(thread);
    expect(
      applyChange(thread, changed(reply(5, { status: 'removed', content: '' })), false).waiting,
    ).toBeNull();
  });

  it('takes likes, edits and removals, keeping what only the viewer sees', () => {
    const own = top(1, [], { is_own: true, can_edit_until: '2026-01-01T00:15:00.000Z' });
    const liked = applyChange([own], changed(reply(1, { like_count: 4, content: 'edited' })), false);
    expect(liked.comments[0]).toMatchObject({ like_count: 4, content: 'edited', is_own: true });
    expect(liked.comments[0]!.can_edit_until).toBe('2026-01-01T00:15:00.000Z');
    const removed = applyChange([top(2)], changed(reply(2, { status: 'removed', content: '' })), false);
    expect(removed.comments[0]).toMatchObject({ status: 'removed', content: '' });
    // Their own comment's status, or any on a moderator's page: the thread loads afresh.
    expect(applyChange([own], changed(reply(1, { status: 'held', content: '' })), false).reload).toBe(true);
    expect(applyChange([top(2)], changed(reply(2, { status: 'held', content: '' })), true).reload).toBe(true);
  });

  it('takes an announcement of a comment the page shows as it stands: visible, no like', () => {
    const own = top(1, [], { is_own: true, like_count: 1 });
    expect(applyChange([own], newOne(1), false).comments[0]).toMatchObject({ like_count: 0, content: 'c1' });
    const shown = [top(1)];
    expect(applyChange(shown, newOne(1), false)).toEqual({
      comments: shown,
      waiting: null,
      added: [],
      reload: false,
    });
    // A placeholder since restored, or their own awaiting review until now: the thread loads afresh.
    expect(applyChange([top(2, [], { status: 'removed', content: '' })], newOne(2), false).reload).toBe(true);
    expect(applyChange([top(3, [], { status: 'pending', is_own: true })], newOne(3), false).reload).toBe(
      true,
    );
  });

  it('drops a comment that is gone, unless the viewer still sees it', () => {
    const gone: ThreadChange<Reply> = {
      id: 2,
      kind: 'gone',
      commentId: 3,
      parentCommentId: 1,
      commentCount: 1,
    };
    expect(applyChange([top(1, [reply(3)])], gone, false).comments[0]!.replies).toEqual([]);
    expect(applyChange([top(1, [reply(3, { is_own: true, status: 'pending' })])], gone, false).reload).toBe(
      true,
    );
  });

  it('lets a waiting comment go when it leaves, and leaves the rest to when it is shown', () => {
    const waiting = [7, 9];
    const answer = changed(reply(8), 7, 1);
    expect(touchesWaiting(waiting, answer)).toBe(true);
    expect(applyToWaiting(waiting, answer)).toBe(waiting);
    expect(applyToWaiting(waiting, changed(reply(7, { like_count: 2 })))).toBe(waiting);
    expect(applyToWaiting(waiting, changed(reply(7, { status: 'removed' })))).toEqual([9]);
    const gone: ThreadChange<Reply> = {
      id: 3,
      kind: 'gone',
      commentId: 9,
      parentCommentId: null,
      commentCount: 1,
    };
    expect(applyToWaiting(waiting, gone)).toEqual([7]);
    expect(touchesWaiting(waiting, changed(reply(8), 1, 1))).toBe(false);
    expect(touchesWaiting(waiting, newOne(10))).toBe(false);
    expect(newCommentsLabel(1)).toBe('1 new comment');
    expect(newCommentsLabel(3)).toBe('3 new comments');
  });
});

describe('isThreadChange', () => {
  it("takes a stream's comment, new and gone changes, and nothing that lacks what places them", () => {
    const comment = {
      id: 7,
      kind: 'comment',
      comment: reply(3),
      parentCommentId: null,
      replyCount: 0,
      commentCount: 4,
    };
    const gone = { id: 8, kind: 'gone', commentId: 3, parentCommentId: 2, commentCount: 3 };
    const announced = { id: 9, kind: 'new', commentId: 4, commentCount: 5 };
    expect(isThreadChange(comment)).toBe(true);
    expect(isThreadChange(gone)).toBe(true);
    expect(isThreadChange(announced)).toBe(true);
    for (const bad of [
      null,
      'a change',
      [],
      { ...comment, id: '7' },
      { ...comment, kind: 'edited' },
      { ...comment, comment: null },
      { ...comment, comment: { content: 'no id' } },
      { ...comment, parentCommentId: 'x' },
      { ...comment, commentCount: undefined },
      { ...gone, commentId: 1.5 },
      { ...announced, commentId: null },
      { ...announced, commentCount: '5' },
    ]) {
      expect(isThreadChange(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('bestScore', () => {
  it('ranks one like on a new comment below forty on an old one, and a well-liked new one above both', () => {
    expect(bestScore(1, 3)).toBeLessThan(bestScore(40, 2_000));
    expect(bestScore(1, 0)).toBeLessThan(bestScore(40, 0));
    expect(bestScore(30, 100)).toBeGreaterThan(bestScore(40, 2_000));
    expect(bestScore(0, 0)).toBe(0);
  });
});
