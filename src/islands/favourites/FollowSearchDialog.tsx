// The form of "Tell me about new items like these": the category shown now, and the rest to choose.
import { useState } from 'react';
import { ITEM_CATEGORIES } from '../../config.ts';
import { errorMessage } from '../../lib/api.ts';
import { saveSearch } from '../../stores/saved-searches.ts';
import { toast } from '../../stores/toast.ts';
import { DialogShell } from '../dialogs/DialogShell.tsx';
import { SearchFields, toInput } from './SearchFields.tsx';

export default function FollowSearchDialog({
  category,
  ageGroups,
  onClose,
}: {
  category: string | null;
  ageGroups: string[];
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const label = category ? (ITEM_CATEGORIES[category] ?? category) : 'any category';
  return (
    <DialogShell
      title="Tell me about new items like these"
      description={`We email you when a new item in ${label} matches. You can pause, change or delete this on your favourites page.`}
      onClose={onClose}
    >
      <SearchFields
        initial={{ ageGroup: '', maxPrice: '', words: '', frequency: 'instant' }}
        ageGroups={ageGroups}
        submitLabel="Save this search"
        busy={busy}
        error={error}
        onCancel={onClose}
        onSubmit={(draft) => {
          const input = toInput(draft);
          if ('error' in input) return setError(input.error);
          setBusy(true);
          setError(null);
          saveSearch({ ...input, category })
            .then((saved) => {
              toast({
                description:
                  saved.emails === 'pending'
                    ? 'Search saved. Check your inbox and confirm your email address: no alerts go out until you do.'
                    : saved.emails === 'unverified'
                      ? 'Search saved, but your sign-in email address is not verified yet, so we cannot email you.'
                      : 'Search saved. We will email you about new items like these.',
              });
              onClose();
            })
            .catch((e: unknown) => {
              setError(errorMessage(e));
              setBusy(false);
            });
        }}
      />
    </DialogShell>
  );
}
