// How a page's thread takes a change from its live stream (src/lib/live-thread.ts), and the "best"
// order's score (docs/product.md, "Comments").
import { describe, expect, it } from 'vitest';
import type { Comment, Reply } from '../../api/contract.ts';
import { bestScore, type ThreadChange } from '../../api/contract/live-threads.ts';
import { applyChange, applyToWaiting, isThreadChange, newCommentsLabel } from '../../src/lib/live-thread.ts';
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

describe('applyChange', () => {
  it('holds a new top-level comment back, and puts a new reply under its parent, marked new', () => {
    const thread = [top(1)];
    const root = applyChange(thread, changed(reply(2)), false);
    expect(root.comments).toBe(thread);
    expect(root.waiting).toMatchObject({ comment_id: 2, replies: [], parent_comment_id: null });
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

  it('keeps waiting comments current: a reply under one, a removal takes it away', () => {
    const waiting = [top(7)];
    expect(applyToWaiting(waiting, changed(reply(8), 7, 1))[0]!.replies.map((r) => r.comment_id)).toEqual([
      8,
    ]);
    expect(applyToWaiting(waiting, changed(reply(7, { status: 'removed' })))).toEqual([]);
    expect(newCommentsLabel(1)).toBe('1 new comment');
    expect(newCommentsLabel(3)).toBe('3 new comments');
  });
});

describe('isThreadChange', () => {
  it("takes a stream's comment and gone changes, and nothing that lacks what places them", () => {
    const comment = {
      id: 7,
      kind: 'comment',
      comment: reply(3),
      parentCommentId: null,
      replyCount: 0,
      commentCount: 4,
    };
    const gone = { id: 8, kind: 'gone', commentId: 3, parentCommentId: 2, commentCount: 3 };
    expect(isThreadChange(comment)).toBe(true);
    expect(isThreadChange(gone)).toBe(true);
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
