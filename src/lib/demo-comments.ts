// Demo mode's simulated discussion (docs/product.md): sample comments shown instead of
// the real thread, and comments "posted" locally. Nothing here is sent to the API.
import type { Comment, Reply } from '../../api/contract.ts';
import { SHOWN_TO_READERS } from './thread.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** Demo comments are visible, unedited and nobody's own. */
const SHOWN = SHOWN_TO_READERS;

/** Demo ids are negative so they can never collide with (or be sent as) real comment ids. */
let nextDemoId = -1000;

/** The sample thread, dated relative to `now` so its times always read naturally. */
export function demoComments(now: Date = new Date()): Comment[] {
  const at = (msAgo: number) => new Date(now.getTime() - msAgo).toISOString();
  return [
    {
      comment_id: -1,
      content:
        'Welcome to the discussion! Please keep it kind and practical: what worked for your family, and what did not.',
      author_name: 'Sam Admin',
      author_avatar_url: null,
      created_at: at(3 * DAY),
      like_count: 12,
      ...SHOWN,
      reply_count: 1,
      parent_comment_id: null,
      replies: [
        {
          comment_id: -2,
          content: 'Thanks, Sam. Lovely to see so many new parents here.',
          author_name: 'Jordan Parent',
          author_avatar_url: null,
          created_at: at(2 * DAY),
          like_count: 3,
          ...SHOWN,
        },
      ],
    },
    {
      comment_id: -3,
      content:
        'A reminder for everyone trading gear: check the recall list before you buy.\nMeet somewhere public for hand-overs.',
      author_name: 'Riley Moderator',
      author_avatar_url: null,
      created_at: at(26 * HOUR),
      like_count: 8,
      ...SHOWN,
      reply_count: 0,
      parent_comment_id: null,
      replies: [],
    },
    {
      comment_id: -4,
      content: 'We tried this last spring and it made bedtime so much calmer. Highly recommend!',
      author_name: 'Alex Morgan',
      author_avatar_url: null,
      created_at: at(5 * HOUR),
      like_count: 2,
      ...SHOWN,
      reply_count: 0,
      parent_comment_id: null,
      replies: [],
    },
  ];
}

/** A comment "posted" in demo mode: kept in the page only. */
export function demoReply(content: string, authorName: string, now: Date = new Date()): Reply {
  return {
    comment_id: nextDemoId--,
    content: content.trim(),
    author_name: authorName,
    author_avatar_url: null,
    created_at: now.toISOString(),
    like_count: 0,
    ...SHOWN,
  };
}

/** The demo-mode role a commenter's name implies (docs/product.md): shown as an icon in demo mode. */
export function demoRole(authorName: string): 'admin' | 'moderator' | null {
  if (authorName.includes('Admin')) return 'admin';
  if (authorName.includes('Moderator')) return 'moderator';
  return null;
}
