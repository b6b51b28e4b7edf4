// The one function that says where a saved item stands (api/db/queries/favourites.ts), and the
// words /favourites uses for each state (docs/product.md, "Favourites and alerts").
import { describe, expect, it } from 'vitest';
import type { Item } from '../../api/contract.ts';
import type { Favourite } from '../../api/contract/favourites.ts';
import { favouriteState } from '../../api/db/queries/favourites.ts';
import { stateWords } from '../../src/islands/favourites/FavouritesPage.tsx';

const row = (
  over: Partial<{
    status: 'active' | 'sold' | 'removed';
    screening_state: 'pending' | 'cleared' | 'held' | 'blocked';
    listing_price: string;
  }> = {},
) => ({
  status: 'active' as const,
  screening_state: 'cleared' as const,
  listing_price: '24.00',
  ...over,
});

describe('favouriteState', () => {
  it('reads gone, sold, removed, recalled, blocked, held and the price', () => {
    expect(favouriteState(undefined, false, '24.00')).toEqual({ state: 'removed', removedForSafety: false });
    expect(favouriteState(row({ status: 'sold' }), false, '24.00').state).toBe('sold');
    // A recall comes first, even for an item that sold: the parent may have it at home.
    expect(favouriteState(row({ status: 'sold' }), true, '24.00').state).toBe('recalled');
    expect(favouriteState(undefined, true, '24.00').state).toBe('recalled');
    expect(favouriteState(row({ status: 'removed' }), false, '24.00').state).toBe('removed');
    expect(favouriteState(row({ screening_state: 'blocked' }), true, '24.00').state).toBe('recalled');
    expect(favouriteState(row({ screening_state: 'blocked' }), false, '24.00')).toEqual({
      state: 'removed',
      removedForSafety: true,
    });
    expect(favouriteState(row({ screening_state: 'held' }), false, '24.00').state).toBe('held');
    expect(favouriteState(row({ screening_state: 'pending' }), false, '24.00').state).toBe('held');
    expect(favouriteState(row(), false, '24.00').state).toBe('available');
    expect(favouriteState(row(), false, '24').state).toBe('available');
    expect(favouriteState(row({ listing_price: '19.99' }), false, '24.00').state).toBe('price_changed');
  });
});

describe('the words for each state', () => {
  const item = { itemId: 'a', itemName: 'Cot', listingPrice: '19.99' } as Item;
  const f = (over: Partial<Favourite<Item>>): Favourite<Item> => ({
    itemId: 'a',
    savedAt: '2026-11-22T12:00:00.000Z',
    priceWhenSaved: '24.00',
    state: 'available',
    removedForSafety: false,
    item,
    itemName: 'Cot',
    ...over,
  });
  it('says the price now and then, and why an item is gone', () => {
    expect(stateWords(f({ state: 'price_changed' })).text).toBe('Available, now $19.99 (was $24.00)');
    expect(stateWords(f({ state: 'sold' })).text).toBe('Sold');
    expect(stateWords(f({ state: 'removed', removedForSafety: true, item: null })).text).toBe(
      'Removed after a safety check',
    );
    expect(stateWords(f({ state: 'removed', item: null })).text).toMatch(/seller removed it/);
    expect(stateWords(f({ state: 'recalled', item: null })).text).toMatch(/^May be recalled/);
    expect(stateWords(f({ state: 'held', item: null })).text).toMatch(/checked for safety/);
  });
});
