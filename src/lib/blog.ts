// The blog list's rules (spec §2 "Blog list", §4, §9; design decision 3), shared by the static
// first page and the BlogList island so both agree.
import { BLOG_CATEGORY_COLORS, BLOG_PAGE_SIZE, DEFAULT_CATEGORY_COLOR } from '../config.ts';
import type { BlogCategory, BlogPost, PostSummary } from '../../api/contract.ts';

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

/** Reads ?category= and ?page= (design decision 3); unknown categories read as "all". */
export function readBlogQuery(search: string, known: string[]): { category: string | null; page: number } {
  const params = new URLSearchParams(search);
  const category = params.get('category');
  return {
    category: category && known.includes(category) ? category : null,
    page: Number.parseInt(params.get('page') ?? '1', 10) || 1,
  };
}

export function blogHref(category: string | null, page: number): string {
  const params = new URLSearchParams();
  if (category) params.set('category', category);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `/blog?${query}` : '/blog';
}
