// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Item } from '../../api/contract.ts';
import CategoryIcon from '../../src/components/CategoryIcon.tsx';
import ItemCard from '../../src/components/ItemCard.tsx';

afterEach(cleanup);

const item: Item = {
  itemId: 'item-x',
  itemName: 'Wooden Stacking Rainbow',
  category: 'toys',
  listingPrice: '24',
  imageUrl: '/images/items/item-009.svg',
  condition: 'like_new',
  brand: 'Maple Grove Toys',
  ageGroup: 'All Ages',
  checks: { checkedAt: '2026-11-28T09:30:00.000Z', ran: ['rules', 'photo', 'recall'] },
  safetyNotes: [],
};

describe('ItemCard', () => {
  it('shows the price with two decimals, the condition label, the category, age group and the 4.8 rating', () => {
    render(<ItemCard item={item} />);
    expect(screen.getByText('$24.00')).toBeTruthy();
    expect(screen.getByText('Like New')).toBeTruthy();
    expect(screen.getByText('Toys & Games')).toBeTruthy();
    expect(screen.getByText('Age: All Ages')).toBeTruthy();
    expect(screen.getByText('4.8')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Wooden Stacking Rainbow' })).toBeTruthy();
    expect(screen.getByRole('link').getAttribute('target')).toBe('_blank');
  });

  it('falls back to $0.00 and Good for a missing price and an unknown condition', () => {
    render(
      <ItemCard item={{ ...item, listingPrice: '', condition: 'mint', imageUrl: null, category: 'pets' }} />,
    );
    expect(screen.getByText('$0.00')).toBeTruthy();
    expect(screen.getByText('Good')).toBeTruthy();
    expect(screen.getByText('pets')).toBeTruthy();
  });

  it('says what was checked and when, naming only the checks that ran, on the day in UTC', () => {
    render(<ItemCard item={item} />);
    expect(screen.getByText('Checked for recalls, age and condition, and photo: Nov 28')).toBeTruthy();
    cleanup();
    // Late on Nov 30 in UTC is Nov 30 everywhere, so the built page and the island agree.
    render(
      <ItemCard
        item={{ ...item, checks: { checkedAt: '2026-11-30T23:59:00.000Z', ran: ['rules', 'recall'] } }}
      />,
    );
    expect(screen.getByText('Checked for recalls and age and condition: Nov 30')).toBeTruthy();
    cleanup();
    render(
      <ItemCard item={{ ...item, checks: { checkedAt: '2026-12-01T00:00:00.000Z', ran: ['rules'] } }} />,
    );
    expect(screen.getByText('Checked for age and condition: Dec 1')).toBeTruthy();
    cleanup();
    const { container } = render(<ItemCard item={{ ...item, checks: { checkedAt: 'soon', ran: [] } }} />);
    expect(container.textContent).not.toContain('Checked for');
  });

  it('lists its safety notes under a Safety note label, and none when it has none', () => {
    const { container } = render(<ItemCard item={item} />);
    expect(container.textContent).not.toContain('Safety note');
    cleanup();
    const note = 'Check that the drawstring was removed before use.';
    render(<ItemCard item={{ ...item, safetyNotes: [note] }} />);
    expect(screen.getByText('Safety note')).toBeTruthy();
    expect(screen.getByRole('listitem').textContent).toBe(note);
    cleanup();
    render(<ItemCard item={{ ...item, safetyNotes: [note, 'Sold without its manual.'] }} />);
    expect(screen.getByText('Safety notes')).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      note,
      'Sold without its manual.',
    ]);
  });
});

describe('CategoryIcon', () => {
  it('has an icon per known category and the bag for unknown ones', () => {
    const { container } = render(
      <>
        {['clothing', 'toys', 'gear', 'books', 'furniture', 'health', 'pets'].map((c) => (
          <CategoryIcon key={c} category={c} />
        ))}
      </>,
    );
    const icons = [...container.querySelectorAll('svg')].map((svg) => svg.getAttribute('data-icon'));
    expect(icons).toEqual(['clothing', 'toys', 'gear', 'books', 'furniture', 'health', 'bag']);
  });
});
