// The studio's posts (/studio, docs/product.md "The studio"): every post a writer may open, with
// its state, author, last change and publish time, filtered by state. Authors, editors and admins;
// everyone else sees why.
import { useStore } from '@nanostores/react';
import { useId, useState } from 'react';
import {
  canWritePosts,
  POST_STATUS_LABELS,
  POST_STATUSES,
  type PostStatus,
  type StudioPostSummary,
} from '../../../api/contract/studio.ts';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/time.ts';
import { accountEmail } from '../../stores/auth.ts';
import { studioPosts } from '../../stores/studio.ts';
import { When } from '../moderation/parts.tsx';
import { type Access, RoleGate, useGatedAccount } from '../RoleGate.tsx';
import { StatusBadge } from './parts.tsx';
import { WritersOnly } from './WritersOnly.tsx';

const access: Access = { role: canWritePosts };

export default function StudioList() {
  const { auth, uid } = useGatedAccount(access);
  return (
    <RoleGate
      auth={auth}
      access={access}
      signIn="Sign in with a writer’s account to open the studio."
      forbidden={<WritersOnly email={accountEmail(auth)} />}
    >
      {uid && <Posts uid={uid} />}
    </RoleGate>
  );
}

type Filter = PostStatus | 'all';
const FILTERS: readonly Filter[] = ['all', ...POST_STATUSES];

const columns: Column<StudioPostSummary>[] = [
  {
    head: 'Title',
    cell: (post) => (
      <a
        href={`/studio/edit/?post=${post.postId}`}
        className="text-brand-dark font-semibold underline-offset-4 hover:underline"
      >
        {post.title || 'Untitled'}
      </a>
    ),
  },
  {
    head: 'State',
    cell: (post) => (
      <>
        <StatusBadge status={post.status} />
        {post.hasUnpublishedChanges && <span className="text-muted ml-2 text-xs">Changed since</span>}
      </>
    ),
  },
  { head: 'Author', cell: (post) => post.authorName },
  { head: 'Last change', cell: (post) => <When iso={post.updatedAt} /> },
  {
    head: 'Goes live',
    cell: (post) =>
      post.status === 'scheduled' || post.status === 'published' ? (
        <time dateTime={post.publishAt ?? undefined}>{formatDateTime(post.publishAt)}</time>
      ) : (
        '—'
      ),
  },
];

const EMPTY: Record<Filter, string> = {
  all: 'No posts yet. Use “New post” to write the first one.',
  draft: 'No drafts.',
  review: 'Nothing is waiting for review.',
  scheduled: 'Nothing is scheduled.',
  published: 'Nothing is published yet.',
  withdrawn: 'No withdrawn posts.',
};

function Posts({ uid }: { uid: string }) {
  const { data, error } = useStore(studioPosts.store(uid));
  const [filter, setFilter] = useState<Filter>('all');
  const id = useId();
  const count = (status: Filter) =>
    data ? (status === 'all' ? data.length : data.filter((p) => p.status === status).length) : 0;
  const rows = (data ?? []).filter((post) => filter === 'all' || post.status === filter);

  return (
    <div>
      <div className="flex flex-wrap items-end gap-4">
        <a
          href="/studio/edit/"
          className="bg-brand hover:bg-brand-dark rounded-full px-5 py-2.5 font-semibold text-white"
        >
          New post
        </a>
        <div className="ml-auto">
          <label htmlFor={`${id}-filter`} className="text-ink text-sm font-semibold">
            Show
          </label>
          <select
            id={`${id}-filter`}
            value={filter}
            onChange={(event) => setFilter(FILTERS.find((f) => f === event.target.value) ?? 'all')}
            className="border-sand text-ink ml-2 rounded-lg border bg-white px-3 py-2"
          >
            <option value="all">All posts ({count('all')})</option>
            {POST_STATUSES.map((status) => (
              <option key={status} value={status}>
                {POST_STATUS_LABELS[status]} ({count(status)})
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="mt-6">
        {error && !data ? (
          <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-900">
            Failed to load the posts: {errorMessage(error)}
          </p>
        ) : !data ? (
          <p className="text-muted" aria-busy="true">
            Loading posts…
          </p>
        ) : (
          <DataTable
            caption={filter === 'all' ? 'Posts' : `Posts: ${POST_STATUS_LABELS[filter]}`}
            columns={columns}
            rows={rows}
            rowKey={(post) => post.postId}
            empty={EMPTY[filter]}
          />
        )}
      </div>
    </div>
  );
}
