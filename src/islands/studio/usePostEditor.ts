// The editor's state: the fields as typed, the revision they are based on, the slug that follows
// the title until it is edited, and saving (a new post is created by its first save). A save on an
// old revision comes back as a conflict for the editor to resolve.
import { useEffect, useRef, useState } from 'react';
import {
  slugify,
  type StudioPost,
  type StudioPostFields,
  type StudioRevision,
} from '../../../api/contract/studio.ts';
import { ApiError } from '../../lib/api.ts';
import { createPost, savePost } from '../../stores/studio.ts';
import { draftKey, type KeptDraft, type SaveResult, useDraftKeeping } from './useDraftKeeping.ts';

export const EMPTY_FIELDS: StudioPostFields = {
  title: '',
  slug: '',
  excerpt: '',
  markdown: '',
  categories: [],
  kind: 'article',
  featured: false,
  featuredImageUrl: null,
  featuredImageAlt: null,
};

export function fieldsOf(post: StudioPostFields): StudioPostFields {
  return {
    title: post.title,
    slug: post.slug,
    excerpt: post.excerpt,
    markdown: post.markdown,
    categories: post.categories,
    kind: post.kind,
    featured: post.featured,
    featuredImageUrl: post.featuredImageUrl,
    featuredImageAlt: post.featuredImageAlt,
  };
}

interface Base {
  revision: number | null;
  fields: StudioPostFields;
}

/** Kept changes worth taking up: not the same as what the server has. */
function worthResuming(kept: KeptDraft | null, post: StudioPost | null): KeptDraft | null {
  if (!kept || (post && JSON.stringify(kept.fields) === JSON.stringify(fieldsOf(post)))) return null;
  return kept;
}

export function usePostEditor(uid: string, post: StudioPost | null) {
  const [postId, setPostId] = useState(post?.postId ?? null);
  const id = useRef(postId);
  const keeping = useDraftKeeping({
    storageKey: draftKey(postId),
    baseRevision: () => base.current.revision,
    save,
  });
  // Changes this browser kept from an earlier visit (the server never got them) are taken up.
  const [resumed] = useState(() => worthResuming(keeping.restored, post));
  const base = useRef<Base>({
    revision: resumed?.baseRevision ?? post?.revision ?? null,
    fields: post ? fieldsOf(post) : EMPTY_FIELDS,
  });
  const [fields, setFields] = useState<StudioPostFields>(
    () => resumed?.fields ?? (post ? fieldsOf(post) : EMPTY_FIELDS),
  );
  const current = useRef(fields);
  const [conflict, setConflict] = useState<StudioRevision | null>(null);
  // The slug follows the title until it is edited by hand; a published post keeps its address.
  const [slugFollows, setSlugFollows] = useState(
    fields.slug === slugify(fields.title) && post?.status !== 'published' && post?.status !== 'scheduled',
  );

  // What was taken up is saved now; kept changes the server already has are forgotten.
  const { edit, discard, restored } = keeping;
  const tookUp = useRef(false);
  useEffect(() => {
    if (tookUp.current) return;
    tookUp.current = true;
    if (resumed) edit(resumed.fields);
    else if (restored) discard(post?.updatedAt ?? new Date().toISOString());
  }, [resumed, restored, edit, discard, post]);

  async function save(next: StudioPostFields): Promise<SaveResult> {
    if (id.current === null) {
      if (!next.title.trim())
        throw new ApiError(400, '400: no title', 'Write a title: a new draft is saved once it has one.');
      const created = await createPost(uid, next);
      id.current = created.postId;
      base.current = { revision: created.revision, fields: next };
      setPostId(created.postId);
      history.replaceState(history.state, '', `/studio/edit/?post=${created.postId}`);
      return { kind: 'saved', at: new Date().toISOString() };
    }
    const answer = await savePost(uid, id.current, next, base.current.revision ?? 0);
    if (answer.kind === 'conflict') {
      setConflict(answer.latest);
      return { kind: 'conflict' };
    }
    base.current = { revision: answer.revision, fields: next };
    return { kind: 'saved', at: answer.updatedAt };
  }

  function replace(next: StudioPostFields) {
    current.current = next;
    setFields(next);
  }

  /** A change the editor typed: shown at once, kept in this browser, saved when typing stops. */
  function change(patch: Partial<StudioPostFields>) {
    const next = { ...current.current, ...patch };
    if (slugFollows && patch.title !== undefined) next.slug = slugify(patch.title);
    replace(next);
    keeping.edit(next);
  }

  function editSlug(slug: string) {
    setSlugFollows(false);
    change({ slug });
  }

  /** "Keep my version": save the editor's text on top of the latest revision. */
  function keepMine() {
    if (!conflict) return;
    base.current = { revision: conflict.revision, fields: fieldsOf(conflict) };
    setConflict(null);
    void keeping.flush();
  }

  /** "Use theirs" (or a restore): the server's version replaces the editor's text. */
  function takeServer(revision: number, server: StudioPostFields, at: string) {
    base.current = { revision, fields: fieldsOf(server) };
    setConflict(null);
    replace(fieldsOf(server));
    keeping.discard(at);
  }

  /** Saves what is not saved yet: the post's id once the server has everything, else null. */
  async function saveFirst(): Promise<number | null> {
    await keeping.flush();
    return keeping.hasUnsaved() ? null : id.current;
  }

  return {
    postId,
    saveFirst,
    fields,
    base,
    conflict,
    keeping,
    change,
    editSlug,
    resumed,
    keepMine,
    takeServer,
  };
}

export type PostEditor = ReturnType<typeof usePostEditor>;
