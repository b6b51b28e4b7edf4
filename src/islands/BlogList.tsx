// The blog list (spec §2, §4 "Blog list filter"; design decision 3). The static HTML holds the
// first page of all posts; a category or page in the URL, or a click, loads the full list once
// from /api/blog/posts (with a skeleton) and keeps the choice in the URL.
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { BlogCategory } from '../../api/contract.ts';
import CategoryFeedLink from '../components/CategoryFeedLink.tsx';
import PostCard from '../components/PostCard.tsx';
import { api, read } from '../lib/api.ts';
import {
  blogHref,
  blogView,
  readBlogQuery,
  summarize,
  type BlogView,
  type PostSummary,
} from '../lib/blog.ts';

interface Props {
  categories: BlogCategory[];
  /** The unfiltered first page, rendered into the static HTML. */
  initial: BlogView;
}

type Loaded = { state: 'idle' } | { state: 'ready'; posts: PostSummary[] } | { state: 'error' };

// The URL is the filter's source of truth: an external store over location.search.
const NAVIGATE = 'nestling:navigate';
function subscribeToLocation(onChange: () => void) {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE, onChange);
  };
}
const currentSearch = () => window.location.search;

export default function BlogList({ categories, initial }: Props) {
  const search = useSyncExternalStore(subscribeToLocation, currentSearch, () => '');
  const { category, page } = readBlogQuery(
    search,
    categories.map((c) => c.slug),
  );
  const needsAll = category !== null || page > 1;
  const [loaded, setLoaded] = useState<Loaded>({ state: 'idle' });
  const [attempt, setAttempt] = useState(0);
  const top = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!needsAll || loaded.state === 'ready') return;
    const controller = new AbortController();
    read(api.blog.posts.$get(undefined, { init: { signal: controller.signal } }))
      .then((posts) => setLoaded({ state: 'ready', posts: posts.map(summarize) }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Failed to fetch posts', error);
        setLoaded({ state: 'error' });
      });
    return () => controller.abort();
    // `attempt` re-runs the fetch after an error.
  }, [needsAll, loaded.state, attempt]);

  function retry() {
    setLoaded({ state: 'idle' });
    setAttempt((n) => n + 1);
  }

  function go(nextCategory: string | null, nextPage: number, focus = true) {
    window.history.pushState(null, '', blogHref(nextCategory, nextPage));
    window.dispatchEvent(new Event(NAVIGATE));
    if (focus) top.current?.focus();
  }

  const view = loaded.state === 'ready' ? blogView(loaded.posts, category, page) : needsAll ? null : initial;
  const selected = categories.find((c) => c.slug === category);

  return (
    <div>
      <div role="group" aria-label="Filter posts by category" className="flex flex-wrap gap-2">
        <button
          type="button"
          aria-pressed={category === null}
          onClick={() => go(null, 1, false)}
          className="border-brand text-brand-dark hover:bg-brand-light aria-pressed:bg-brand rounded-full border px-4 py-2 text-sm font-semibold aria-pressed:text-white"
        >
          All Posts
        </button>
        {categories.map((c) => (
          <button
            key={c.slug}
            type="button"
            aria-pressed={category === c.slug}
            // Clicking the active category clears the filter (spec §2).
            onClick={() => go(category === c.slug ? null : c.slug, 1, false)}
            className="border-brand text-brand-dark hover:bg-brand-light aria-pressed:bg-brand rounded-full border px-4 py-2 text-sm font-semibold aria-pressed:text-white"
          >
            {c.categoryName}
          </button>
        ))}
      </div>
      {selected && <CategoryFeedLink category={selected} />}

      {loaded.state === 'error' && needsAll ? (
        <div role="alert" className="mt-8 rounded-2xl bg-red-50 p-6 text-red-900">
          <p>Failed to fetch posts. Check your connection and try again.</p>
          <button type="button" onClick={retry} className="mt-3 font-semibold underline">
            Try again
          </button>
        </div>
      ) : view === null ? (
        <div
          aria-busy="true"
          aria-label="Loading posts"
          className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
        >
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="bg-sand h-80 animate-pulse rounded-2xl" data-testid="post-skeleton" />
          ))}
        </div>
      ) : (
        <>
          {view.featured && (
            <section aria-labelledby="featured-article" className="mt-10">
              <h2 id="featured-article" className="text-ink mb-4 text-xl font-bold">
                Featured Article
              </h2>
              <PostCard post={view.featured} categories={categories} featured />
            </section>
          )}
          <section aria-labelledby="latest-articles" className="mt-10">
            <h2 id="latest-articles" ref={top} tabIndex={-1} className="text-ink text-xl font-bold">
              Latest Articles
            </h2>
            {view.total === 0 && !view.featured ? (
              <div className="border-sand mt-6 rounded-2xl border bg-white p-10 text-center">
                <p className="text-ink text-lg font-semibold">No posts found</p>
                <p className="text-muted mt-2">
                  {selected
                    ? `There are no posts in ${selected.categoryName} yet. Check back soon.`
                    : 'There are no posts yet. Check back soon.'}
                </p>
                <button
                  type="button"
                  onClick={() => go(null, 1)}
                  className="bg-brand hover:bg-brand-dark mt-6 rounded-full px-5 py-2.5 font-semibold text-white"
                >
                  View All Posts
                </button>
              </div>
            ) : (
              <>
                <p className="text-muted mt-1 text-sm" aria-live="polite">
                  {view.total === 0
                    ? 'No other posts'
                    : `Showing ${view.from}-${view.to} of ${view.total} posts`}
                </p>
                <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                  {view.posts.map((post) => (
                    <li key={post.slug}>
                      <PostCard post={post} categories={categories} />
                    </li>
                  ))}
                </ul>
                {view.pageCount > 1 && (
                  <nav aria-label="Pages" className="mt-10 flex flex-wrap items-center justify-center gap-2">
                    <PageLink
                      href={blogHref(category, view.page - 1)}
                      disabled={view.page === 1}
                      onGo={() => go(category, view.page - 1)}
                    >
                      Previous
                    </PageLink>
                    {Array.from({ length: view.pageCount }, (_, i) => i + 1).map((n) => (
                      <PageLink
                        key={n}
                        href={blogHref(category, n)}
                        current={n === view.page}
                        label={`Page ${n}`}
                        onGo={() => go(category, n)}
                      >
                        {n}
                      </PageLink>
                    ))}
                    <PageLink
                      href={blogHref(category, view.page + 1)}
                      disabled={view.page === view.pageCount}
                      onGo={() => go(category, view.page + 1)}
                    >
                      Next
                    </PageLink>
                  </nav>
                )}
              </>
            )}
          </section>
        </>
      )}
    </div>
  );
}

/** A real link (works without JavaScript and in a new tab) that the island handles in place. */
function PageLink(props: {
  href: string;
  onGo: () => void;
  children: React.ReactNode;
  current?: boolean;
  disabled?: boolean;
  label?: string;
}) {
  const base = 'min-w-11 rounded-lg border px-3 py-2 text-center text-sm font-semibold';
  if (props.disabled) {
    return (
      <span aria-disabled="true" className={`${base} border-sand text-muted`}>
        {props.children}
      </span>
    );
  }
  return (
    <a
      href={props.href}
      aria-label={props.label}
      aria-current={props.current ? 'page' : undefined}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        props.onGo();
      }}
      className={`${base} ${props.current ? 'border-brand bg-brand text-white' : 'border-brand text-brand-dark hover:bg-brand-light'}`}
    >
      {props.children}
    </a>
  );
}
