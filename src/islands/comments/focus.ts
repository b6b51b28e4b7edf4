import { useEffect, useRef } from 'react';
import type { Comment } from '../../../api/contract.ts';

/** Focus, once React has drawn it, on the element with `id` (or on `fallback`'s). */
export const focusLater = (id: string, fallback?: string) =>
  requestAnimationFrame(() =>
    (document.getElementById(id) ?? (fallback ? document.getElementById(fallback) : null))?.focus(),
  );

/**
 * A link to one comment (`#comment-<id>`, as in reply emails) lands on it once the live thread
 * shows it, also when it is newer than the static page.
 */
export function useJumpToComment(comments: Comment[] | null): void {
  const jumped = useRef(false);
  useEffect(() => {
    if (jumped.current || !/^#comment-\d+$/.test(window.location.hash)) return;
    const target = document.getElementById(window.location.hash.slice(1));
    if (!target) return;
    jumped.current = true;
    target.scrollIntoView({ block: 'center' });
    target.focus({ preventScroll: true });
  }, [comments]);
}
