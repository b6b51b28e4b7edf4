// Saved searches (docs/product.md, "Favourites and alerts"): "Tell me about new items like these"
// from the category filter, and /favourites' list, where each can be paused, changed or deleted.
import { atom } from 'nanostores';
import type { AlertSettings, SavedSearch, SavedSearchInput } from '../../api/contract/favourites.ts';
import { api, errorMessage, read, withToken } from '../lib/api.ts';
import { getIdToken } from './auth.ts';

export const $savedSearches = atom<{ searches: SavedSearch[] | null; error: string | null }>({
  searches: null,
  error: null,
});

export async function loadSavedSearches(): Promise<void> {
  try {
    const { searches } = await read(api['saved-searches'].$get({}, withToken(await getIdToken())));
    $savedSearches.set({ searches, error: null });
  } catch (error) {
    $savedSearches.set({ searches: null, error: errorMessage(error) });
  }
}

function replace(search: SavedSearch): void {
  const searches = $savedSearches.get().searches;
  if (searches)
    $savedSearches.set({
      searches: searches.map((s) => (s.searchId === search.searchId ? search : s)),
      error: null,
    });
}

export async function saveSearch(input: SavedSearchInput): Promise<SavedSearch> {
  const search = await read(api['saved-searches'].$post({ json: input }, withToken(await getIdToken())));
  const searches = $savedSearches.get().searches;
  if (searches) $savedSearches.set({ searches: [...searches, search], error: null });
  return search;
}

export async function changeSearch(
  searchId: number,
  patch: Partial<SavedSearchInput> & { paused?: boolean },
): Promise<SavedSearch> {
  const search = await read(
    api['saved-searches'][':searchId'].$patch(
      { param: { searchId: String(searchId) }, json: patch },
      withToken(await getIdToken()),
    ),
  );
  replace(search);
  return search;
}

export async function deleteSearch(searchId: number): Promise<void> {
  await read(
    api['saved-searches'][':searchId'].$delete(
      { param: { searchId: String(searchId) } },
      withToken(await getIdToken()),
    ),
  );
  const searches = $savedSearches.get().searches;
  if (searches)
    $savedSearches.set({ searches: searches.filter((s) => s.searchId !== searchId), error: null });
}

/** The parent's alert switches (safety alerts, price drops). */
export async function loadAlertSettings(): Promise<AlertSettings> {
  return read(api.favourites.alerts.$get({}, withToken(await getIdToken())));
}

export async function changeAlertSettings(patch: Partial<AlertSettings>): Promise<AlertSettings> {
  return read(api.favourites.alerts.$put({ json: patch }, withToken(await getIdToken())));
}
