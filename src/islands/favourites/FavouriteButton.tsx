// The heart on an item card (docs/product.md, "Favourites and alerts"): a toggle button named after
// the item, pressed when it is saved. Every heart and the navigation's badge read one store.
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { Item } from '../../../api/contract.ts';
import { HeartIcon } from '../../components/icons.tsx';
import { initAuth } from '../../stores/auth.ts';
import { $favourites, isSaved, toggleFavourite, watchFavourites } from '../../stores/favourites.ts';

export default function FavouriteButton({ item }: { item: Item }) {
  const favourites = useStore($favourites, { ssr: 'initial' });
  const saved = isSaved(favourites, item.itemId);
  useEffect(() => {
    initAuth();
    watchFavourites(true);
  }, []);
  return (
    <button
      type="button"
      aria-pressed={saved}
      aria-label={`Save ${item.itemName} to favourites`}
      data-testid="favourite-button"
      onClick={() => void toggleFavourite(item)}
      className={`absolute top-1.5 right-1.5 z-10 flex h-10 w-10 items-center justify-center rounded-full bg-white/95 shadow-sm transition-colors sm:top-2 sm:right-2 ${
        saved ? 'text-accent' : 'text-ink hover:text-accent'
      }`}
    >
      <HeartIcon filled={saved} className="h-5 w-5" />
    </button>
  );
}
