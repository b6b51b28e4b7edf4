import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { blogFeed } from '../../../../lib/feed.ts';
import { sitePlan } from '../../../../lib/site-plan.ts';

// The category feeds this build renders (src/lib/site-plan.ts).
export const getStaticPaths = (async () => (await sitePlan()).categoryFeeds) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props }) => blogFeed(props.posts, props.categories, props.category);
