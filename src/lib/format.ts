// Display formatting shared by pages and islands.
import { DEFAULT_AGE_GROUP, DEFAULT_CONDITION_LABEL, ITEM_CONDITIONS } from '../config.ts';

/** A price string as dollars with two decimals; anything unparseable reads as $0.00 (docs/product.md). */
export function formatPrice(price: string | null | undefined): string {
  const value = Number.parseFloat(price ?? '');
  return `$${(Number.isFinite(value) ? value : 0).toFixed(2)}`;
}

export function conditionLabel(condition: string | null | undefined): string {
  return (condition && ITEM_CONDITIONS[condition]) || DEFAULT_CONDITION_LABEL;
}

export function ageGroupLabel(ageGroup: string | null | undefined): string {
  return ageGroup?.trim() || DEFAULT_AGE_GROUP;
}

/** "1 item", "2 items" (docs/product.md). */
export function countLabel(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/**
 * A reason in words: the form sends sentences, but a request from another form may carry a code
 * ("no_longer_needed"), which reads as "No longer needed".
 */
export function reasonLabel(reason: string | null): string {
  if (!reason) return '—';
  if (!/^[a-z]+(?:[_-][a-z]+)+$/.test(reason)) return reason;
  const words = reason.replace(/[_-]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

/** "November 20, 2026", from the published date falling back to the created date. */
export function formatPostDate(publishedAt: string | null, createdAt: string): string {
  return dateFormat.format(new Date(publishedAt ?? createdAt));
}
