import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { LikeStatus } from '../../api/db/queries/community.ts';
import { apiRequest, errorMessage } from '../lib/api-client.ts';
import { countLabel } from '../lib/format.ts';
import { $auth, getIdToken, initAuth } from '../stores/auth.ts';
import { toast } from '../stores/toast.ts';
import { $signInOpen } from '../stores/ui.ts';
import { HeartIcon } from '../components/icons.tsx';

interface Props {
  slug: string;
  /** The count in the static HTML; replaced by the live one after load. */
  initialLikeCount: number;
}

/** The post's like toggle (spec §4 "Post like", §5, §8). The count always comes from the server. */
export default function LikeButton({ slug, initialLikeCount }: Props) {
  const auth = useStore($auth, { ssr: 'initial' });
  const [status, setStatus] = useState<LikeStatus>({ liked: false, likeCount: initialLikeCount });
  const [pending, setPending] = useState(false);
  const inFlight = useRef(false);
  // Bumped by every toggle, so a status answer requested before a toggle never overwrites it.
  const toggles = useRef(0);
  const uid = auth.user?.uid ?? null;
  const path = `/api/blog/posts/${encodeURIComponent(slug)}`;

  useEffect(() => {
    initAuth();
  }, []);

  // The live status, again whenever the signed-in user changes. Without a user the answer is
  // synthesised as not liked (spec §7).
  useEffect(() => {
    if (auth.loading) return;
    const controller = new AbortController();
    const toggledBefore = toggles.current;
    (async () => {
      const token = uid ? await getIdToken() : null;
      const answer = await apiRequest<LikeStatus>(`${path}/like-status`, {
        token,
        signal: controller.signal,
      });
      if (!controller.signal.aborted && toggles.current === toggledBefore) {
        setStatus({ liked: uid !== null && answer.liked, likeCount: answer.likeCount });
      }
    })().catch((error: unknown) => {
      if (!controller.signal.aborted) console.error('Could not load the like status', error);
    });
    return () => controller.abort();
  }, [auth.loading, uid, path]);

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
    toggles.current += 1;
    setPending(true);
    try {
      const token = await getIdToken();
      if (!token) throw new Error('Authentication required');
      setStatus(await apiRequest<LikeStatus>(`${path}/like`, { method: 'POST', token }));
    } catch (error) {
      toast({ description: `Failed to toggle like: ${errorMessage(error)}`, variant: 'destructive' });
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }

  const { liked, likeCount } = status;
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
