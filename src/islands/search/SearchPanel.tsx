// The search dialog over Pagefind's static index of the posts, built with the site. Loaded by
// SearchButton only when a visitor opens it, so neither it nor Pagefind weighs on first load.
import * as Dialog from '@radix-ui/react-dialog';
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { $searchOpen } from '../../stores/ui.ts';
import { CloseIcon } from '../../components/icons.tsx';
import { parseShards, SEARCH_SHARDS_FILE, shardPath } from '../../lib/search-shards.ts';

interface PagefindResult {
  url: string;
  excerpt: string;
  meta: { title?: string };
}
interface Pagefind {
  options: (options: { baseUrl: string }) => Promise<void>;
  mergeIndex: (indexPath: string) => Promise<void>;
  debouncedSearch: (
    query: string,
    options?: unknown,
    debounceMs?: number,
  ) => Promise<{ results: { data: () => Promise<PagefindResult> }[] } | null>;
}

type Results =
  | { state: 'idle' }
  | { state: 'searching' }
  | { state: 'done'; query: string; items: PagefindResult[] }
  | { state: 'error' };

/** Pagefind reports /blog/slug/; the site's canonical URLs have no trailing slash. */
const canonical = (url: string) => (url.length > 1 ? url.replace(/\/$/, '') : url);

/** What searches when the blog has no posts, so no index. */
const NOTHING_TO_SEARCH: Pagefind = {
  options: async () => {},
  mergeIndex: async () => {},
  debouncedSearch: async () => ({ results: [] }),
};

let pagefind: Promise<Pagefind> | null = null;
/** Pagefind with every shard of the index: the first one's bundle, with the others merged in. */
async function loadShards(): Promise<Pagefind> {
  const answer = await fetch(`/${SEARCH_SHARDS_FILE}`);
  if (!answer.ok) throw new Error(`${SEARCH_SHARDS_FILE}: ${answer.status}`);
  const [first, ...others] = parseShards(await answer.json());
  if (first === undefined) return NOTHING_TO_SEARCH;
  // A runtime URL, not a module the bundler should resolve: the index is written after the build.
  const module = (await import(/* @vite-ignore */ `${shardPath(first)}pagefind.js`)) as Pagefind;
  await module.options({ baseUrl: '/' });
  await Promise.all(others.map((shard) => module.mergeIndex(shardPath(shard))));
  return module;
}

function loadPagefind(): Promise<Pagefind> {
  pagefind ??= loadShards();
  // A failed load is tried again the next time the dialog opens.
  pagefind.catch(() => (pagefind = null));
  return pagefind;
}

export default function SearchPanel({ returnFocus }: { returnFocus: () => void }) {
  const open = useStore($searchOpen);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Results>({ state: 'idle' });
  const latest = useRef('');

  useEffect(() => {
    loadPagefind().catch(() => setResults({ state: 'error' }));
  }, []);

  async function search(value: string) {
    setQuery(value);
    latest.current = value;
    if (!value.trim()) {
      setResults({ state: 'idle' });
      return;
    }
    setResults({ state: 'searching' });
    try {
      const found = await (await loadPagefind()).debouncedSearch(value, {}, 200);
      if (found === null || latest.current !== value) return; // superseded by a newer query
      const items = await Promise.all(found.results.slice(0, 10).map((r) => r.data()));
      if (latest.current === value) setResults({ state: 'done', query: value, items });
    } catch (error) {
      console.error('Search failed', error);
      setResults({ state: 'error' });
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => $searchOpen.set(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus();
          }}
          className="fixed top-[10vh] left-1/2 z-50 max-h-[80vh] w-[min(42rem,calc(100vw-2rem))] -translate-x-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl"
        >
          <Dialog.Title className="text-ink text-xl font-bold">Search the blog</Dialog.Title>
          <Dialog.Description className="text-muted mt-1 text-sm">
            Find articles and discussions by any word.
          </Dialog.Description>
          <form role="search" onSubmit={(event) => event.preventDefault()} className="mt-4">
            <label htmlFor="site-search" className="sr-only">
              Search posts
            </label>
            <input
              id="site-search"
              type="search"
              autoComplete="off"
              value={query}
              onChange={(event) => void search(event.target.value)}
              placeholder="Search posts, e.g. car seat"
              className="text-ink w-full rounded-xl border border-gray-400 px-4 py-3 placeholder:text-gray-600"
            />
          </form>
          <div aria-live="polite" className="mt-4">
            {results.state === 'searching' && <p className="text-muted text-sm">Searching…</p>}
            {results.state === 'error' && (
              <p role="alert" className="text-sm text-red-800">
                Search is not available right now. Please try again later.
              </p>
            )}
            {results.state === 'done' &&
              (results.items.length === 0 ? (
                <p className="text-muted text-sm">No posts match “{results.query}”.</p>
              ) : (
                <>
                  <p className="text-muted text-sm">
                    {results.items.length === 1 ? '1 result' : `${results.items.length} results`}
                  </p>
                  <ul className="divide-sand mt-2 divide-y">
                    {results.items.map((item) => (
                      <li key={item.url}>
                        <a href={canonical(item.url)} className="hover:bg-cream block rounded-lg p-3">
                          <span className="text-brand-dark block font-semibold">
                            {item.meta.title ?? item.url}
                          </span>
                          {/* Pagefind's excerpt is escaped text with <mark> around the matches. */}
                          <span
                            className="text-muted [&_mark]:bg-accent-light [&_mark]:text-ink mt-1 block text-sm"
                            dangerouslySetInnerHTML={{ __html: item.excerpt }}
                          />
                        </a>
                      </li>
                    ))}
                  </ul>
                </>
              ))}
          </div>
          <Dialog.Close
            className="text-muted hover:bg-sand absolute top-4 right-4 rounded-md p-2"
            aria-label="Close search"
          >
            <CloseIcon className="h-5 w-5" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
