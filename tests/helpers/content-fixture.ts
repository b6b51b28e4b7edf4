import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../../scripts/lib/temp.ts';

export interface FixturePost {
  slug: string;
  title?: string;
  publishedAt?: string;
  categories?: string[];
  featured?: boolean;
  kind?: 'article' | 'discussion';
  draft?: boolean;
  body?: string;
  /** Defaults to /images/posts/<slug>.svg; null leaves the post without one. */
  featuredImage?: string | null;
  extra?: string;
}

/** Writes one post file in the editors' format. */
export function writePost(dir: string, post: FixturePost): string {
  const lines = [
    '---',
    `title: ${JSON.stringify(post.title ?? `Post ${post.slug}`)}`,
    `slug: ${post.slug}`,
    `excerpt: "Excerpt of ${post.slug}"`,
    'author: "Test Author"',
    `publishedAt: ${post.publishedAt ?? '2026-01-01T00:00:00Z'}`,
    `categories: [${(post.categories ?? ['news']).join(', ')}]`,
    `featured: ${post.featured ?? false}`,
    `kind: ${post.kind ?? 'article'}`,
    ...(post.featuredImage === null
      ? []
      : [`featuredImage: ${post.featuredImage ?? `/images/posts/${post.slug}.svg`}`]),
    ...(post.draft ? ['draft: true'] : []),
    ...(post.extra ? [post.extra] : []),
    '---',
    '',
    post.body ?? `Body of ${post.slug}.`,
    '',
  ];
  const file = path.join(dir, 'posts', `${post.slug}.md`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.join('\n'));
  return file;
}

/** A small content folder of our own, for tests that change content. */
export function createContentDir(posts: FixturePost[]): string {
  const dir = tempDir('nestling-content-');
  fs.writeFileSync(
    path.join(dir, 'blog-categories.json'),
    JSON.stringify([
      { slug: 'news', categoryName: 'News', colorHex: null },
      { slug: 'tips', categoryName: 'Tips', colorHex: '#123456' },
    ]),
  );
  fs.writeFileSync(path.join(dir, 'items.json'), '[]');
  fs.mkdirSync(path.join(dir, 'posts'), { recursive: true });
  for (const post of posts) writePost(dir, post);
  return dir;
}
