// The navigation's search icon. The dialog and Pagefind load on the first click, so they cost
// nothing on a page where nobody searches.
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useRef } from 'react';
import { $searchOpen } from '../stores/ui.ts';
import { SearchIcon } from '../components/icons.tsx';

const SearchPanel = lazy(() => import('./search/SearchPanel.tsx'));

export default function SearchButton() {
  const open = useStore($searchOpen);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label="Search the blog"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => $searchOpen.set(true)}
        className="text-ink hover:bg-sand flex h-10 w-10 items-center justify-center rounded-md"
      >
        <SearchIcon className="h-5 w-5" />
      </button>
      {open && (
        <Suspense fallback={null}>
          <SearchPanel returnFocus={() => button.current?.focus()} />
        </Suspense>
      )}
    </>
  );
}
