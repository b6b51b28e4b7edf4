import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../lib/api.ts';
import { countLabel } from '../lib/format.ts';
import { $auth, initAuth } from '../stores/auth.ts';
import { toggleLike, useLiked, usePostStats } from '../stores/posts.ts';
import { toast } from '../stores/toast.ts';
import { $signInOpen } from '../stores/ui.ts';
import { HeartIcon } from '../components/icons.tsx';

interface Props {
  slug: string;
  /** The numbers in the static HTML; replaced by the live ones after load. */
  initial: { viewCount: number; likeCount: number; commentCount: number };
}

/** The post's like toggle. The count always comes from the server, through the post's stats store. */
export default function LikeButton({ slug, initial }: Props) {
  const auth = useStore($auth, { ssr: 'initial' });
  const uid = auth.loading ? null : (auth.user?.uid ?? null);
  const { likeCount } = usePostStats(slug, initial);
  const liked = useLiked(slug, auth.demoMode ? null : uid);
  const [pending, setPending] = useState(false);
  const inFlight = useRef(false);

  useEffect(() => {
    initAuth();
  }, []);

  async function toggle() {
    if (inFlight.current || auth.loading) return;
    if (!auth.user) {
      toast({
        description: 'Please sign in to like posts',
        action: {
          label: 'Sign in',
          altText: 'Open the sign-in dialog',
          onClick: () => $signInOpen.set(true),
        },
      });
      return;
    }
    inFlight.current = true;
    setPending(true);
    try {
      await toggleLike(slug, auth.user.uid);
    } catch (error) {
      toast({ description: `Failed to toggle like: ${errorMessage(error)}`, variant: 'destructive' });
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }

  return (
    <button
      type="button"
      onClick={toggle}
      aria-pressed={liked}
      // aria-disabled rather than disabled: the button keeps focus while the toggle is in flight.
      aria-disabled={pending || undefined}
      aria-busy={pending || undefined}
      aria-label={`Like this post, ${countLabel(likeCount, 'like')}`}
      className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1.5 text-sm font-medium transition-colors aria-disabled:cursor-wait aria-disabled:opacity-70 ${
        liked
          ? 'border-accent bg-accent-light text-accent hover:bg-accent-light/70'
          : 'border-sand text-muted hover:border-accent hover:text-accent bg-white'
      }`}
    >
      <HeartIcon filled={liked} className="h-4 w-4" />
      <span>{likeCount}</span>
    </button>
  );
}
