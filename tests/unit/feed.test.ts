// The blog's feeds carry the newest FEED_POSTS posts, of all posts or of one category's.
import { describe, expect, it } from 'vitest';
import type { BlogCategory, BlogPost } from '../../api/contract.ts';
import { blogFeed, FEED_POSTS } from '../../src/lib/feed.ts';

const tips: BlogCategory = { categoryId: 1, slug: 'tips', categoryName: 'Tips', colorHex: null };
const news: BlogCategory = { categoryId: 2, slug: 'news', categoryName: 'News', colorHex: null };

/** Post n, newer as n is smaller (the API lists posts newest first); every third is news. */
function post(n: number): BlogPost {
  return {
    postId: n,
    slug: `post-${n}`,
    title: `Post ${n}`,
    excerpt: `About ${n}`,
    content: `<p>Body of post ${n}</p>`,
    featuredImageUrl: null,
    featuredImageAlt: null,
    authorName: 'A parent',
    publishedAt: new Date(Date.UTC(2026, 0, 1) - n * 3_600_000).toISOString(),
    createdAt: '2025-01-01T00:00:00.000Z',
    viewCount: 0,
    likeCount: 0,
    commentCount: 0,
    readingTimeMinutes: 1,
    isFeatured: false,
    relatedCategories: [n % 3 === 0 ? 'news' : 'tips'],
  };
}

const titles = async (feed: Response) =>
  [...(await feed.text()).matchAll(/<item><title>([^<]*)<\/title>/g)].map((m) => m[1]);

describe('the blog feeds', () => {
  const posts = Array.from({ length: 3 * FEED_POSTS }, (_, i) => post(i + 1));

  it(`carry the newest ${FEED_POSTS} posts, newest first`, async () => {
    const items = await titles(await blogFeed(posts, [tips, news]));
    expect(items).toEqual(posts.slice(0, FEED_POSTS).map((p) => p.title));
  });

  it(`carry a category's newest ${FEED_POSTS} posts and none of another's`, async () => {
    const items = await titles(await blogFeed(posts, [tips, news], news));
    expect(items).toEqual(
      posts
        .filter((p) => p.relatedCategories.includes('news'))
        .slice(0, FEED_POSTS)
        .map((p) => p.title),
    );
  });

  it('carry every post when there are fewer', async () => {
    const items = await titles(await blogFeed(posts.slice(0, 7), [tips, news]));
    expect(items).toHaveLength(7);
  });
});
