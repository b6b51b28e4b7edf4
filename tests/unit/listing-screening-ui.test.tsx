// @vitest-environment jsdom
// What moderators and parents read of a listing's screening (docs/product.md, "Listing screening"):
// the console's held-listing card (photos with faces outlined, reasons with their sources, the
// decisions on offer) and the week's figures as the home page and /safety say them.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScreenedListing } from '../../api/contract/screening.ts';
import {
  listingCardId,
  listingDecision,
  ListingsSection,
  suggestedAgeGroup,
} from '../../src/islands/moderation/listings.tsx';
import { screeningFiguresLine } from '../../src/lib/checks.ts';

afterEach(cleanup);

const lego: ScreenedListing = {
  itemId: 'lego/1 2',
  itemName: 'LEGO City fire station',
  category: 'toys',
  listingPrice: '40',
  condition: 'like_new',
  brand: 'LEGO',
  ageGroup: '1-2 years',
  description: 'All pieces there.',
  manufactureYear: 2021,
  status: 'active',
  receivedAt: '2026-11-28T08:00:00.000Z',
  screening: {
    state: 'held',
    checks: [
      {
        check: 'rules',
        outcome: 'flag',
        reasons: [
          {
            rule: 'R14',
            text: 'Toys with small parts are banned for children under 3. List it for 3+ years.',
            source: 'https://www.ecfr.gov/current/title-16/chapter-II/subchapter-C/part-1501',
          },
        ],
      },
      { check: 'recall', outcome: 'pass', reasons: [] },
      {
        check: 'photo',
        outcome: 'flag',
        reasons: [{ rule: 'photo.face', text: 'A person’s face is in a photo.', source: null }],
      },
    ],
    photos: [
      {
        url: '/api/images/one.jpg',
        sourceUrl: 'https://photos.example/one.jpg',
        state: 'analysed',
        faces: [
          { x: 0.1, y: 0.2, width: 0.25, height: 0.3 },
          { x: 0.5, y: 0.1, width: 0.2, height: 0.2 },
        ],
      },
      { url: null, sourceUrl: 'https://photos.example/two.jpg', state: 'failed', faces: [] },
    ],
    checkedAt: '2026-11-28T08:00:05.000Z',
    decision: null,
  },
};

const noFaces: ScreenedListing = {
  ...lego,
  itemId: 'sack',
  itemName: 'Weighted sleep sack',
  screening: {
    ...lego.screening,
    checks: [
      {
        check: 'rules',
        outcome: 'flag',
        reasons: [{ rule: 'R7', text: 'The CPSC says not to use weighted blankets.', source: null }],
      },
    ],
    photos: [],
  },
};

