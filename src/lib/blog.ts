// The blog list's rules (docs/product.md, "Blog list"): which posts each static page of the list
// shows, and which pages the build writes. The pages' addresses are in api/contract/blog-paths.ts.
import { BLOG_CATEGORY_COLORS, BLOG_PAGE_SIZE, DEFAULT_CATEGORY_COLOR } from '../config.ts';
import type { BlogCategory, BlogPost, PostSummary } from '../../api/contract.ts';
import type { BlogPageCounts } from '../../api/contract/blog-paths.ts';

export type { PostSummary };

export function summarize(post: BlogPost): PostSummary {
  const { content: _content, ...summary } = post;
  return summary;
}

export function categoryColor(category: Pick<BlogCategory, 'slug' | 'colorHex'> | undefined): string {
  if (!category) return DEFAULT_CATEGORY_COLOR;
  return BLOG_CATEGORY_COLORS[category.slug] ?? category.colorHex ?? DEFAULT_CATEGORY_COLOR;
}

/** A post's categories, in its own order, as full category records (unknown slugs skipped). */
export function postCategories(
  post: Pick<PostSummary, 'relatedCategories'>,
  categories: BlogCategory[],
): BlogCategory[] {
  return post.relatedCategories
    .map((slug) => categories.find((c) => c.slug === slug))
    .filter((c): c is BlogCategory => c !== undefined);
}

export interface BlogView {
  featured: PostSummary | null;
  page: number;
  pageCount: number;
  total: number;
  /** 1-based positions of the first and last post on the page (0 when empty). */
  from: number;
  to: number;
  posts: PostSummary[];
}

/** The featured block and one page of the 'Latest Articles' grid for a category (or all). */
export function blogView(all: PostSummary[], category: string | null, requestedPage: number): BlogView {
  const inCategory = category ? all.filter((p) => p.relatedCategories.includes(category)) : all;
  const featured = inCategory.find((p) => p.isFeatured) ?? null;
  const rest = inCategory.filter((p) => p !== featured);
  const pageCount = Math.max(1, Math.ceil(rest.length / BLOG_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.trunc(requestedPage) || 1), pageCount);
  const start = (page - 1) * BLOG_PAGE_SIZE;
  const posts = rest.slice(start, start + BLOG_PAGE_SIZE);
  return {
    featured,
    page,
    pageCount,
    total: rest.length,
    from: posts.length ? start + 1 : 0,
    to: start + posts.length,
    posts,
  };
}

/** One static page of the blog list: a category (null for all posts) and one page of it. */
export interface BlogListPage {
  category: BlogCategory | null;
  view: BlogView;
}

/** Every page of the blog list: all posts, then each category (an empty one has its one page). */
export function blogListPages(all: PostSummary[], categories: BlogCategory[]): BlogListPage[] {
  return [null, ...categories].flatMap((category) => {
    const first = blogView(all, category?.slug ?? null, 1);
    return Array.from({ length: first.pageCount }, (_, i) => ({
      category,
      view: i === 0 ? first : blogView(all, category?.slug ?? null, i + 1),
    }));
  });
}

/** The number of pages of each list, for forwarding old `?category=&page=` addresses. */
export function blogPageCounts(pages: BlogListPage[]): BlogPageCounts {
  const counts: BlogPageCounts = { all: 1, categories: {} };
  for (const { category, view } of pages) {
    if (category) counts.categories[category.slug] = view.pageCount;
    else counts.all = view.pageCount;
  }
  return counts;
}

/**
 * The numbered page links to show: all of them up to seven pages, else the first, the last and
 * the current page with its neighbours, with null where numbers are left out.
 */
export function pageNumbers(page: number, pageCount: number): (number | null)[] {
  if (pageCount <= 7) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const shown = [...new Set([1, page - 1, page, page + 1, pageCount])]
    .filter((n) => n >= 1 && n <= pageCount)
    .sort((a, b) => a - b);
  return shown.flatMap((n, i) => {
    const previous = shown[i - 1];
    if (previous === undefined || n === previous + 1) return [n];
    // A gap of one number shows that number rather than an ellipsis standing for it.
    return n === previous + 2 ? [previous + 1, n] : [null, n];
  });
}
