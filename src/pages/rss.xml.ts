import { blogFeed } from '../lib/feed.ts';

export const GET = () => blogFeed();
