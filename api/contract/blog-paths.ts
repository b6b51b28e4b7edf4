// The blog list's addresses (docs/product.md, "Blog list"): every category and page is its own
// static page, and the old `/blog?category=&page=` addresses forward to them. This module imports
// nothing (src/config.ts reads import.meta.env, which Node lacks), so the server can import it, and
// its two functions reference nothing but each other, so /blog can inline their source.

/** The static page of a category (null for all posts) and page: page 1 has no /page/1. */
export function blogPath(category: string | null, page: number): string {
  const list = category ? `/blog/category/${category}` : '/blog';
  return page > 1 ? `${list}/page/${page}` : list;
}

/** How many pages each list has, as built (written to /blog/page-counts.json). */
export interface BlogPageCounts {
  all: number;
  /** Category slug to its number of pages (1 for a category without posts). */
  categories: Record<string, number>;
}

/** Where the list the build wrote its page counts to lives (a file under the built site). */
export const BLOG_PAGE_COUNTS_PATH = '/blog/page-counts.json';

/**
 * The static page for a `/blog?category=&page=` address (`search` is the query string), or null
 * when it asks for neither. An unknown category reads as all posts, a page out of range as the
 * nearest page there is; any other query parameters are kept.
 */
export function blogQueryPath(search: string, counts: BlogPageCounts): string | null {
  const params = new URLSearchParams(search);
  if (!params.has('category') && !params.has('page')) return null;
  const wanted = params.get('category') ?? '';
  const category = Object.prototype.hasOwnProperty.call(counts.categories, wanted) ? wanted : null;
  const pageCount = (category === null ? counts.all : counts.categories[category]) || 1;
  const requested = Number.parseInt(params.get('page') ?? '1', 10) || 1;
  const page = Math.min(Math.max(1, requested), pageCount);
  params.delete('category');
  params.delete('page');
  const rest = params.toString();
  return blogPath(category, page) + (rest ? `?${rest}` : '');
}

/**
 * The inline script on /blog that forwards an old `?category=&page=` address to its static page
 * before the unfiltered list shows: it marks the list as loading (showing the skeleton) and
 * replaces the address. Built from the functions above, so the browser and the server agree.
 */
export function blogForwardScript(counts: BlogPageCounts): string {
  return [
    '(function () {',
    blogPath.toString(),
    `const target = (${blogQueryPath.toString()})(location.search, ${JSON.stringify(counts)});`,
    'if (target !== null) {',
    "  document.currentScript.parentElement.setAttribute('data-loading', '');",
    '  location.replace(target + location.hash);',
    '}',
    '})();',
  ].join('\n');
}
