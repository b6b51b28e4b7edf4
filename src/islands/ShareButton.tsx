// Share: the Web Share API where there is one, else copy the link and confirm (issue 4). A
// cancelled share is only logged (docs/product.md).
import { toast } from '../stores/toast.ts';

export default function ShareButton({ title }: { title: string }) {
  async function share() {
    const url = window.location.href;
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
      } catch (error) {
        console.info('Share cancelled', error);
      }
      return;
    }
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Link copied', description: 'The link to this post is on your clipboard.' });
    } catch (error) {
      console.error('Copying the link failed', error);
      toast({ title: 'Could not copy the link', description: url, variant: 'destructive' });
    }
  }

  return (
    <button
      type="button"
      onClick={() => void share()}
      className="border-brand text-brand-dark hover:bg-brand-light flex items-center gap-2 rounded-full border px-4 py-2 text-sm font-semibold"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-4 w-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path
          d="M4 12v7a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-7M16 6l-4-4-4 4M12 2v13"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      Share
    </button>
  );
}
