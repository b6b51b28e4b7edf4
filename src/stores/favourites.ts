// The parent's favourites (docs/product.md, "Favourites and alerts"): one store that the
// navigation's badge, every heart and /favourites read, so a toggle moves them all at once.
// Signed out, the count is 0 and nothing is requested. Signed in, the count comes from the API;
// other tabs hear of a change at once through a BroadcastChannel, and every tab asks the API again
// when it becomes visible (a change made on another device). Demo mode keeps the list in this
// browser's localStorage (its `storage` event reaches other tabs) and says so.
import { atom } from 'nanostores';
import type { Item } from '../../api/contract.ts';
import { DEMO_FAVOURITES_KEY, type Favourite } from '../../api/contract/favourites.ts';
import { api, errorMessage, read, withToken } from '../lib/api.ts';
import { $auth, getIdToken } from './auth.ts';
import { toast } from './toast.ts';
import { $signInOpen } from './ui.ts';

export interface FavouritesState {
  /** Whose favourites these are: a uid, or null when signed out (or before auth has answered). */
  owner: string | null;
  count: number;
  /** The saved item ids, once asked for (the hearts and /favourites ask); null before. */
  ids: string[] | null;
  /** Demo mode: kept in this browser only. */
  local: boolean;
}

const SIGNED_OUT: FavouritesState = { owner: null, count: 0, ids: null, local: false };
export const $favourites = atom<FavouritesState>(SIGNED_OUT);
/** The full list for /favourites (null until loaded, or on failure with `error`). */
export const $favouriteList = atom<{ items: Favourite<Item>[] | null; error: string | null }>({
  items: null,
  error: null,
});

/** What demo mode keeps in localStorage: the list as the API would give it. */
function readLocal(): Favourite<Item>[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(DEMO_FAVOURITES_KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as Favourite<Item>[]) : [];
  } catch {
    return [];
  }
}

function writeLocal(list: Favourite<Item>[]): void {
  localStorage.setItem(DEMO_FAVOURITES_KEY, JSON.stringify(list));
}

function showLocal(owner: string): void {
  const list = readLocal();
  $favourites.set({ owner, count: list.length, ids: list.map((f) => f.itemId), local: true });
  $favouriteList.set({ items: list, error: null });
}

// ---- Loading -----------------------------------------------------------------------------------

let idsWanted = false;
let channel: BroadcastChannel | null = null;
/**
 * Counts the page's own toggles. An answer asked for before one is older than what the page shows
 * (hearts pressed right after signing in, while the first list was on its way): it is not applied,
 * and the list is asked for again once the toggles have been answered.
 */
let toggles = 0;
let askAgain = false;
/** Items whose toggle is waiting for the API's answer. */
const inFlight = new Set<string>();

function loadAgain(owner: string): void {
  if (inFlight.size === 0) void loadList(owner);
  else askAgain = true;
}

async function loadCount(owner: string): Promise<void> {
  const asked = toggles;
  try {
    const { count } = await read(api.favourites.count.$get({}, withToken(await getIdToken())));
    if ($favourites.get().owner === owner && toggles === asked)
      $favourites.set({ ...$favourites.get(), count });
  } catch (error) {
    console.error('Failed to load the favourites count', error);
  }
}

async function loadList(owner: string): Promise<void> {
  const asked = toggles;
  try {
    const { items } = await read(api.favourites.$get({}, withToken(await getIdToken())));
    if ($favourites.get().owner !== owner) return;
    if (toggles !== asked) return loadAgain(owner);
    $favourites.set({ owner, count: items.length, ids: items.map((f) => f.itemId), local: false });
    $favouriteList.set({ items, error: null });
  } catch (error) {
    console.error('Failed to load favourites', error);
    if ($favourites.get().owner === owner) $favouriteList.set({ items: null, error: errorMessage(error) });
  }
}

/** Asks the API (or localStorage) again for what the page shows. */
function refresh(): void {
  const { owner, local } = $favourites.get();
  if (!owner) return;
  if (local) showLocal(owner);
  else if (idsWanted) void loadList(owner);
  else void loadCount(owner);
}

function follow(user: { uid: string } | null, demoMode: boolean): void {
  const owner = user?.uid ?? null;
  if (owner === $favourites.get().owner) return;
  $favouriteList.set({ items: null, error: null });
  if (!owner) {
    $favourites.set(SIGNED_OUT);
    return;
  }
  $favourites.set({ owner, count: 0, ids: null, local: demoMode });
  refresh();
}

let watching = false;

/**
 * Follows the signed-in parent (islands call it on mount; once per page). `withIds`: this island
 * needs the saved ids too (hearts, /favourites), not only the count.
 */
