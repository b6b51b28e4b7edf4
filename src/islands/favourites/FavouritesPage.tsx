// /favourites (docs/product.md, "Favourites and alerts"): the parent's saved items, newest first,
// each with where it stands in plain words, and their saved searches. Signed out: the sign-in
// prompt. Demo mode: the list kept in this browser, and it says so.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { Item } from '../../../api/contract.ts';
import type { Favourite } from '../../../api/contract/favourites.ts';
import { SignInPrompt } from '../../components/SignInPrompt.tsx';
import { ITEM_CATEGORIES } from '../../config.ts';
import { errorMessage } from '../../lib/api.ts';
import { formatPrice } from '../../lib/format.ts';
import { formatDate } from '../../lib/time.ts';
import { $auth, initAuth } from '../../stores/auth.ts';
import { $favouriteList, $favourites, removeFavourite, watchFavourites } from '../../stores/favourites.ts';
import { toast } from '../../stores/toast.ts';
import SavedSearches from './SavedSearches.tsx';

const section = 'border-sand rounded-2xl border bg-white p-4 shadow-sm sm:p-6';

/** Where a saved item stands, in the words the page uses. */
export function stateWords(f: Favourite<Item>): { text: string; tone: 'ok' | 'note' | 'gone' | 'alert' } {
  const now = f.item ? formatPrice(f.item.listingPrice) : null;
  switch (f.state) {
    case 'available':
      return { text: `Available, ${now}`, tone: 'ok' };
    case 'price_changed':
      return { text: `Available, now ${now} (was ${formatPrice(f.priceWhenSaved)})`, tone: 'note' };
    case 'sold':
      return { text: 'Sold', tone: 'gone' };
    case 'held':
      return {
        text: 'Being checked for safety: hidden from parents until a moderator decides',
        tone: 'note',
      };
    case 'recalled':
      return {
        text: 'May be recalled: taken off the site after a recall match. Stop using it if you bought it.',
        tone: 'alert',
      };
    case 'removed':
      return f.removedForSafety
        ? { text: 'Removed after a safety check', tone: 'alert' }
        : { text: 'No longer listed: the seller removed it', tone: 'gone' };
  }
}

const toneClass = {
  ok: 'text-brand-dark',
  note: 'text-amber-900',
  gone: 'text-muted',
  alert: 'text-red-800 font-semibold',
};

function SavedItem({ favourite }: { favourite: Favourite<Item> }) {
  const [busy, setBusy] = useState(false);
  const name = favourite.item?.itemName ?? favourite.itemName ?? 'An item that is no longer listed';
  const words = stateWords(favourite);
  async function remove() {
    setBusy(true);
    try {
      await removeFavourite(favourite);
    } catch (error) {
      toast({ description: `Could not remove ${name}: ${errorMessage(error)}`, variant: 'destructive' });
      setBusy(false);
    }
  }
  return (
    <li className="border-sand flex gap-3 border-b py-3 last:border-b-0" data-testid="saved-item">
      <div className="bg-sand h-16 w-16 shrink-0 overflow-hidden rounded-lg sm:h-20 sm:w-20">
        {favourite.item?.imageUrl && (
          <img
            src={favourite.item.imageUrl}
            alt=""
            width={80}
            height={80}
            className="h-full w-full object-cover"
          />
        )}
      </div>
      <div className="min-w-0 flex-1">
        <p className="text-ink font-semibold break-words">{name}</p>
        {favourite.item && (
          <p className="text-muted text-xs">
            {ITEM_CATEGORIES[favourite.item.category] ?? favourite.item.category}
          </p>
        )}
        <p className={`mt-1 text-sm ${toneClass[words.tone]}`}>{words.text}</p>
        <p className="text-muted text-xs">Saved {formatDate(favourite.savedAt)}</p>
      </div>
      <button
        type="button"
        onClick={() => void remove()}
        aria-disabled={busy || undefined}
        aria-label={`Remove ${name} from favourites`}
        className="border-sand text-ink hover:bg-sand h-10 shrink-0 self-start rounded-lg border px-3 text-sm"
      >
        Remove
      </button>
    </li>
  );
}

export default function FavouritesPage() {
  const auth = useStore($auth, { ssr: 'initial' });
  const favourites = useStore($favourites);
  const list = useStore($favouriteList);
  useEffect(() => {
    initAuth();
    watchFavourites(true);
  }, []);

  if (auth.loading) return <div aria-busy="true" className="bg-sand h-40 animate-pulse rounded-2xl" />;
  if (!auth.user) {
    return <SignInPrompt text="Sign in to see the items you saved and the searches you follow." />;
  }
  const items = list.items;
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="saved-heading" className={section}>
        <h2 id="saved-heading" className="text-ink text-xl font-bold">
          Saved items {items ? `(${items.length})` : ''}
        </h2>
        {favourites.local && (
          <p className="mt-1 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">
            Demo mode: your favourites are kept in this browser only, not in an account.
          </p>
        )}
        {list.error ? (
          <p role="alert" className="mt-3 rounded-xl bg-red-50 p-3 text-red-900">
            Could not load your favourites: {list.error}
          </p>
        ) : items === null ? (
          <div
            aria-busy="true"
            aria-label="Loading your favourites"
            className="bg-sand mt-3 h-24 animate-pulse rounded-xl"
          />
        ) : items.length === 0 ? (
          <p className="text-muted mt-3">
            Nothing saved yet. Tap the heart on any item to save it here: we keep its price, and tell you if
            it changes, sells or is taken off for safety.{' '}
            <a href="/#featured" className="text-brand-dark font-semibold underline underline-offset-4">
              Browse items
            </a>
          </p>
        ) : (
          <ul className="mt-2">
            {items.map((f) => (
              <SavedItem key={f.itemId} favourite={f} />
            ))}
          </ul>
        )}
      </section>
      {!favourites.local && <SavedSearches />}
    </div>
  );
}