describe('Listings to check', () => {
  it('shows each photo with its faces outlined and counted in words, and what held it with its source', () => {
    render(<ListingsSection listings={{ data: [lego] }} onDecide={() => {}} />);
    const card = screen.getByRole('article', { name: 'Listing to check: LEGO City fire station' });
    expect(card.id).toBe(listingCardId(lego));
    const photo = within(card).getByRole('img', { name: 'Listing photo of LEGO City fire station (1 of 2)' });
    const boxes = [...photo.parentElement!.querySelectorAll<HTMLElement>('[data-face-box]')];
    expect(boxes.map((b) => [b.style.left, b.style.top, b.style.width, b.style.height])).toEqual([
      ['10%', '20%', '25%', '30%'],
      ['50%', '10%', '20%', '20%'],
    ]);
    expect(boxes.every((b) => b.getAttribute('aria-hidden') === 'true')).toBe(true);
    expect(within(card).getByText('2 faces found')).toBeTruthy();
    expect(within(card).getByText('Could not be checked')).toBeTruthy();
    const source = within(card).getByRole('link', { name: /^Source ?\(opens in a new tab\)$/ });
    expect(source.getAttribute('href')).toBe(lego.screening.checks[0]!.reasons[0]!.source);
    expect(source.getAttribute('target')).toBe('_blank');
    expect(source.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(source.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /^Toys with/,
    );
    // In words: no rule ids or raw outcomes; the passed check is named.
    expect(card.textContent).not.toMatch(/R14|photo\.face|\bflag\b/);
    expect(card.textContent).toContain('Passed: recall check.');
    expect(card.textContent).toContain(
      'LEGO · Toys & Games · Age: 1-2 years · Like New · $40.00 · Made 2021',
    );
  });

  it('offers the four decisions, blurring only when a face was found', () => {
    const onDecide = vi.fn();
    render(<ListingsSection listings={{ data: [lego, noFaces] }} onDecide={onDecide} />);
    const card = screen.getByRole('article', { name: 'Listing to check: LEGO City fire station' });
    for (const [label, decision] of [
      ['Clear', 'clear'],
      ['Change age group', 'reage'],
      ['Publish with faces blurred', 'blur'],
      ['Block', 'block'],
    ] as const) {
      fireEvent.click(within(card).getByRole('button', { name: label }));
      expect(onDecide).toHaveBeenLastCalledWith(lego, decision);
    }
    const sack = screen.getByRole('article', { name: 'Listing to check: Weighted sleep sack' });
    expect(within(sack).queryByRole('button', { name: 'Publish with faces blurred' })).toBeNull();
    expect(within(sack).getByText('No photos.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Listings to check (2)');
  });

  it('says when nothing waits, and when the queue could not be loaded', () => {
    render(<ListingsSection listings={{ data: [] }} onDecide={() => {}} />);
    expect(screen.getByText('No listing is waiting for a check.')).toBeTruthy();
    cleanup();
    render(<ListingsSection listings={{ error: new Error('500') }} onDecide={() => {}} />);
    expect(screen.getByRole('alert').textContent).toContain('Failed to load listings to check.');
  });

  it('warns that a clear shows the photos as they are when a face was found, and a block needs a reason', () => {
    expect(listingDecision('mod', lego, 'clear').description).toContain('faces included');
    expect(listingDecision('mod', noFaces, 'clear').description).not.toContain('faces included');
    expect(listingDecision('mod', lego, 'block')).toMatchObject({ reason: 'required', destructive: true });
    expect(listingDecision('mod', lego, 'blur')).toMatchObject({ reason: 'optional' });
  });

  it('keeps the moderator’s place when a refresh takes away the card they are on', () => {
    const third = { ...noFaces, itemId: 'third', itemName: 'Third listing' };
    const cardButton = (name: string) =>
      within(screen.getByRole('article', { name: `Listing to check: ${name}` })).getByRole('button', {
        name: 'Block',
      });
    const { rerender } = render(
      <ListingsSection listings={{ data: [lego, noFaces, third] }} onDecide={() => {}} />,
    );
    cardButton(noFaces.itemName).focus();
    rerender(<ListingsSection listings={{ data: [lego, third] }} onDecide={() => {}} />);
    expect(document.activeElement?.id).toBe(listingCardId(third));
    // The last card going leaves the one before; the list emptied, the section's heading.
    rerender(<ListingsSection listings={{ data: [lego] }} onDecide={() => {}} />);
    expect(document.activeElement?.id).toBe(listingCardId(lego));
    rerender(<ListingsSection listings={{ data: [] }} onDecide={() => {}} />);
    expect(document.activeElement?.id).toBe('listings-heading');
    // Focus the moderator moved elsewhere stays there.
    rerender(<ListingsSection listings={{ data: [lego, noFaces] }} onDecide={() => {}} />);
    cardButton(lego.itemName).focus();
    const elsewhere = document.body.appendChild(document.createElement('button'));
    elsewhere.focus();
    rerender(<ListingsSection listings={{ data: [noFaces] }} onDecide={() => {}} />);
    expect(document.activeElement).toBe(elsewhere);
    elsewhere.remove();
  });

  it('takes the age group the rules suggest when it is one of the site’s, and makes a safe card id', () => {
    expect(suggestedAgeGroup(lego)).toBe('3+ years');
    expect(suggestedAgeGroup(noFaces)).toBeNull();
    expect(listingCardId(lego)).toBe('listing-lego_2f1_202');
  });
});

describe('the week’s screening figures', () => {
  it('reads "1,240 listings checked this week; 31 held, 4 blocked", and nothing before any check', () => {
    expect(screeningFiguresLine({ checkedThisWeek: 1240, heldThisWeek: 31, blockedThisWeek: 4 })).toBe(
      '1,240 listings checked this week; 31 held, 4 blocked',
    );
    expect(screeningFiguresLine({ checkedThisWeek: 1, heldThisWeek: 0, blockedThisWeek: 0 })).toBe(
      '1 listing checked this week; 0 held, 0 blocked',
    );
    expect(screeningFiguresLine({ checkedThisWeek: 0, heldThisWeek: 0, blockedThisWeek: 0 })).toBeNull();
  });
});
