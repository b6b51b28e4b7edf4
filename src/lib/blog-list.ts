// The blog list's static pages as the build writes them (docs/product.md, "Blog list"). Build-time
// only: the list pages and the page-counts file import this.
import { blogListPages, blogPageCounts, summarize } from './blog.ts';
import { buildApi, read } from './server-api.ts';

/** Every page of the list with the categories, and how many pages each list has. */
export async function buildBlogList() {
  const [posts, categories] = await Promise.all([
    read(buildApi.blog.posts.$get()),
    read(buildApi.blog.categories.$get()),
  ]);
  // Cards need no bodies: keep only the summaries in the pages' props.
  const pages = blogListPages(posts.map(summarize), categories);
  return { categories, pages, counts: blogPageCounts(pages) };
}
