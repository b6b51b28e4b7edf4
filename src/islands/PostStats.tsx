// A post's view and comment counts: the static numbers first, then the live ones from the post's
// stats store (shared with the like button and the comments heading). The view is recorded once
// per visit, VIEW_RECORD_DELAY_MS after load (fire and forget; a failure is only logged).
import { useEffect } from 'react';
import { VIEW_RECORD_DELAY_MS } from '../config.ts';
import { countLabel } from '../lib/format.ts';
import { recordView, usePostStats } from '../stores/posts.ts';

interface Props {
  slug: string;
  initial: { viewCount: number; likeCount: number; commentCount: number };
}

export default function PostStats({ slug, initial }: Props) {
  const counts = usePostStats(slug, initial);

  useEffect(() => {
    const timer = setTimeout(() => recordView(slug), VIEW_RECORD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [slug]);

  return (
    <p className="text-muted flex gap-4 text-sm">
      <span data-testid="view-count">{countLabel(counts.viewCount, 'view')}</span>
      <a href="#comments" data-testid="comment-count" className="underline-offset-4 hover:underline">
        {countLabel(counts.commentCount, 'comment')}
      </a>
    </p>
  );
}
