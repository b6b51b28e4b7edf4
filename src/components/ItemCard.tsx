// A marketplace item as a card (docs/product.md, "Items"). Rendered in the static HTML and by the category
// filter island, so both look the same.
import { ITEM_CATEGORIES, ITEM_RATING, MARKETPLACE_URL } from '../config.ts';
import type { Item } from '../../api/contract.ts';
import { checkedLine } from '../lib/checks.ts';
import { ageGroupLabel, conditionLabel, formatPrice } from '../lib/format.ts';
import CategoryIcon from './CategoryIcon.tsx';
import FavouriteButton from '../islands/favourites/FavouriteButton.tsx';

export default function ItemCard({ item }: { item: Item }) {
  const checked = checkedLine(item.checks);
  return (
    <article className="group focus-within:ring-accent border-sand relative flex w-full min-w-0 flex-col overflow-hidden rounded-2xl border bg-white shadow-sm transition-shadow focus-within:ring-2 hover:shadow-md">
      <div className="bg-sand relative aspect-[4/3]">
        {item.imageUrl ? (
          <img
            src={item.imageUrl}
            alt={item.itemName}
            width={400}
            height={300}
            loading="lazy"
            decoding="async"
            className="h-full w-full object-cover"
          />
        ) : (
          <div className="text-muted flex h-full items-center justify-center">
            <CategoryIcon category={item.category} className="h-12 w-12" />
          </div>
        )}
        <span className="text-brand-dark absolute top-2 left-2 rounded-full bg-white/95 px-2 py-0.5 text-xs font-semibold sm:top-3 sm:left-3 sm:px-2.5 sm:py-1">
          {conditionLabel(item.condition)}
        </span>
        <FavouriteButton item={item} />
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3 break-words sm:p-4">
        <p className="text-muted text-xs font-medium tracking-wide uppercase">
          {ITEM_CATEGORIES[item.category] ?? item.category}
        </p>
        <h3 className="text-ink text-sm leading-snug font-semibold sm:text-base">
          <a
            href={MARKETPLACE_URL}
            target="_blank"
            rel="noopener"
            className="after:absolute after:inset-0 focus-visible:outline-none"
          >
            {item.itemName}
            <span className="sr-only"> (opens the marketplace in a new tab)</span>
          </a>
        </h3>
        {item.brand && <p className="text-muted text-xs sm:text-sm">{item.brand}</p>}
        <p className="text-muted text-xs sm:text-sm">Age: {ageGroupLabel(item.ageGroup)}</p>
        {checked && <p className="text-muted text-xs">{checked}</p>}
        {item.safetyNotes.length > 0 && (
          <div className="mt-1 rounded-lg bg-amber-50 px-2 py-1.5 text-xs text-amber-950">
            <p className="font-semibold">{item.safetyNotes.length === 1 ? 'Safety note' : 'Safety notes'}</p>
            <ul className="mt-0.5 list-disc space-y-0.5 pl-4">
              {item.safetyNotes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </div>
        )}
        <div className="mt-auto flex flex-wrap items-center justify-between gap-x-2 pt-2">
          <span className="text-brand-dark text-base font-bold sm:text-lg">
            {formatPrice(item.listingPrice)}
          </span>
          <span className="text-muted flex items-center gap-1 text-xs sm:text-sm">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-amber-500">
              <path d="m10 1.5 2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9L10 1.5Z" />
            </svg>
            <span>
              {ITEM_RATING}
              <span className="sr-only"> out of 5</span>
            </span>
          </span>
        </div>
      </div>
    </article>
  );
}
