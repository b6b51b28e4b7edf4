import fs from 'node:fs';
import path from 'node:path';
import { type ContentCategory, ContentError, readPostFile } from './content.ts';
import type { DB } from './database.ts';
import { findRevision } from './queries/post-revisions.ts';

// Every post written back out as a content/posts file (docs/decisions/018): what `npm run
// content:export` writes. The files are what the sync imports, and the sync of an export gives a
// database whose export is the same files, byte for byte.

/** One post as a file of content/posts. */
export interface ExportedPost {
  postId: number;
  slug: string;
  /** The file's name: <slug>.md. */
  file: string;
  text: string;
  /** The revision written: what readers have for a published post, else the latest. */
  revision: number;
  /** True unless the post is published (or scheduled): the file says `draft: true`. */
  draft: boolean;
  /** A published post's later revisions, not in the file because readers do not have them yet. */
  unpublishedChanges: boolean;
}

export interface PostExport {
  posts: ExportedPost[];
  /** Posts with no revision to write (imported before revisions, and not synced since), by slug. */
  withoutRevision: string[];
  /** Posts whose revision's slug another exported post has already, by post id. */
  clashes: { postId: number; slug: string }[];
  /** Every blog category, for blog-categories.json beside the posts (the sync checks them). */
  categories: ContentCategory[];
}

/** The frontmatter a post file has, in the order it is written. */
export interface PostFile {
  title: string;
  slug: string;
  excerpt: string;
  author: string;
  publishedAt: string;
  categories: string[];
  featured: boolean;
  kind: 'article' | 'discussion';
  featuredImage: string | null;
  featuredImageAlt: string | null;
  draft: boolean;
  markdown: string;
}

// YAML reads some plain words as something else (true, null, 2026), so only plain-looking words
// stay unquoted; everything else is a double-quoted string, which JSON's escapes spell correctly.
const PLAIN = /^[A-Za-z/][A-Za-z0-9._/-]*(?: [A-Za-z0-9._/-]+)*$/;
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n)$/i;
// Characters YAML treats as line breaks or refuses to read unescaped.
const UNSAFE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

function quoted(value: string): string {
  return JSON.stringify(value).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function scalar(value: string): string {
  return PLAIN.test(value) && !RESERVED.test(value) ? value : quoted(value);
}

/** A post as the text of its file: frontmatter, then the Markdown. */
export function postFileText(post: PostFile): string {
  const lines = [
    '---',
    `title: ${quoted(post.title.trim())}`,
    `slug: ${scalar(post.slug)}`,
    `excerpt: ${quoted(post.excerpt)}`,
    `author: ${scalar(post.author.trim())}`,
    // The form the sync stores (toISOString), so a second export writes the same text.
    `publishedAt: ${new Date(post.publishedAt).toISOString()}`,
    `categories: [${post.categories.map(scalar).join(', ')}]`,
    `featured: ${post.featured}`,
    `kind: ${post.kind}`,
    ...(post.featuredImage === null ? [] : [`featuredImage: ${scalar(post.featuredImage)}`]),
    ...(post.featuredImageAlt === null ? [] : [`featuredImageAlt: ${quoted(post.featuredImageAlt)}`]),
    ...(post.draft ? ['draft: true'] : []),
    '---',
  ];
  // The sync reads the body trimmed; writing it trimmed keeps the round trip exact.
  const body = post.markdown.trim();
  return `${lines.join('\n')}\n${body === '' ? '' : `${body}\n`}`;
}

/** Every post as a file, in slug order; posts that cannot be written are named instead. */
export async function exportPosts(db: DB): Promise<PostExport> {
  const rows = await db
    .selectFrom('blog_posts')
    .select(['post_id', 'slug', 'author_name', 'published_at', 'created_at', 'is_published', 'revision'])
    .select('published_revision')
    .orderBy('post_id')
    .execute();
  const result: PostExport = { posts: [], withoutRevision: [], clashes: [], categories: [] };
  const slugs = new Set<string>();
  for (const row of rows) {
    // Readers' version of a published (or scheduled) post; the latest of any other, as a draft.
    const published = row.is_published === 1;
    const number = (published ? row.published_revision : null) ?? row.revision;
    const revision = number > 0 ? await findRevision(db, row.post_id, number) : null;
    if (!revision) {
      result.withoutRevision.push(row.slug);
      continue;
    }
    if (slugs.has(revision.slug)) {
      result.clashes.push({ postId: row.post_id, slug: revision.slug });
      continue;
    }
    slugs.add(revision.slug);
    result.posts.push({
      postId: row.post_id,
      slug: revision.slug,
      file: `${revision.slug}.md`,
      revision: number,
      draft: !published,
      unpublishedChanges: published && row.revision !== number,
      text: postFileText({
        ...revision,
        featuredImage: revision.featuredImageUrl,
        author: row.author_name,
        // A draft never published has no time yet; the file needs one (publishing sets its own).
        publishedAt: row.published_at ?? row.created_at,
        draft: !published,
      }),
    });
  }
  result.posts.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  result.categories = (
    await db
      .selectFrom('blog_categories')
      .select(['slug', 'category_name', 'color_hex'])
      .orderBy('slug')
      .execute()
  ).map((c) => ({ slug: c.slug, categoryName: c.category_name, colorHex: c.color_hex }));
  return result;
}

/** blog-categories.json as content/ has it. */
export function categoriesFileText(categories: ContentCategory[]): string {
  return `${JSON.stringify(categories, null, 2)}\n`;
}

export class ExportError extends Error {}

/** What writeExport wrote (paths relative to the folder) and what it could not. */
export interface WrittenExport extends PostExport {
  folder: string;
  /** Posts whose file the sync could not read, each as the reason (the file is not left behind). */
  unreadable: string[];
}

/**
 * Writes posts/<slug>.md for every post and blog-categories.json into `folder`, a content folder
 * the sync can import. The folder must be new or empty: an export never overwrites files (and so
 * never content/ itself), and an old file left beside new ones would come back on an import.
 * Each file is read back as the sync reads it, so what is written can be imported.
 */
export async function writeExport(db: DB, folder: string): Promise<WrittenExport> {
  if (fs.existsSync(folder) && fs.readdirSync(folder).length > 0) {
    throw new ExportError(
      `${folder} is not empty: name a new or empty folder (an export never overwrites files).`,
    );
  }
  const exported = await exportPosts(db);
  const postsDir = path.join(folder, 'posts');
  fs.mkdirSync(postsDir, { recursive: true });
  fs.writeFileSync(path.join(folder, 'blog-categories.json'), categoriesFileText(exported.categories));
  const posts: ExportedPost[] = [];
  const unreadable: string[] = [];
  for (const post of exported.posts) {
    const file = path.join(postsDir, post.file);
    fs.writeFileSync(file, post.text);
    try {
      readPostFile(file);
      posts.push(post);
    } catch (error) {
      // A post the file format cannot hold (a featured image elsewhere than this site, say).
      if (!(error instanceof ContentError)) throw error;
      fs.rmSync(file);
      unreadable.push(error.message);
    }
  }
  return { ...exported, posts, unreadable, folder };
}
