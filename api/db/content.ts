import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type matter from 'gray-matter';
import { z } from 'zod';
import { lazyModule } from '../lib/lazy-module.ts';
import { listingSchema, type ParsedListing } from '../screening/listing-input.ts';

// Reads and validates the editors' content folder. Every error names the file it came from.

// gray-matter is required with the first post read: a start over an existing database reads none.
const grayMatter = lazyModule<typeof import('gray-matter')>('gray-matter');

const slugSchema = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a kebab-case slug');
const dateSchema = z
  .union([z.date(), z.iso.datetime({ offset: true })])
  .transform((d) => new Date(d).toISOString());

export const postFrontmatterSchema = z.object({
  title: z.string().trim().min(1),
  slug: slugSchema,
  excerpt: z.string().default(''),
  author: z.string().trim().min(1),
  publishedAt: dateSchema,
  categories: z.array(slugSchema).default([]),
  featured: z.boolean().default(false),
  kind: z.enum(['article', 'discussion']).default('article'),
  featuredImage: z.string().startsWith('/').nullable().default(null),
  /** What the featured image shows, for readers who cannot see it (the studio requires it). */
  featuredImageAlt: z.string().nullable().default(null),
  views: z.number().int().min(0).default(0),
  draft: z.boolean().default(false),
});

export interface ContentPost extends z.infer<typeof postFrontmatterSchema> {
  body: string;
  file: string;
  hash: string;
}

/** content/items.json: sample listings, read as the marketplace's are (api/screening/listing-input.ts). */
export type ContentItem = ParsedListing;

export const blogCategorySchema = z.object({
  slug: slugSchema,
  categoryName: z.string().min(1),
  colorHex: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .nullable()
    .default(null),
});
export type ContentCategory = z.infer<typeof blogCategorySchema>;

const seedReplySchema = z.object({
  authorName: z.string().min(1),
  authorAvatarUrl: z.string().nullable().default(null),
  content: z.string().min(1),
  createdAt: dateSchema,
  likes: z.number().int().min(0).default(0),
});
export const seedCommentSchema = seedReplySchema.extend({
  postSlug: slugSchema,
  replies: z.array(seedReplySchema).default([]),
});
export type ContentComment = z.infer<typeof seedCommentSchema>;

export interface Content {
  posts: ContentPost[];
  items: ContentItem[];
  categories: ContentCategory[];
  comments: ContentComment[];
}

export class ContentError extends Error {}

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

function readJson<T>(file: string, schema: z.ZodType<T>): T[] {
  if (!fs.existsSync(file)) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ContentError(`${file}: invalid JSON (${(error as Error).message})`);
  }
  const result = z.array(schema).safeParse(raw);
  if (!result.success) throw new ContentError(`${file}: ${describe(result.error)}`);
  return result.data;
}

export function readPostFile(file: string): ContentPost {
  const source = fs.readFileSync(file, 'utf8');
  let parsed: matter.GrayMatterFile<string>;
  try {
    const matter = grayMatter();
    // gray-matter caches by source text; pass a fresh options object to read every file anew.
    parsed = matter(source, {});
  } catch (error) {
    throw new ContentError(`${file}: invalid frontmatter (${(error as Error).message})`);
  }
  const result = postFrontmatterSchema.safeParse(parsed.data);
  if (!result.success) throw new ContentError(`${file}: ${describe(result.error)}`);
  const expected = path.basename(file, '.md');
  if (result.data.slug !== expected) {
    throw new ContentError(`${file}: slug "${result.data.slug}" must match the file name "${expected}"`);
  }
  const hash = crypto.createHash('sha256').update(source).digest('hex');
  return { ...result.data, body: parsed.content.trim(), file, hash };
}

/** Loads content/: posts/*.md, items.json, blog-categories.json, comments.json. */
export function loadContent(dir: string): Content {
  const postsDir = path.join(dir, 'posts');
  const files = fs.existsSync(postsDir)
    ? fs
        .readdirSync(postsDir)
        .filter((f) => f.endsWith('.md'))
        .sort()
    : [];
  const posts = files.map((f) => readPostFile(path.join(postsDir, f)));
  return {
    posts,
    items: readJson(path.join(dir, 'items.json'), listingSchema),
    categories: readJson(path.join(dir, 'blog-categories.json'), blogCategorySchema),
    comments: readJson(path.join(dir, 'comments.json'), seedCommentSchema),
  };
}
