// The fields of a saved search, shared by "Tell me about new items like these" and /favourites'
// Change: age group, a maximum price, optional words and how often to email.
import { useId, useState } from 'react';
import {
  SAVED_SEARCH_AGE_GROUP_MAX,
  SAVED_SEARCH_PRICE_MAX,
  SAVED_SEARCH_WORDS_MAX,
  type SavedSearchFrequency,
  type SavedSearchInput,
} from '../../../api/contract/favourites.ts';
import { buttons } from '../dialogs/DialogShell.tsx';

const field =
  'border-sand text-ink focus:border-brand focus:ring-brand/30 mt-1 block w-full rounded-lg border bg-white px-3 py-2 focus:ring-2 focus:outline-none';

export interface SearchDraft {
  ageGroup: string;
  maxPrice: string;
  words: string;
  frequency: SavedSearchFrequency;
}

/** The draft as the API takes it; a message instead when the price is not a price. */
export function toInput(draft: SearchDraft): Omit<SavedSearchInput, 'category'> | { error: string } {
  const price = draft.maxPrice.trim();
  const maxPrice = price === '' ? null : Number(price);
  if (maxPrice !== null && !(maxPrice > 0 && maxPrice <= SAVED_SEARCH_PRICE_MAX)) {
    return { error: `The maximum price must be a number of dollars from 0.01 to ${SAVED_SEARCH_PRICE_MAX}.` };
  }
  return {
    ageGroup: draft.ageGroup.trim() || null,
    maxPrice,
    words: draft.words.trim() || null,
    frequency: draft.frequency,
  };
}

export function SearchFields({
  initial,
  ageGroups,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  initial: SearchDraft;
  /** Age groups to offer (the ones items have); any other may be typed. */
  ageGroups: string[];
  submitLabel: string;
  busy: boolean;
  error: string | null;
  onSubmit: (draft: SearchDraft) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const set = (patch: Partial<SearchDraft>) => setDraft({ ...draft, ...patch });
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) onSubmit(draft);
      }}
    >
      <label className="text-ink text-sm font-medium">
        Age group (optional)
        <input
          className={field}
          list={`${id}-ages`}
          maxLength={SAVED_SEARCH_AGE_GROUP_MAX}
          value={draft.ageGroup}
          onChange={(e) => set({ ageGroup: e.target.value })}
        />
        <datalist id={`${id}-ages`}>
          {ageGroups.map((age) => (
            <option key={age} value={age} />
          ))}
        </datalist>
      </label>
      <label className="text-ink text-sm font-medium">
        Maximum price in dollars (optional)
        <input
          className={field}
          inputMode="decimal"
          value={draft.maxPrice}
          onChange={(e) => set({ maxPrice: e.target.value })}
        />
      </label>
      <label className="text-ink text-sm font-medium">
        Words to look for (optional)
        <input
          className={field}
          maxLength={SAVED_SEARCH_WORDS_MAX}
          value={draft.words}
          onChange={(e) => set({ words: e.target.value })}
        />
      </label>
      <fieldset>
        <legend className="text-ink text-sm font-medium">Email me</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {(
            [
              ['instant', 'As they arrive (at most every 15 minutes)'],
              ['daily', 'Once a day'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="text-ink flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={`${id}-frequency`}
                value={value}
                checked={draft.frequency === value}
                onChange={() => set({ frequency: value })}
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      {error && (
        <p role="alert" className="rounded-lg bg-red-50 p-2 text-sm text-red-900">
          {error}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={buttons.secondary} onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className={buttons.primary} aria-disabled={busy || undefined}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
