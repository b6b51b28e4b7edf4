import { describe, expect, it } from 'vitest';
import { initials } from '../../src/lib/initials.ts';

describe('initials', () => {
  it('takes the first letters of the first and last words', () => {
    expect(initials('Jane Doe')).toBe('JD');
    expect(initials('Jane van der Doe')).toBe('JD');
    expect(initials('Riley Moderator')).toBe('RM');
  });

  it('gives one letter for a one-word name', () => {
    expect(initials('Sam')).toBe('S');
  });

  it('upper-cases and ignores surrounding and repeated spaces', () => {
    expect(initials('  alex   morgan ')).toBe('AM');
  });

  it('uses the part of an email before the at-sign', () => {
    expect(initials('jane.doe@example.com')).toBe('JD');
    expect(initials('parent@example.com')).toBe('P');
  });

  it('skips punctuation-only words and leading punctuation', () => {
    expect(initials('Sam & Alex')).toBe('SA');
    expect(initials('"Jo" Smith')).toBe('JS');
  });

  it('keeps non-Latin letters and characters outside the BMP whole', () => {
    expect(initials('Émile Zola')).toBe('ÉZ');
    expect(initials('李 小龙')).toBe('李小');
    expect(initials('𝒜da Lovelace')).toBe('𝒜L');
  });

  it('falls back to a question mark when there is nothing to use', () => {
    expect(initials('')).toBe('?');
    expect(initials('   ')).toBe('?');
    expect(initials(null)).toBe('?');
    expect(initials(undefined)).toBe('?');
    expect(initials('---')).toBe('?');
  });
});
