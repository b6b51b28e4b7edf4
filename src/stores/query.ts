// Keyed API data shared by every island on a page (@nanostores/query). The settings are the
// product's data-fetching rules: no polling, no refetch on focus or reconnect, data never goes
// stale by itself and nothing is retried. An island's first render uses the numbers in the static
// HTML; the store then loads the live ones once per page and actions update it in place.
import { type FetcherStore, nanoquery } from '@nanostores/query';
import { atom } from 'nanostores';

const [createFetcherStore, , { mutateCache }] = nanoquery({
  dedupeTime: Infinity,
  cacheLifetime: Infinity,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  onErrorRetry: false,
});

/** Build-time rendering never fetches: a store made there has no key and stays empty. */
const inBrowser = typeof window !== 'undefined';

export interface KeyedQuery<T> {
  /** The store for one key (one per key, shared by every island); null gives an empty store. */
  store: (id: string | null) => FetcherStore<T>;
  /** The loaded value, if any. */
  get: (id: string) => T | undefined;
  /** Replaces the value everywhere it is shown (an action's answer). */
  set: (id: string, value: T) => void;
  /** Changes the loaded value; loads it afresh when there is none yet. */
  update: (id: string, change: (value: T) => T) => void;
  /**
   * Loads the value afresh (after an action whose answer does not carry it), showing the value
   * there is until the new one arrives: a list never blinks to "loading" and takes focus with it.
   */
  refresh: (id: string) => void;
}

/**
 * A family of stores keyed by id (a post's slug, a thread's post id). An answer that was asked for
 * before an action changed the value is dropped, so a slow load never undoes a like or a comment;
 * `onAnswer` sees only the answers kept, to pass what they carry on to another store.
 */
export function keyedQuery<T>(
  name: string,
  load: (id: string) => Promise<T>,
  onAnswer?: (id: string, value: T) => void,
): KeyedQuery<T> {
  const stores = new Map<string, FetcherStore<T>>();
  const versions = new Map<string, number>();
  const key = (id: string) => `${name}/${id}`;

  const store = (id: string | null) => {
    let found = stores.get(id ?? '');
    if (!found) {
      found = createFetcherStore<T>([`${name}/`, atom(inBrowser && id !== null ? id : null)], {
        fetcher: async () => {
          const asked = versions.get(id ?? '') ?? 0;
          const answer = await load(id ?? '');
          if ((versions.get(id ?? '') ?? 0) !== asked) return get(id ?? '') ?? answer;
          onAnswer?.(id ?? '', answer);
          return answer;
        },
      });
      stores.set(id ?? '', found);
    }
    return found;
  };
  const get = (id: string) => stores.get(id)?.value?.data;
  const set = (id: string, value: T) => {
    versions.set(id, (versions.get(id) ?? 0) + 1);
    mutateCache(key(id), value);
  };
  const refresh = (id: string) => store(id).revalidate();
  const update = (id: string, change: (value: T) => T) => {
    const current = get(id);
    if (current === undefined) refresh(id);
    else set(id, change(current));
  };
  return { store, get, set, update, refresh };
}

/**
 * Adds the next (older) page of a paged list under what is shown (the audit log, the mail outbox):
 * `next` is the cursor the API's Link header gave, null on the last page.
 */
export async function showNextPage<T extends { next: number | null }>(
  query: KeyedQuery<T>,
  id: string,
  load: (before: number) => Promise<T>,
  join: (shown: T, page: T) => T,
): Promise<void> {
  const current = query.get(id);
  if (!current || current.next === null) return;
  query.set(id, join(current, await load(current.next)));
}
