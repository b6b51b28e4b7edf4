// The order a parent reads threads in (docs/product.md, "Comments"): newest first unless they chose
// another, kept in the address (`?sort=best`, so a link shares it) and in this browser.
import { atom } from 'nanostores';
import {
  COMMENT_SORT_STORAGE_KEY,
  type CommentSort,
  DEFAULT_COMMENT_SORT,
  isCommentSort,
} from '../../api/contract/live-threads.ts';

/** Newest until the page has read the parent's choice (the static page is newest first). */
export const $commentSort = atom<CommentSort>(DEFAULT_COMMENT_SORT);

function stored(): string | null {
  try {
    return localStorage.getItem(COMMENT_SORT_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The address's order, else the one kept in this browser, else newest. */
export function initCommentSort(): void {
  const asked = new URLSearchParams(window.location.search).get('sort');
  const chosen = isCommentSort(asked) ? asked : stored();
  if (isCommentSort(chosen)) $commentSort.set(chosen);
}

/** The parent picks an order: the thread loads in it, and the address and the browser keep it. */
export function chooseCommentSort(sort: CommentSort): void {
  $commentSort.set(sort);
  try {
    localStorage.setItem(COMMENT_SORT_STORAGE_KEY, sort);
  } catch {
    // Private browsing without storage: the address still keeps it.
  }
  const url = new URL(window.location.href);
  if (sort === DEFAULT_COMMENT_SORT) url.searchParams.delete('sort');
  else url.searchParams.set('sort', sort);
  history.replaceState(history.state, '', url);
}
