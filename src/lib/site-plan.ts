// Which pages a build renders (docs/decisions/019). Build-time only: the pages and endpoints with
// getStaticPaths take their entries from here, so every page that depends on posts is listed in one
// place with everything it renders from (its props). A page's render key is a hash of the build's
// code key and its props: a page whose key the live release already has is not rendered again, and
// the publisher links the live release's file instead (scripts/lib/build.ts). Pages without
// getStaticPaths (the home page, rss.xml, the page counts, the staff screens) render every time.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { blogForwardScript, blogPath } from '../../api/contract/blog-paths.ts';
import { type BlogPost, THREADS_PER_REQUEST_MAX } from '../../api/contract.ts';
import type { Thread } from '../stores/comments.ts';
import { blogListPages, blogPageCounts, summarize } from './blog.ts';
import { feedPosts } from './feed.ts';
import { buildApi, read } from './server-api.ts';
import type { RenderPlanInput, RenderPlanOutput } from './render-keys.ts';

/**
 * Counters that change with every reader's visit: a page shows them as of its last render and its
 * islands show the live numbers on load, so they alone never make a page render again.
 */
const LIVE_COUNTERS = new Set(['viewCount', 'likeCount']);

function renderKey(codeKey: string, props: unknown): string {
  const json = JSON.stringify(props, (name, value: unknown) => (LIVE_COUNTERS.has(name) ? undefined : value));
  return crypto.createHash('sha256').update(codeKey).update('\0').update(json).digest('base64url');
}

interface Entry<Params, Props> {
  path: string;
  params: Params;
  props: Props;
}

/**
 * Each post's thread's first page as it is now, so a post page reads without JavaScript and for
 * search engines: a hundred posts to a request.
 */
async function threadsOf(posts: BlogPost[]): Promise<Map<number, Thread>> {
  const ids = posts.map((post) => post.postId);
  const batches: number[][] = [];
  for (let i = 0; i < ids.length; i += THREADS_PER_REQUEST_MAX)
    batches.push(ids.slice(i, i + THREADS_PER_REQUEST_MAX));
  const answers = await Promise.all(
    batches.map((batch) => read(buildApi.blog.threads.$get({ query: { posts: batch.join(',') } }))),
  );
  return new Map(answers.flat().map(({ postId, comments, next }) => [postId, { comments, next }]));
}

async function loadSite() {
  const [posts, categories] = await Promise.all([
    read(buildApi.blog.posts.$get()),
    read(buildApi.blog.categories.$get()),
  ]);
  const threads = await threadsOf(posts);
  const thread = (post: BlogPost) => {
    const found = threads.get(post.postId);
    if (!found) throw new Error(`The API gave no thread for post ${post.postId} of this release.`);
    return found;
  };
  const postPages = posts.map((post) => ({
    path: `/blog/${post.slug}`,
    params: { slug: post.slug },
    props: { post, categories, initialThread: thread(post) },
  }));
  // Cards need no bodies: keep only the summaries in the list pages' props.
  const pages = blogListPages(posts.map(summarize), categories);
  const counts = blogPageCounts(pages);
  const listPages = pages.map(({ category, view }) => {
    const path = blogPath(category?.slug ?? null, view.page);
    const isIndex = path === '/blog';
    return {
      path,
      params: { list: isIndex ? undefined : path.slice('/blog/'.length) },
      // Only /blog forwards the old ?category=&page= addresses.
      props: { path, category, view, categories, forward: isIndex ? blogForwardScript(counts) : undefined },
    };
  });
  const categoryFeeds = categories.map((category) => ({
    path: `/blog/category/${category.slug}/rss.xml`,
    params: { slug: category.slug },
    // Only the posts it carries: an older post's change leaves the feed as it was.
    props: { category, categories, posts: feedPosts(posts, category) },
  }));
  return { posts, categories, counts, postPages, listPages, categoryFeeds };
}

function readInput(): RenderPlanInput | null {
  const file = process.env.NESTLING_RENDER_PLAN;
  if (!file) return null;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as RenderPlanInput;
}

/** Keeps the entries whose key the live release lacks; records every key and the decision. */
function decide(
  input: RenderPlanInput | null,
  groups: Entry<unknown, unknown>[][],
  posts: Record<string, number>,
) {
  const codeKey = input?.codeKey ?? 'dev';
  const previous = input?.previous?.codeKey === codeKey ? input.previous.pages : null;
  const keys: Record<string, string> = {};
  const rendered: string[] = [];
  const kept: string[] = [];
  const render = new Set<Entry<unknown, unknown>>();
  for (const entry of groups.flat()) {
    const key = renderKey(codeKey, entry.props);
    keys[entry.path] = key;
    if (previous?.[entry.path] === key) {
      kept.push(entry.path);
    } else {
      rendered.push(entry.path);
      render.add(entry);
    }
  }
  if (input) {
    const output: RenderPlanOutput = {
      codeKey,
      pages: keys,
      posts,
      incremental: previous !== null,
      rendered,
      kept,
    };
    fs.writeFileSync(input.out, JSON.stringify(output));
    // scripts/lib/build.ts reads this line for the publish's progress.
    console.log(
      `[plan] ${previous ? 'incremental' : 'full'}: ${rendered.length} of ${rendered.length + kept.length} keyed pages to render`,
    );
  }
  return render;
}

/** The plan of the build in progress, by its input file (a warm renderer runs many builds). */
let planned: { file: string; plan: ReturnType<typeof makePlan> } | undefined;

async function makePlan() {
  const site = await loadSite();
  const posts = Object.fromEntries(site.postPages.map((p) => [p.path, p.props.post.postId]));
  const render = decide(readInput(), [site.postPages, site.listPages, site.categoryFeeds], posts);
  const only = <P, Q>(entries: Entry<P, Q>[]) =>
    entries.filter((e) => render.has(e)).map(({ params, props }) => ({ params, props }));
  return {
    ...site,
    postPages: only(site.postPages),
    listPages: only(site.listPages),
    categoryFeeds: only(site.categoryFeeds),
  };
}

/**
 * The site's data and the keyed pages this build renders, fetched once per build (the pages ask
 * for it one after another). Outside a publish's build (astro dev) it is fetched for every ask.
 */
export function sitePlan() {
  const file = process.env.NESTLING_RENDER_PLAN;
  if (!file) return makePlan();
  if (planned?.file !== file) planned = { file, plan: makePlan() };
  return planned.plan;
}
