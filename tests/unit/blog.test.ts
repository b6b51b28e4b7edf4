import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BlogCategory } from '../../api/contract.ts';
import {
  blogListPages,
  blogPageCounts,
  blogView,
  categoryColor,
  pageNumbers,
  type PostSummary,
} from '../../src/lib/blog.ts';
import {
  blogForwardScript,
  blogPath,
  blogQueryPath,
  type BlogPageCounts,
} from '../../api/contract/blog-paths.ts';

function post(n: number, categories: string[], isFeatured = false): PostSummary {
  return {
    postId: n,
    slug: `post-${n}`,
    title: `Post ${n}`,
    excerpt: '',
    featuredImageUrl: null,
    featuredImageAlt: null,
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

function category(slug: string): BlogCategory {
  return { categoryId: slug.length, slug, categoryName: slug.toUpperCase(), colorHex: null };
}

describe('the static pages of the list', () => {
  const categories = [category('a'), category('b'), category('none')];
  const pages = blogListPages(all, categories);

  it('has every page of all posts and of each category, an empty category included', () => {
    expect(pages.map((p) => [p.category?.slug ?? null, p.view.page])).toEqual([
      [null, 1],
      [null, 2],
      [null, 3],
      ['a', 1],
      ['a', 2],
      ['b', 1],
      ['b', 2],
      ['none', 1],
    ]);
    expect(pages.find((p) => p.category?.slug === 'b' && p.view.page === 2)?.view).toEqual(
      blogView(all, 'b', 2),
    );
    expect(pages.at(-1)?.view.total).toBe(0);
  });

  it('counts the pages of each list', () => {
    expect(blogPageCounts(pages)).toEqual({ all: 3, categories: { a: 2, b: 2, none: 1 } });
  });
});

describe('the blog addresses', () => {
  it('puts page 1 at the list itself and later pages under /page/<n>', () => {
    expect(blogPath(null, 1)).toBe('/blog');
    expect(blogPath(null, 2)).toBe('/blog/page/2');
    expect(blogPath('safety-health', 1)).toBe('/blog/category/safety-health');
    expect(blogPath('safety-health', 3)).toBe('/blog/category/safety-health/page/3');
  });

  const counts: BlogPageCounts = { all: 3, categories: { a: 2, none: 1 } };

  it('sends an old ?category=&page= address to its static page', () => {
    expect(blogQueryPath('', counts)).toBeNull();
    expect(blogQueryPath('?utm_source=x', counts)).toBeNull();
    expect(blogQueryPath('?category=a', counts)).toBe('/blog/category/a');
    expect(blogQueryPath('?category=a&page=2', counts)).toBe('/blog/category/a/page/2');
    expect(blogQueryPath('?page=3', counts)).toBe('/blog/page/3');
    expect(blogQueryPath('?page=1', counts)).toBe('/blog');
    expect(blogQueryPath('?category=&page=2', counts)).toBe('/blog/page/2');
  });

  it('sends unknown categories and pages out of range to the nearest page there is', () => {
    expect(blogQueryPath('?category=zzz&page=2', counts)).toBe('/blog/page/2');
    expect(blogQueryPath('?category=toString', counts)).toBe('/blog');
    expect(blogQueryPath('?category=a&page=99', counts)).toBe('/blog/category/a/page/2');
    expect(blogQueryPath('?category=none&page=2', counts)).toBe('/blog/category/none');
    expect(blogQueryPath('?page=0', counts)).toBe('/blog');
    expect(blogQueryPath('?page=-4', counts)).toBe('/blog');
    expect(blogQueryPath('?page=x', counts)).toBe('/blog');
  });

  it('keeps other query parameters', () => {
    expect(blogQueryPath('?utm_source=news&category=a&page=2', counts)).toBe(
      '/blog/category/a/page/2?utm_source=news',
    );
  });

  it('imports nothing, so the server can use the same addresses under Node', () => {
    const source = fs.readFileSync(new URL('../../api/contract/blog-paths.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*import\b/m);
  });

  it("builds /blog's forwarding script from the same functions", () => {
    const run = (search: string, hash = '') => {
      const replaced: string[] = [];
      const attributes: string[] = [];
      const location = { search, hash, replace: (to: string) => replaced.push(to) };
      const document = {
        currentScript: { parentElement: { setAttribute: (name: string) => attributes.push(name) } },
      };
      // The script runs as a classic inline script: location and document are its globals.
      new Function('location', 'document', blogForwardScript(counts))(location, document);
      return { replaced, attributes };
    };
    expect(run('?category=a&page=9', '#latest-articles')).toEqual({
      replaced: ['/blog/category/a/page/2#latest-articles'],
      attributes: ['data-loading'],
    });
    expect(run('')).toEqual({ replaced: [], attributes: [] });
  });
});

describe('pageNumbers', () => {
  it('shows every page up to seven', () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('shows the first, the last and the neighbours of the current page beyond that', () => {
    expect(pageNumbers(1, 100)).toEqual([1, 2, null, 100]);
    expect(pageNumbers(4, 100)).toEqual([1, 2, 3, 4, 5, null, 100]);
    expect(pageNumbers(50, 100)).toEqual([1, null, 49, 50, 51, null, 100]);
    expect(pageNumbers(100, 100)).toEqual([1, null, 99, 100]);
  });
});

describe('categoryColor', () => {
  it('uses the fixed colours, then colorHex, then grey', () => {
    expect(categoryColor({ slug: 'marketplace', colorHex: '#000000' })).toBe('#15803d');
    expect(categoryColor({ slug: 'family-stories', colorHex: '#0f766e' })).toBe('#0f766e');
    expect(categoryColor({ slug: 'other', colorHex: null })).toBe('#4b5563');
  });
});
