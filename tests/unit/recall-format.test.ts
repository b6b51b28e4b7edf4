import { describe, expect, it } from 'vitest';
import { formatLongDate, httpUrl, recallSourceLabel, recallsImported } from '../../src/lib/format.ts';

describe('recall formatting', () => {
  it('writes a date as the site’s long date, in UTC, and nothing for a missing or invalid one', () => {
    expect(formatLongDate('2026-11-20')).toBe('November 20, 2026');
    expect(formatLongDate('2026-11-24T23:30:00Z')).toBe('November 24, 2026');
    expect(formatLongDate(null)).toBeNull();
    expect(formatLongDate('')).toBeNull();
    expect(formatLongDate('not a date')).toBeNull();
  });

  it('names where recall data came from without a file path or an internal address', () => {
    expect(recallSourceLabel('sample')).toBe(
      'a sample feed in the format of the U.S. Consumer Product Safety Commission',
    );
    expect(recallSourceLabel('https://www.saferproducts.gov/RestWebServices/Recall?format=json')).toBe(
      'the U.S. Consumer Product Safety Commission',
    );
    expect(recallSourceLabel('https://cpsc.gov/recalls.json')).toBe(
      'the U.S. Consumer Product Safety Commission',
    );
    // A look-alike host is not the CPSC, and a file is a copy.
    for (const source of [
      'https://cpsc.gov.example.com/feed.json',
      'http://127.0.0.1:4000/recalls',
      '/var/data/recalls-2026-11.json',
      'C:\\feeds\\recalls.json',
    ]) {
      expect(recallSourceLabel(source)).toBe(
        'a copy of the recall data of the U.S. Consumer Product Safety Commission',
      );
    }
    expect(recallSourceLabel(null)).toBeNull();
  });

  it('links only to http(s) addresses', () => {
    expect(httpUrl('https://www.cpsc.gov/Recalls/2027/crib')).toBe('https://www.cpsc.gov/Recalls/2027/crib');
    expect(httpUrl('javascript:alert(1)')).toBeNull();
    expect(httpUrl('/Recalls/2027/crib')).toBeNull();
    expect(httpUrl('')).toBeNull();
    expect(httpUrl(null)).toBeNull();
  });
});

describe('whether recalls have been checked', () => {
  it('counts data as imported only with a time and at least one recall', () => {
    expect(recallsImported({ lastImportedAt: '2026-11-24T06:00:00Z', count: 11 })).toBe(true);
    expect(recallsImported({ lastImportedAt: null, count: 0 })).toBe(false);
    expect(recallsImported({ lastImportedAt: '2026-11-24T06:00:00Z', count: 0 })).toBe(false);
  });
});
