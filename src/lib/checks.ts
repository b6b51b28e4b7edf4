// What an item says of its screening (docs/product.md, "Listing screening"): which checks ran and
// when, in the words parents read on the card.
import { format } from 'date-fns/format';
import type { ItemChecks, ScreeningCheck, ScreeningFigures } from '../../api/contract/screening.ts';

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

const whole = new Intl.NumberFormat('en-US');

/**
 * The week's figures as the home page and /safety say them: "1,240 listings checked this week;
 * 31 held, 4 blocked". Null before any listing was checked this week: no figure is better than 0.
 */
export function screeningFiguresLine(figures: ScreeningFigures): string | null {
  const { checkedThisWeek, heldThisWeek, blockedThisWeek } = figures;
  if (checkedThisWeek <= 0) return null;
  const listings = checkedThisWeek === 1 ? 'listing' : 'listings';
  return `${whole.format(checkedThisWeek)} ${listings} checked this week; ${whole.format(heldThisWeek)} held, ${whole.format(blockedThisWeek)} blocked`;
}
