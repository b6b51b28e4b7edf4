// What an item says of its screening (docs/product.md, "Listing screening"): which checks ran and
// when, in the words parents read on the card.
import { format } from 'date-fns';
import type { ItemChecks, ScreeningCheck } from '../../api/contract/screening.ts';

/** The checks in the order the card names them. */
const CHECK_WORDS: [ScreeningCheck, string][] = [
  ['recall', 'recalls'],
  ['rules', 'age and condition'],
  ['photo', 'photo'],
];

/** "recalls", "recalls and photo", "recalls, age and condition, and photo". */
function listOf(words: string[]): string {
  if (words.length <= 2) return words.join(' and ');
  return `${words.slice(0, -1).join(', ')}, and ${words.at(-1)}`;
}

/**
 * "Checked for recalls, age and condition, and photo: Nov 28": only the checks that ran, and the
 * day in UTC, so the built page and the island that renders the same card agree everywhere.
 * Null when nothing ran or the date is not one.
 */
export function checkedLine(checks: ItemChecks): string | null {
  const words = CHECK_WORDS.filter(([check]) => checks.ran.includes(check)).map(([, word]) => word);
  const at = new Date(checks.checkedAt);
  if (words.length === 0 || Number.isNaN(at.getTime())) return null;
  const day = new Date(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  return `Checked for ${listOf(words)}: ${format(day, 'MMM d')}`;
}
