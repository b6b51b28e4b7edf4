// RSS 2.0 feeds of the blog (all posts, and one per category) with each post's full sanitized
// content, author, categories and date: the newest FEED_POSTS of them (docs/product.md, "Feeds").
import rss from '@astrojs/rss';
import { SITE_NAME, SITE_URL } from '../config.ts';
import type { BlogCategory, BlogPost } from '../../api/contract.ts';
import { sanitizeHtml } from './server-api.ts';

/**
 * Sanitized bodies by their source, from the last feed and this one: a warm renderer (decision 020)
 * writes the feeds at every publish, and most bodies have not changed since the last.
 */
let sanitized = { last: new Map<string, string>(), now: new Map<string, string>() };

function sanitizedBody(html: string): string {
  const known = sanitized.now.get(html) ?? sanitized.last.get(html) ?? sanitizeHtml(html);
  sanitized.now.set(html, known);
  return known;
}

/**
 * Posts in a feed. Readers poll a feed for what is new; the whole archive in every answer would
 * grow with it (12 MB at 5,000 posts) and be written again at every publish.
 */
export const FEED_POSTS = 50;

/** The posts a feed carries: the newest of all posts, or of one category's. */
export function feedPosts(posts: BlogPost[], category?: BlogCategory): BlogPost[] {
  const selected = category ? posts.filter((p) => p.relatedCategories.includes(category.slug)) : posts;
  return selected.slice(0, FEED_POSTS);
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The feed of `posts` (all of them, or those of `category`), newest first as the API lists them. */
export async function blogFeed(
  posts: BlogPost[],
  categories: BlogCategory[],
  category?: BlogCategory,
): Promise<Response> {
  const names = new Map(categories.map((c) => [c.slug, c.categoryName]));
  const selected = feedPosts(posts, category);
  // The whole feed starts a new generation, so bodies no longer published are forgotten.
  if (!category) sanitized = { last: sanitized.now, now: new Map() };
  return rss({
    title: category ? `${SITE_NAME} blog: ${category.categoryName}` : `${SITE_NAME} blog`,
    description: category
      ? `${category.categoryName} posts from the ${SITE_NAME} community of parents.`
      : `Advice, stories and discussions from the ${SITE_NAME} community of parents.`,
    site: SITE_URL,
    xmlns: { dc: 'http://purl.org/dc/elements/1.1/', atom: 'http://www.w3.org/2005/Atom' },
    customData: `<language>en</language><atom:link href="${SITE_URL}${category ? `/blog/category/${category.slug}` : ''}/rss.xml" rel="self" type="application/rss+xml"/>`,
    items: selected.map((post) => ({
      title: post.title,
      link: `${SITE_URL}/blog/${post.slug}`,
      pubDate: new Date(post.publishedAt ?? post.createdAt),
      description: post.excerpt,
      content: sanitizedBody(post.content),
      categories: post.relatedCategories.map((slug) => names.get(slug) ?? slug),
      customData: `<dc:creator>${escapeXml(post.authorName)}</dc:creator>`,
    })),
  });
}
