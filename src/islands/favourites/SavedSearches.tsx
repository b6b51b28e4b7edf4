// /favourites' saved searches: each with what it asks for and its last match, to pause, change or
// delete (docs/product.md, "Favourites and alerts").
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { AlertEmailState, SavedSearch } from '../../../api/contract/favourites.ts';
import { ITEM_CATEGORIES } from '../../config.ts';
import { errorMessage } from '../../lib/api.ts';
import { formatDate } from '../../lib/time.ts';
import {
  $savedSearches,
  changeSearch,
  deleteSearch,
  loadSavedSearches,
} from '../../stores/saved-searches.ts';
import { toast } from '../../stores/toast.ts';
import { buttons } from '../dialogs/DialogShell.tsx';
import { SearchFields, toInput } from './SearchFields.tsx';

export function describeSearch(s: Pick<SavedSearch, 'category' | 'ageGroup' | 'maxPrice' | 'words'>): string {
  const parts = [s.category ? (ITEM_CATEGORIES[s.category] ?? s.category) : 'Any category'];
  if (s.ageGroup) parts.push(s.ageGroup);
  if (s.maxPrice !== null) parts.push(`up to $${s.maxPrice.toFixed(2)}`);
  if (s.words) parts.push(`“${s.words}”`);
  return parts.join(', ');
}

const EMAIL_WORDS: Record<AlertEmailState, string | null> = {
  on: null,
  pending:
    'Check your inbox: we sent a link to confirm your email address. No alerts go out until you open it.',
  unverified: 'Your sign-in email address is not verified yet, so we cannot email you these alerts.',
  off: 'You stopped all emails from us. Save a new search to turn alerts back on.',
};

function SearchRow({ search }: { search: SavedSearch }) {
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const label = describeSearch(search);
  async function run(work: () => Promise<unknown>, failure: string) {
    setBusy(true);
    try {
      await work();
      return true;
    } catch (e) {
      toast({ description: `${failure}: ${errorMessage(e)}`, variant: 'destructive' });
      return false;
    } finally {
      setBusy(false);
    }
  }
  return (
    <li className="border-sand border-b py-3 last:border-b-0" data-testid="saved-search">
      <p className="text-ink font-semibold">{label}</p>
      <p className="text-muted text-sm">
        {search.frequency === 'instant' ? 'Emails as items arrive' : 'One email a day'}
        {search.paused ? ' · Paused' : ''}
        {!search.categoryExists ? ' · No items are in this category now' : ''}
      </p>
      <p className="text-muted text-sm">
        {search.lastMatch
          ? `Last match: ${search.lastMatch.itemName}, ${formatDate(search.lastMatch.at)}`
          : 'No matches yet'}
      </p>
      {editing ? (
        <div className="mt-3">
          <SearchFields
            initial={{
              ageGroup: search.ageGroup ?? '',
              maxPrice: search.maxPrice === null ? '' : String(search.maxPrice),
              words: search.words ?? '',
              frequency: search.frequency,
            }}
            ageGroups={[]}
            submitLabel="Save changes"
            busy={busy}
            error={error}
            onCancel={() => setEditing(false)}
            onSubmit={(draft) => {
              const input = toInput(draft);
              if ('error' in input) return setError(input.error);
              setError(null);
              void run(() => changeSearch(search.searchId, input), 'Could not change the search').then(
                (done) => done && setEditing(false),
              );
            }}
          />
        </div>
      ) : (
        <div className="mt-2 flex flex-wrap gap-2">
          <button
            type="button"
            className={buttons.secondary}
            aria-disabled={busy || undefined}
            aria-label={`${search.paused ? 'Resume' : 'Pause'} alerts for ${label}`}
            onClick={() =>
              void run(
                () => changeSearch(search.searchId, { paused: !search.paused }),
                'Could not change the search',
              )
            }
          >
            {search.paused ? 'Resume' : 'Pause'}
          </button>
          <button
            type="button"
            className={buttons.secondary}
            aria-label={`Change ${label}`}
            onClick={() => setEditing(true)}
          >
            Change
          </button>
          <button
            type="button"
            className={buttons.secondary}
            aria-disabled={busy || undefined}
            aria-label={`Delete ${label}`}
            onClick={() => void run(() => deleteSearch(search.searchId), 'Could not delete the search')}
          >
            Delete
          </button>
        </div>
      )}
    </li>
  );
}

export default function SavedSearches() {
  const { searches, error } = useStore($savedSearches);
  useEffect(() => {
    void loadSavedSearches();
  }, []);
  const emails = searches?.[0]?.emails ?? 'on';
  return (
    <section
      aria-labelledby="searches-heading"
      className="border-sand rounded-2xl border bg-white p-4 shadow-sm sm:p-6"
    >
      <h2 id="searches-heading" className="text-ink text-xl font-bold">
        Saved searches
      </h2>
      {searches && searches.length > 0 && EMAIL_WORDS[emails] && (
        <p className="mt-1 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">{EMAIL_WORDS[emails]}</p>
      )}
      {error ? (
        <p role="alert" className="mt-3 rounded-xl bg-red-50 p-3 text-red-900">
          Could not load your saved searches: {error}
        </p>
      ) : searches === null ? (
        <div
          aria-busy="true"
          aria-label="Loading your saved searches"
          className="bg-sand mt-3 h-16 animate-pulse rounded-xl"
        />
      ) : searches.length === 0 ? (
        <p className="text-muted mt-3">
          No saved searches. Choose a category on the home page and press “Tell me about new items like these”
          to hear about new items by email.
        </p>
      ) : (
        <ul className="mt-2">
          {searches.map((s) => (
            <SearchRow key={s.searchId} search={s} />
          ))}
        </ul>
      )}
    </section>
  );
}
