// One icon per item category (docs/product.md); unknown categories get the generic bag.
const paths: Record<string, string> = {
  clothing: 'M8 3 4 6l2 4 2-1v12h8V9l2 1 2-4-4-3c-.5 1.2-2 2-4 2s-3.5-.8-4-2Z',
  toys: 'M4 13h7v7H4zM13 4h7v16h-7zM6.5 13V9.5a2 2 0 1 1 4 0',
  gear: 'M3 11h13a6.5 6.5 0 0 1-13 0Zm13 0 3-6M7 20a1.5 1.5 0 1 0 0-.01M15 20a1.5 1.5 0 1 0 0-.01',
  books: 'M4 5a2 2 0 0 1 2-2h5v17H6a2 2 0 0 0-2 2Zm16 0a2 2 0 0 0-2-2h-5v17h5a2 2 0 0 1 2 2Z',
  furniture: 'M4 4v16M20 4v16M4 10h16M4 16h16M8 10v6M12 10v6M16 10v6',
  health: 'M12 21s-7-4.5-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 11c0 5.5-7 10-7 10Zm0-12v6m-3-3h6',
};
const bag = 'M6 8h12l-1 12H7L6 8Zm3 0V6a3 3 0 0 1 6 0v2';

export default function CategoryIcon({
  category,
  className = 'h-7 w-7',
}: {
  category: string;
  className?: string;
}) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      data-icon={category in paths ? category : 'bag'}
    >
      <path d={paths[category] ?? bag} />
    </svg>
  );
}
