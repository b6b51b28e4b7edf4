// How the console says what a decision did and keeps the moderator's place (docs/product.md,
// "Keeping the moderator's place"): a notice where they are, announced to screen readers, with
// Undo where it can be undone; and focus on the next card rather than the top of the page.
import { type RefObject, useEffect, useLayoutEffect, useRef } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { undoDecision } from '../../stores/moderation.ts';
import { toast } from '../../stores/toast.ts';

/** Says what a decision did; `undo` (from the decision's answer) offers to take it back. */
export function announce(moderatorUid: string, text: string, undo: { auditId: number } | null = null): void {
  toast({
    description: text,
    action: undo
      ? {
          label: 'Undo',
          altText: 'Undo this decision: its reports open again',
          onClick: () => {
            undoDecision(moderatorUid, undo.auditId).then(
              () => toast({ description: 'Undone: the reports are open again.' }),
              (failure: unknown) => toast({ description: errorMessage(failure), variant: 'destructive' }),
            );
          },
        }
      : undefined,
  });
}

/**
 * Where focus goes when a decision has taken its card (`current`) away: the next card of its list,
 * else the one before, else the section's heading. Never back to the top of the page.
 */
export function focusAfter(ids: string[], current: string, section: string): () => HTMLElement | null {
  const at = ids.indexOf(current);
  const candidates = [...ids.slice(at + 1), ...ids.slice(0, Math.max(at, 0)).reverse()];
  return () =>
    candidates.map((id) => document.getElementById(id)).find((card) => card !== null) ??
    document.getElementById(`${section}-heading`);
}

/**
 * Keeps the moderator's place when a refresh takes away the card they are on (another moderator
 * decided on it, or its checks moved it on): focus goes where a decision of their own would send
 * it, rather than to the top of the page.
 */
export function useFocusKeptIn(section: RefObject<HTMLElement | null>, sectionId: string): void {
  const place = useRef<{ card: string; cards: string[] } | null>(null);
  useEffect(() => {
    const element = section.current;
    if (!element) return;
    const remember = (event: FocusEvent) => {
      const card = event.target instanceof Element ? event.target.closest('article[id]') : null;
      place.current = card && {
        card: card.id,
        cards: Array.from(element.querySelectorAll('article[id]'), (each) => each.id),
      };
    };
    element.addEventListener('focusin', remember);
    return () => element.removeEventListener('focusin', remember);
  }, [section]);
  // After every render: a refresh that dropped the card has just been committed.
  useLayoutEffect(() => {
    const at = place.current;
    if (!at || document.getElementById(at.card)) return;
    place.current = null;
    // Focus that is somewhere else (a dialog, the menu) stays where the moderator put it.
    if (document.activeElement && document.activeElement !== document.body) return;
    focusAfter(at.cards, at.card, sectionId)()?.focus();
  });
}
