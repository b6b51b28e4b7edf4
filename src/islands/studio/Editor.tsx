// The editor itself: the post's fields, its body with the live preview, what can be done with it,
// and its history. Drafts save by themselves; changes a reload left behind are taken up again.
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import type { StudioPost } from '../../../api/contract/studio.ts';
import { formatDateTime } from '../../lib/time.ts';
import { blogCategories, postRevisions, restoreRevision, studioPost } from '../../stores/studio.ts';
import { ConflictDialog } from './ConflictDialog.tsx';
import { FeaturedImage } from './FeaturedImage.tsx';
import { HistoryPanel } from './HistoryPanel.tsx';
import { MarkdownField } from './MarkdownField.tsx';
import { StatusBadge } from './parts.tsx';
import { PostActions } from './PostActions.tsx';
import { PostFields } from './PostFields.tsx';
import { SaveStatus } from './SaveStatus.tsx';
import { usePostEditor } from './usePostEditor.ts';

interface Props {
  uid: string;
  role: string | null;
  /** The post as opened; null for a new one. */
  post: StudioPost | null;
}

export function Editor({ uid, role, post }: Props) {
  const editor = usePostEditor(uid, post);
  const { fields, keeping, conflict } = editor;
  const { data: categories } = useStore(blogCategories.store('all'));
  const { data: live } = useStore(studioPost.store(editor.postId === null ? null : String(editor.postId)));
  // The revision the editor's changes were made on, for the diff a conflict shows.
  const { data: revisions } = useStore(
    postRevisions.store(editor.postId === null ? null : String(editor.postId)),
  );
  const status = live?.status ?? post?.status ?? 'draft';
  const [restoredAt, setRestoredAt] = useState(editor.resumed?.keptAt ?? null);
  const [conflictHidden, setConflictHidden] = useState<number | null>(null);
  // The address readers have: a published post's old address forwards to a new slug.
  const [liveSlug] = useState(post && post.publishedRevision !== null ? post.slug : null);

  async function restore(revision: number) {
    const id = await editor.saveFirst();
    if (id === null) throw new Error('Your latest changes are not saved yet; try again once they are.');
    const restored = await restoreRevision(uid, id, revision);
    editor.takeServer(restored.revision, restored, restored.updatedAt);
  }

  // The post came rendered; changes taken up from this browser are rendered afresh.
  const initial =
    post && !editor.resumed
      ? { html: post.html, wordCount: post.wordCount, readingTimeMinutes: post.readingTimeMinutes }
      : null;

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center gap-3">
        <a
          href="/studio"
          className="text-brand-dark text-sm font-semibold underline-offset-4 hover:underline"
        >
          ← All posts
        </a>
        <StatusBadge status={status} />
        {live?.publishAt && (status === 'scheduled' || status === 'published') && (
          <span className="text-muted text-sm">
            {status === 'scheduled' ? 'Goes live' : 'Published'} {formatDateTime(live.publishAt)}
          </span>
        )}
        <div className="ml-auto">
          <SaveStatus state={keeping.state} onShowConflict={() => setConflictHidden(null)} />
        </div>
      </div>
      {restoredAt && (
        <p role="status" className="rounded-xl bg-amber-50 p-4 text-amber-950">
          Restored changes you had not saved yet, kept in this browser on {formatDateTime(restoredAt)}. They
          are being saved now.{' '}
          <button type="button" className="font-semibold underline" onClick={() => setRestoredAt(null)}>
            Dismiss
          </button>
        </p>
      )}
      <section aria-label="Publishing" className="border-sand rounded-2xl border bg-white p-5">
        <PostActions
          uid={uid}
          role={role}
          postId={editor.postId}
          status={status}
          slug={fields.slug}
          saveFirst={editor.saveFirst}
        />
      </section>
      <PostFields
        fields={fields}
        onChange={editor.change}
        onSlugEdited={editor.editSlug}
        liveSlug={status === 'published' || status === 'scheduled' ? liveSlug : null}
        categories={categories}
      />
      <FeaturedImage
        url={fields.featuredImageUrl}
        alt={fields.featuredImageAlt}
        onChange={(featuredImageUrl, featuredImageAlt) =>
          editor.change({ featuredImageUrl, featuredImageAlt })
        }
      />
      <MarkdownField
        markdown={fields.markdown}
        onChange={(markdown) => editor.change({ markdown })}
        initial={initial}
      />
      {editor.postId !== null && (
        <HistoryPanel
          postId={editor.postId}
          current={fields}
          currentRevision={editor.base.current.revision}
          onRestore={restore}
        />
      )}
      {conflict && conflictHidden !== conflict.revision && (
        <ConflictDialog
          base={
            revisions?.find((r) => r.revision === editor.base.current.revision) ?? editor.base.current.fields
          }
          baseRevision={editor.base.current.revision}
          latest={conflict}
          onKeepMine={editor.keepMine}
          onUseTheirs={() => editor.takeServer(conflict.revision, conflict, conflict.savedAt)}
          onClose={() => setConflictHidden(conflict.revision)}
        />
      )}
    </div>
  );
}
