// Toast notices (docs/product.md): an atom of toasts plus action functions, rendered
// by the Toaster island. Radix Toast does the timing (TOAST_DURATION_MS), swipe and F8 hotkey.
import { atom } from 'nanostores';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '../config.ts';

export type ToastVariant = 'default' | 'destructive';

export interface ToastAction {
  label: string;
  /** What the action does, for screen readers that reach the toast after it is announced. */
  altText: string;
  onClick: () => void;
}

export interface ToastInput {
  title?: string;
  description?: string;
  variant?: ToastVariant;
  action?: ToastAction;
  /** Show a close button (default true). */
  closeButton?: boolean;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

export const $toasts = atom<ToastItem[]>([]);

let counter = 0;
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

/** Shows a toast; only the newest TOAST_LIMIT stay. Returns its id and a way to dismiss it. */
export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  const id = `toast-${++counter}`;
  $toasts.set([{ ...input, id, open: true }, ...$toasts.get()].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

/** Closes a toast (all of them without an id); it is removed after TOAST_REMOVE_DELAY_MS. */
export function dismissToast(id?: string): void {
  $toasts.set($toasts.get().map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  for (const t of $toasts.get()) {
    if (t.open || removalTimers.has(t.id)) continue;
    removalTimers.set(
      t.id,
      setTimeout(() => {
        removalTimers.delete(t.id);
        $toasts.set($toasts.get().filter((other) => other.id !== t.id));
      }, TOAST_REMOVE_DELAY_MS),
    );
  }
}
