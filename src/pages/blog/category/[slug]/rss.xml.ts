import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { blogFeed } from '../../../../lib/feed.ts';
import { buildApi, read } from '../../../../lib/server-api.ts';

export const getStaticPaths = (async () => {
  const categories = await read(buildApi.blog.categories.$get());
  return categories.map((category) => ({ params: { slug: category.slug }, props: { category } }));
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props }) => blogFeed(props.category);