export function watchFavourites(withIds = false): void {
  if (typeof window === 'undefined') return;
  if (withIds && !idsWanted) {
    idsWanted = true;
    if (watching && $favourites.get().ids === null) refresh();
  }
  if (watching) return;
  watching = true;
  $auth.subscribe(({ user, loading, demoMode }) => {
    if (!loading) follow(user, demoMode);
  });
  if ('BroadcastChannel' in window) {
    channel = new BroadcastChannel('nestling-favourites');
    channel.onmessage = (event: MessageEvent<{ owner: string; ids: string[]; count: number }>) => {
      const state = $favourites.get();
      if (event.data.owner !== state.owner) return;
      $favourites.set({ ...state, count: event.data.count, ids: state.ids === null ? null : event.data.ids });
      if ($favouriteList.get().items !== null) void loadList(state.owner);
    };
  }
  window.addEventListener('storage', (event) => {
    if (event.key === DEMO_FAVOURITES_KEY && $favourites.get().local) refresh();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refresh();
  });
}

// ---- Toggling ----------------------------------------------------------------------------------

export const isSaved = (state: FavouritesState, itemId: string) => state.ids?.includes(itemId) ?? false;

/**
 * Saves or removes an item at once (optimistic), then asks the API; on failure it goes back and a
 * toast says why. Signed out, it opens the sign-in dialog instead.
 */
export async function toggleFavourite(item: Item): Promise<void> {
  const before = $favourites.get();
  const { owner } = before;
  if (!owner) {
    $signInOpen.set(true);
    return;
  }
  if (inFlight.has(item.itemId)) return;
  const saving = !isSaved(before, item.itemId);
  if (before.local) {
    const list = readLocal().filter((f) => f.itemId !== item.itemId);
    if (saving) {
      list.unshift({
        itemId: item.itemId,
        savedAt: new Date().toISOString(),
        priceWhenSaved: item.listingPrice,
        state: 'available',
        removedForSafety: false,
        item,
        itemName: item.itemName,
      });
    }
    writeLocal(list);
    showLocal(owner);
    return;
  }
  const ids = before.ids ?? [];
  const optimistic = saving ? [item.itemId, ...ids] : ids.filter((id) => id !== item.itemId);
  $favourites.set({ ...before, ids: optimistic, count: Math.max(0, before.count + (saving ? 1 : -1)) });
  toggles += 1;
  inFlight.add(item.itemId);
  try {
    const options = withToken(await getIdToken());
    const param = { param: { itemId: item.itemId } };
    const { count } = await read(
      saving
        ? api.favourites[':itemId'].$put(param, options)
        : api.favourites[':itemId'].$delete(param, options),
    );
    const now = $favourites.get();
    if (now.owner !== owner) return;
    $favourites.set({ ...now, count });
    channel?.postMessage({ owner, ids: now.ids ?? [], count });
    if ($favouriteList.get().items !== null) void loadList(owner);
  } catch (error) {
    const now = $favourites.get();
    if (now.owner === owner) {
      // Back to what it was for this item only: other toggles may have finished meanwhile.
      const back = saving
        ? (now.ids ?? []).filter((id) => id !== item.itemId)
        : [item.itemId, ...(now.ids ?? []).filter((id) => id !== item.itemId)];
      $favourites.set({ ...now, ids: back, count: Math.max(0, now.count + (saving ? -1 : 1)) });
    }
    toast({
      description: `${saving ? 'Could not save' : 'Could not remove'} ${item.itemName}: ${errorMessage(error)}`,
      variant: 'destructive',
    });
  } finally {
    inFlight.delete(item.itemId);
    if (askAgain && inFlight.size === 0) {
      askAgain = false;
      if ($favourites.get().owner === owner) void loadList(owner);
    }
  }
}

/** Removes a saved item from /favourites (by id: it may be gone from the catalogue). */
export async function removeFavourite(favourite: Favourite<Item>): Promise<void> {
  const { owner, local } = $favourites.get();
  if (!owner) return;
  if (local) {
    writeLocal(readLocal().filter((f) => f.itemId !== favourite.itemId));
    showLocal(owner);
    return;
  }
  const { count } = await read(
    api.favourites[':itemId'].$delete({ param: { itemId: favourite.itemId } }, withToken(await getIdToken())),
  );
  const list = $favouriteList.get().items ?? [];
  const items = list.filter((f) => f.itemId !== favourite.itemId);
  $favouriteList.set({ items, error: null });
  const ids = ($favourites.get().ids ?? []).filter((id) => id !== favourite.itemId);
  $favourites.set({ ...$favourites.get(), ids, count });
  channel?.postMessage({ owner, ids, count });
}
