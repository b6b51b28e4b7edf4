// Display formatting shared by pages and islands.
import type { RecallStatus } from '../../api/contract.ts';
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
  return formatLongDate(publishedAt ?? createdAt) ?? '';
}

/** "November 20, 2026" (the day in UTC, as built pages show dates); null for a missing or invalid date. */
export function formatLongDate(iso: string | null): string | null {
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? dateFormat.format(date) : null;
}

/**
 * Whether recall data has been imported, so items have been checked against it: until then no
 * page claims a recall check (docs/product.md, "Recall screening").
 */
export function recallsImported(status: Pick<RecallStatus, 'lastImportedAt' | 'count'>): boolean {
  return status.lastImportedAt !== null && status.count > 0;
}

const CPSC = 'the U.S. Consumer Product Safety Commission';
const CPSC_HOSTS = /(^|\.)(cpsc\.gov|saferproducts\.gov)$/i;

/**
 * Where the recall data came from, in words for a public page (docs/product.md, "Recall
 * screening"): never a file path or an internal address. The sample feed says it is a sample; the
 * CPSC's own service is named; anything else (a downloaded copy of the feed) is called a copy.
 */
export function recallSourceLabel(source: string | null): string | null {
  if (!source) return null;
  if (source === 'sample') return `a sample feed in the format of ${CPSC}`;
  try {
    const url = new URL(source);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && CPSC_HOSTS.test(url.hostname)) return CPSC;
  } catch {
    // Not an address: a file.
  }
  return `a copy of the recall data of ${CPSC}`;
}

/** An address a page may link to: http(s) only (a feed's `javascript:` or relative URL is not). */
export function httpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}
