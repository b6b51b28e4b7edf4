// The navigation's search icon. The dialog and Pagefind load on the first click, so they cost
// nothing on a page where nobody searches.
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useRef } from 'react';
import { $searchOpen } from '../stores/ui.ts';

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
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="h-5 w-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" strokeLinecap="round" />
        </svg>
      </button>
      {open && (
        <Suspense fallback={null}>
          <SearchPanel returnFocus={() => button.current?.focus()} />
        </Suspense>
      )}
    </>
  );
}
