import type { APIRoute, GetStaticPaths } from 'astro';
import { blogFeed } from '../../../../lib/feed.ts';
import { apiGet, type BlogCategory } from '../../../../lib/server-api.ts';

export const getStaticPaths = (async () => {
  const categories = await apiGet<BlogCategory[]>('/api/blog/categories');
  return categories.map((category) => ({ params: { slug: category.slug }, props: { category } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => blogFeed((props as { category: BlogCategory }).category);
