import { describe, expect, it } from 'vitest';
import type { Comment } from '../../api/contract.ts';
import {
  addToThread,
  countAll,
  deleteFromThread,
  findInThread,
  nextCursor,
  replaceInThread,
  SHOWN_TO_READERS,
} from '../../src/lib/thread.ts';

const shown = SHOWN_TO_READERS;
const comment = (id: number, replies: Comment['replies'] = []): Comment => ({
  comment_id: id,
  content: `c${id}`,
  author_name: 'A',
  author_avatar_url: null,
  created_at: '2026-01-01T00:00:00.000Z',
  like_count: 0,
  ...shown,
  reply_count: replies.length,
  parent_comment_id: null,
  replies,
});
const reply = (id: number) => ({
  comment_id: id,
  content: `r${id}`,
  author_name: 'B',
  author_avatar_url: null,
  created_at: '2026-01-02T00:00:00.000Z',
  like_count: 0,
  ...shown,
});

describe('nextCursor', () => {
  it('reads the before cursor of a rel="next" Link header', () => {
    expect(nextCursor('</api/blog/posts/7/comments?limit=50&before=123>; rel="next"')).toBe(123);
    expect(nextCursor('</api/blog/posts/7/comments?before=9>;rel="next"')).toBe(9);
  });
  it('reads nothing from no header or another relation', () => {
    expect(nextCursor(null)).toBeNull();
    expect(nextCursor('')).toBeNull();
    expect(nextCursor('</api/x?before=5>; rel="prev"')).toBeNull();
  });
});

describe('addToThread', () => {
  it('puts a new comment first and a new reply last under its parent, counting it', () => {
    const thread = [comment(2, [reply(3)]), comment(1)];
    const withComment = addToThread(thread, reply(10), null);
    expect(withComment.map((c) => c.comment_id)).toEqual([10, 2, 1]);
    expect(withComment[0]).toMatchObject({ reply_count: 0, parent_comment_id: null, replies: [] });
    const withReply = addToThread(thread, reply(11), 2);
    expect(withReply[0]!.replies.map((r) => r.comment_id)).toEqual([3, 11]);
    expect(withReply[0]!.reply_count).toBe(2);
    expect(countAll(withReply)).toBe(4);
    // The original is untouched.
    expect(countAll(thread)).toBe(3);
  });

  it("takes the author's view of a comment the live stream showed first, once, without counting it twice", () => {
    const streamed = [comment(2, [reply(3), reply(11)]), comment(1)];
    const own = { ...reply(11), is_own: true };
    const after = addToThread(streamed, own, 2);
    expect(after[0]!.replies.map((r) => r.comment_id)).toEqual([3, 11]);
    expect(after[0]!.replies[1]!.is_own).toBe(true);
    expect(after[0]!.reply_count).toBe(streamed[0]!.reply_count);
    const top = addToThread(streamed, { ...reply(2), is_own: true }, null);
    expect(top.map((c) => c.comment_id)).toEqual([2, 1]);
    expect(top[0]!.is_own).toBe(true);
  });
});

describe('replaceInThread', () => {
  it("replaces a comment or reply with the server's view, moving the parent's count by visibility", () => {
    const thread = [comment(2, [reply(3), reply(4)]), comment(1)];
    const held = { ...reply(3), status: 'held', content: '' } as const;
    const after = replaceInThread(thread, held);
    expect(after[0]!.replies[0]).toEqual(held);
    expect(after[0]!.reply_count).toBe(1);
    expect(countAll(after)).toBe(3);
    const top = replaceInThread(thread, {
      ...reply(1),
      content: 'edited',
      edited_at: '2026-01-03T00:00:00.000Z',
    });
    expect(top[1]).toMatchObject({ comment_id: 1, content: 'edited', replies: [], reply_count: 0 });
    expect(replaceInThread(thread, reply(99))).toEqual(thread);
  });
});

describe('deleteFromThread', () => {
  it('keeps a deleted comment with replies, without its author; drops one without', () => {
    const thread = [comment(2, [reply(3)]), comment(1)];
    const kept = deleteFromThread(thread, 2);
    expect(kept[0]).toMatchObject({ comment_id: 2, status: 'deleted', content: '', author_name: '' });
    expect(kept[0]!.replies).toHaveLength(1);
    expect(deleteFromThread(thread, 1).map((c) => c.comment_id)).toEqual([2]);
  });

  it('drops a reply and its count, and a deleted parent with its last reply', () => {
    const thread = [comment(2, [reply(3)]), comment(1)];
    const withoutReply = deleteFromThread(thread, 3);
    expect(withoutReply[0]).toMatchObject({ comment_id: 2, replies: [], reply_count: 0 });
    const orphaned = deleteFromThread(deleteFromThread(thread, 2), 3);
    expect(orphaned.map((c) => c.comment_id)).toEqual([1]);
  });
});

describe('countAll and findInThread', () => {
  it('counts only visible comments and replies, and finds either', () => {
    const thread = [
      comment(2, [reply(3), { ...reply(4), status: 'pending' }]),
      { ...comment(1), status: 'removed' } as const,
    ];
    expect(countAll(thread)).toBe(2);
    expect(findInThread(thread, 4)?.status).toBe('pending');
    expect(findInThread(thread, 1)?.status).toBe('removed');
    expect(findInThread(thread, 5)).toBeUndefined();
  });
});
