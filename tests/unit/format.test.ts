import { describe, expect, it } from 'vitest';
import {
  ageGroupLabel,
  conditionLabel,
  countLabel,
  formatPostDate,
  formatPrice,
  reasonLabel,
} from '../../src/lib/format.ts';

describe('display formatting', () => {
  it('shows prices as dollars with two decimals, defaulting to $0.00', () => {
    expect(formatPrice('18')).toBe('$18.00');
    expect(formatPrice('22.5')).toBe('$22.50');
    expect(formatPrice('')).toBe('$0.00');
    expect(formatPrice(null)).toBe('$0.00');
    expect(formatPrice('free')).toBe('$0.00');
  });

  it('labels conditions, with Good as the default', () => {
    expect(conditionLabel('like_new')).toBe('Like New');
    expect(conditionLabel('as-is')).toBe('As-Is');
    expect(conditionLabel('mint')).toBe('Good');
    expect(conditionLabel(null)).toBe('Good');
  });

  it('defaults the age group to All Ages', () => {
    expect(ageGroupLabel(null)).toBe('All Ages');
    expect(ageGroupLabel('  ')).toBe('All Ages');
    expect(ageGroupLabel('0-6 months')).toBe('0-6 months');
  });

  it('says item or items', () => {
    expect(countLabel(1, 'item')).toBe('1 item');
    expect(countLabel(0, 'item')).toBe('0 items');
    expect(countLabel(7, 'item')).toBe('7 items');
  });

  it('dates a post by its published date, else its created date', () => {
    expect(formatPostDate('2026-11-20T15:00:00.000Z', '2026-01-01T00:00:00.000Z')).toBe('November 20, 2026');
    expect(formatPostDate(null, '2026-01-02T00:00:00.000Z')).toBe('January 2, 2026');
  });

  it('puts a reason that came as a code into words, and leaves sentences as written', () => {
    expect(reasonLabel('no_longer_needed')).toBe('No longer needed');
    expect(reasonLabel('privacy-concerns')).toBe('Privacy concerns');
    expect(reasonLabel('Privacy concerns')).toBe('Privacy concerns');
    expect(reasonLabel('other')).toBe('other');
    expect(reasonLabel(null)).toBe('—');
    expect(reasonLabel('')).toBe('—');
  });
});
