// 'Shop by Category' tiles and the 'Featured Finds' grid as one island (docs/product.md): a tile filters the grid to the first 8 items of its category, fetched from
// /api/items, scrolls there and offers Clear Filter.
import { useRef, useState } from 'react';
import { CATEGORY_FILTER_LIMIT, ITEM_CATEGORIES } from '../config.ts';
import type { CategoryCounts, Item } from '../../api/contract.ts';
import CategoryIcon from '../components/CategoryIcon.tsx';
import ItemCard from '../components/ItemCard.tsx';
import FollowSearch from './favourites/FollowSearch.tsx';
import { errorMessage } from '../lib/api.ts';
import { countLabel } from '../lib/format.ts';
import { itemsInCategory } from '../stores/items.ts';

// Two cards a row even on the narrowest phones, as marketplace apps do (docs/product.md, "Item grids").
const ITEM_GRID = 'mt-6 grid grid-cols-2 gap-3 sm:gap-5 lg:grid-cols-4';

interface Props {
  /** Category key → number of items (from /api/items/categories). */
  counts: CategoryCounts;
  featured: Item[];
}

type Filtered =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; items: Item[] }
  | { state: 'error'; message: string };

export default function CategoryFilter({ counts, featured }: Props) {
  const [category, setCategory] = useState<string | null>(null);
  const [filtered, setFiltered] = useState<Filtered>({ state: 'idle' });
  const section = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const tiles = Object.entries(counts).filter(([, n]) => n > 0);

  async function choose(key: string) {
    setCategory(key);
    setFiltered({ state: 'loading' });
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    section.current?.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
    heading.current?.focus({ preventScroll: true });
    try {
      const items = await itemsInCategory(key);
      setFiltered({ state: 'ready', items: items.slice(0, CATEGORY_FILTER_LIMIT) });
    } catch (error) {
      console.error('Failed to fetch items', error);
      setFiltered({ state: 'error', message: `Failed to fetch items: ${errorMessage(error)}` });
    }
  }

  function clear() {
    setCategory(null);
    setFiltered({ state: 'idle' });
    heading.current?.focus({ preventScroll: true });
  }

  const label = category ? (ITEM_CATEGORIES[category] ?? category) : null;
  const shown = filtered.state === 'ready' ? filtered.items : featured;

  return (
    <>
      <section
        id="categories"
        aria-labelledby="categories-heading"
        className="mx-auto max-w-7xl scroll-mt-20 px-4 py-14 sm:px-6"
      >
        <h2 id="categories-heading" className="text-ink text-2xl font-bold sm:text-3xl">
          Shop by Category
        </h2>
        <p className="text-muted mt-2">Pre-loved and new, screened for safety.</p>
        <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {tiles.map(([key, n]) => (
            <li key={key}>
              <button
                type="button"
                onClick={() => void choose(key)}
                aria-pressed={category === key}
                className="border-sand hover:border-brand aria-pressed:border-brand aria-pressed:bg-brand-light flex w-full flex-col items-center gap-2 rounded-2xl border bg-white p-4 text-center shadow-sm transition hover:shadow-md"
              >
                <span className="bg-brand-light text-brand-dark flex h-12 w-12 items-center justify-center rounded-full">
                  <CategoryIcon category={key} />
                </span>
                <span className="text-ink font-semibold">{ITEM_CATEGORIES[key] ?? key}</span>
                <span className="text-muted text-sm">{countLabel(n, 'item')}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>

      <section
        id="featured"
        ref={section}
        aria-labelledby="featured-heading"
        className="mx-auto max-w-7xl scroll-mt-20 px-4 py-14 sm:px-6"
      >
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h2
              id="featured-heading"
              ref={heading}
              tabIndex={-1}
              className="text-ink text-2xl font-bold sm:text-3xl"
            >
              Featured Finds
            </h2>
            <p className="text-muted mt-2" aria-live="polite">
              {label ? `Showing ${label}` : 'Hand-picked listings from verified parents.'}
            </p>
          </div>
          {/* A saved search of what is shown: this category, or any (docs/product.md, "Favourites and alerts"). */}
          <div className="flex flex-wrap gap-2">
            <FollowSearch category={category} ageGroups={[...new Set(shown.map((item) => item.ageGroup))]} />
            {category && (
              <button
                type="button"
                onClick={clear}
                className="border-brand text-brand-dark hover:bg-brand-light rounded-full border px-4 py-2 text-sm font-semibold"
              >
                Clear Filter
              </button>
            )}
          </div>
        </div>
        {filtered.state === 'error' ? (
          <p role="alert" className="mt-6 rounded-xl bg-red-50 p-4 text-red-900">
            {filtered.message}
          </p>
        ) : filtered.state === 'loading' ? (
          <ul className={ITEM_GRID} aria-busy="true" aria-label="Loading items">
            {Array.from({ length: 4 }, (_, i) => (
              <li key={i} className="bg-sand h-80 animate-pulse rounded-2xl" />
            ))}
          </ul>
        ) : shown.length === 0 ? (
          <p className="text-muted mt-6">No items in this category yet.</p>
        ) : (
          <ul className={ITEM_GRID}>
            {shown.map((item) => (
              <li key={item.itemId} className="flex">
                <ItemCard item={item} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
