// "Tell me about new items like these" under the category filter (docs/product.md, "Favourites
// and alerts"). Signed out it opens sign-in; demo mode cannot email, so it says so. The form's
// dialog loads on first use.
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useState } from 'react';
import { $auth } from '../../stores/auth.ts';
import { toast } from '../../stores/toast.ts';
import { $signInOpen } from '../../stores/ui.ts';

const FollowSearchDialog = lazy(() => import('./FollowSearchDialog.tsx'));

export default function FollowSearch({
  category,
  ageGroups,
}: {
  category: string | null;
  ageGroups: string[];
}) {
  const auth = useStore($auth, { ssr: 'initial' });
  const [open, setOpen] = useState(false);
  function start() {
    if (auth.loading) return;
    if (!auth.user) {
      $signInOpen.set(true);
      return;
    }
    if (auth.demoMode) {
      toast({
        description: 'Saved searches send emails, so they need a real account: demo mode cannot email you.',
      });
      return;
    }
    setOpen(true);
  }
  return (
    <>
      <button
        type="button"
        onClick={start}
        className="border-brand text-brand-dark hover:bg-brand-light rounded-full border px-4 py-2 text-sm font-semibold"
      >
        Tell me about new items like these
      </button>
      {open && (
        <Suspense fallback={null}>
          <FollowSearchDialog category={category} ageGroups={ageGroups} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
