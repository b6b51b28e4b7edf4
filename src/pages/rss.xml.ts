import { blogFeed } from '../lib/feed.ts';
import { sitePlan } from '../lib/site-plan.ts';

export const GET = async () => {
  const { posts, categories } = await sitePlan();
  return blogFeed(posts, categories);
};
