// The marketplace items the home page's category filter shows (docs/product.md, "Home"). The list
// is loaded once, when a category is first chosen, and shared by every later choice.
import type { Item } from '../../api/contract.ts';
import { api, read } from '../lib/api.ts';

let allItems: Promise<Item[]> | null = null;

/** The items of one category; a failed load is asked again next time. */
export async function itemsInCategory(category: string): Promise<Item[]> {
  allItems ??= read(api.items.$get());
  try {
    return (await allItems).filter((item) => item.category === category);
  } catch (error) {
    allItems = null;
    throw error;
  }
}
