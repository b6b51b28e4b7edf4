// Page-wide UI state shared by separately hydrated islands.
import { atom } from 'nanostores';

/** Whether the sign-in dialog is open. Any island may open it (the nav, a like button, a comment card). */
export const $signInOpen = atom(false);

/** Whether the search dialog is open. */
export const $searchOpen = atom(false);
