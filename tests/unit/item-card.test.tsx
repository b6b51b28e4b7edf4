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
