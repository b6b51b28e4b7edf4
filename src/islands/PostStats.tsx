// A post's view and comment counts: the static numbers first, then the live ones from the API.
// The view is recorded once per visit, VIEW_RECORD_DELAY_MS after load (spec §4, §7: fire and
// forget; a failure is only logged).
import { useEffect, useState } from 'react';
import { VIEW_RECORD_DELAY_MS } from '../config.ts';
import type { BlogPost } from '../../api/db/queries/posts.ts';
import { apiRequest } from '../lib/api-client.ts';
import { countLabel } from '../lib/format.ts';

interface Counts {
  viewCount: number;
  commentCount: number;
}

export default function PostStats({ slug, initial }: { slug: string; initial: Counts }) {
  const [counts, setCounts] = useState(initial);

  useEffect(() => {
    const controller = new AbortController();
    apiRequest<BlogPost>(`/api/blog/posts/${encodeURIComponent(slug)}`, { signal: controller.signal })
      .then((post) => setCounts({ viewCount: post.viewCount, commentCount: post.commentCount }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error('Failed to refresh the post counts', error);
      });
    const timer = setTimeout(() => {
      apiRequest<{ viewCount: number }>(`/api/blog/posts/${encodeURIComponent(slug)}/view`, {
        method: 'POST',
      })
        .then(({ viewCount }) => setCounts((c) => ({ ...c, viewCount })))
        .catch((error: unknown) => console.error('Failed to record the view', error));
    }, VIEW_RECORD_DELAY_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
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
