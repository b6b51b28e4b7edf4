import { describe, expect, it } from 'vitest';
import { blogHref, blogView, categoryColor, readBlogQuery, type PostSummary } from '../../src/lib/blog.ts';

function post(n: number, categories: string[], isFeatured = false): PostSummary {
  return {
    postId: n,
    slug: `post-${n}`,
    title: `Post ${n}`,
    excerpt: '',
    featuredImageUrl: null,
    authorName: 'A',
    publishedAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    viewCount: 0,
    likeCount: 0,
    commentCount: 0,
    readingTimeMinutes: 1,
    isFeatured,
    relatedCategories: categories,
  };
}

const all = [
  post(1, ['a'], true),
  ...Array.from({ length: 24 }, (_, i) => post(i + 2, i % 2 ? ['a'] : ['b'])),
];

describe('blogView', () => {
  it('takes the featured post out of the pages of ten', () => {
    const view = blogView(all, null, 1);
    expect(view.featured?.slug).toBe('post-1');
    expect(view.total).toBe(24);
    expect(view.pageCount).toBe(3);
    expect(view.posts).toHaveLength(10);
    expect([view.from, view.to]).toEqual([1, 10]);
    expect(blogView(all, null, 3)).toMatchObject({ from: 21, to: 24, page: 3 });
  });

  it('clamps out-of-range pages', () => {
    expect(blogView(all, null, 99).page).toBe(3);
    expect(blogView(all, null, -2).page).toBe(1);
    expect(blogView(all, null, Number.NaN).page).toBe(1);
  });

  it('filters by category, keeping the featured post only when it belongs', () => {
    const b = blogView(all, 'b', 1);
    expect(b.featured).toBeNull();
    expect(b.total).toBe(12);
    expect(b.posts.every((p) => p.relatedCategories.includes('b'))).toBe(true);
    const a = blogView(all, 'a', 1);
    expect(a.featured?.slug).toBe('post-1');
    expect(a.total).toBe(12);
  });

  it('is empty for a category without posts', () => {
    expect(blogView(all, 'none', 1)).toMatchObject({
      featured: null,
      total: 0,
      from: 0,
      to: 0,
      pageCount: 1,
    });
  });
});

describe('the blog URL', () => {
  it('reads and writes category and page', () => {
    expect(readBlogQuery('?category=a&page=2', ['a'])).toEqual({ category: 'a', page: 2 });
    expect(readBlogQuery('?category=zzz&page=x', ['a'])).toEqual({ category: null, page: 1 });
    expect(blogHref('a', 2)).toBe('/blog?category=a&page=2');
    expect(blogHref(null, 1)).toBe('/blog');
  });
});

describe('categoryColor', () => {
  it('uses the fixed colours, then colorHex, then grey', () => {
    expect(categoryColor({ slug: 'marketplace', colorHex: '#000000' })).toBe('#15803d');
    expect(categoryColor({ slug: 'family-stories', colorHex: '#0f766e' })).toBe('#0f766e');
    expect(categoryColor({ slug: 'other', colorHex: null })).toBe('#4b5563');
  });
});
