import { uploadedImageSources } from '../contract/studio.ts';
import {
  PREVIEW_DATE,
  PREVIEW_FIELDS,
  PREVIEW_MARK_PATTERN,
  PREVIEW_PART_ATTRIBUTE,
  PREVIEW_PARTS,
  PREVIEW_POST_ID,
  PREVIEW_READING_MINUTES,
  PREVIEW_UPLOADED_IMAGE,
} from '../contract/preview.ts';

// The studio's preview (docs/product.md, "The studio"): the live build's post page for a sentinel
// post, filled with a draft. The template is our own build's markup; only the draft's values are
// put in, each escaped, in one pass, so nothing in a draft is ever read as a mark.

/** What the post page shows of a draft. */
export interface PreviewPost {
  postId: number;
  title: string;
  slug: string;
  excerpt: string;
  authorName: string;
  featuredImageUrl: string | null;
  /** The featured image's description (none: an image from content/, described by the title). */
  featuredImageAlt: string | null;
  /** The body, rendered from Markdown and sanitized as the build does. */
  html: string;
  readingTimeMinutes: number;
  /** When readers will see it dated (ISO 8601). */
  date: string;
  /** Its category slugs, in its order. */
  categories: string[];
}

/** The template does not match what this server fills in (a build of another version). */
export class PreviewTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PreviewTemplateError';
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  "'": '&#39;',
  '"': '&quot;',
};

/** Text for HTML, safe in an element or a quoted attribute alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>'"]/g, (c) => ESCAPES[c]!);
}

// The day in UTC, as built pages print dates (formatLongDate in src/lib/format.ts).
const longDate = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PART = new RegExp(
  `__nestling_preview_begin_([a-z0-9_-]+?)__([\\s\\S]*?)__nestling_preview_end_\\1__`,
  'g',
);
const CATEGORY_PREFIX = PREVIEW_PARTS.category('');
// A category badge: a list item (they never nest) that names its part.
const BADGE = new RegExp(
  `<li ${PREVIEW_PART_ATTRIBUTE}="${CATEGORY_PREFIX}([a-z0-9-]+)">([\\s\\S]*?)</li>`,
  'g',
);

/** Keeps the parts of the template the post has, and its category badges in its order. */
function keepParts(template: string, post: PreviewPost): string {
  const uploaded = uploadedImageSources(post.featuredImageUrl) !== null;
  const hasBody = post.html.trim().length > 0;
  const shown: Record<string, boolean> = {
    [PREVIEW_PARTS.excerpt]: post.excerpt.length > 0,
    [PREVIEW_PARTS.noExcerpt]: post.excerpt.length === 0,
    [PREVIEW_PARTS.image]: Boolean(post.featuredImageUrl) && !uploaded,
    [PREVIEW_PARTS.uploadedImage]: uploaded,
    [PREVIEW_PARTS.body]: hasBody,
    [PREVIEW_PARTS.noBody]: !hasBody,
  };
  const kept = template.replace(PART, (_, part: string, inner: string) => {
    const keep = shown[part];
    if (keep === undefined) throw new PreviewTemplateError(`unknown part "${part}"`);
    return keep ? inner : '';
  });
  const badges = new Map<string, string>();
  for (const [, slug = '', inner = ''] of kept.matchAll(BADGE)) badges.set(slug, `<li>${inner}</li>`);
  let placed = false;
  return kept.replace(BADGE, () => {
    // The first badge's place takes the post's badges, in its order; a category the live build
    // does not have is left out, as the page leaves it out.
    if (placed) return '';
    placed = true;
    return post.categories.map((slug) => badges.get(slug) ?? '').join('');
  });
}

/**
 * The preview page: the template with the post's values in place of the sentinel post's. Throws
 * PreviewTemplateError when the template has a mark this server does not know.
 */
export function fillPreview(template: string, post: PreviewPost): string {
  const date = new Date(post.date);
  const values = new Map<string, string>([
    [PREVIEW_FIELDS.title, escapeHtml(post.title)],
    [PREVIEW_FIELDS.slug, escapeHtml(post.slug)],
    [PREVIEW_FIELDS.excerpt, escapeHtml(post.excerpt)],
    [PREVIEW_FIELDS.authorName, escapeHtml(post.authorName)],
    [PREVIEW_FIELDS.authorInitial, escapeHtml(post.authorName.charAt(0))],
    [PREVIEW_FIELDS.featuredImageUrl, escapeHtml(post.featuredImageUrl ?? '')],
    [PREVIEW_FIELDS.featuredImageAlt, escapeHtml(post.featuredImageAlt ?? '')],
    [PREVIEW_FIELDS.body, post.html],
    [String(PREVIEW_POST_ID), String(post.postId)],
    [String(PREVIEW_READING_MINUTES), String(post.readingTimeMinutes)],
    [PREVIEW_DATE, escapeHtml(date.toISOString())],
    [longDate.format(new Date(PREVIEW_DATE)), escapeHtml(longDate.format(date))],
  ]);
  // An uploaded image's sources, width and height in place of the sentinel upload's.
  const sentinelImage = uploadedImageSources(PREVIEW_UPLOADED_IMAGE)!;
  const image = uploadedImageSources(post.featuredImageUrl);
  const size = (s: { width: number; height: number }) => `width="${s.width}" height="${s.height}"`;
  if (image) {
    values.set(sentinelImage.avifSrcset, escapeHtml(image.avifSrcset));
    values.set(sentinelImage.webpSrcset, escapeHtml(image.webpSrcset));
    values.set(sentinelImage.src, escapeHtml(image.src));
    values.set(size(sentinelImage), size(image));
  }
  const sentinels = new RegExp(
    [
      // The srcsets before the src they end with.
      ...[sentinelImage.avifSrcset, sentinelImage.webpSrcset, sentinelImage.src, size(sentinelImage)].map(
        escapeRegExp,
      ),
      PREVIEW_MARK_PATTERN.source,
      ...[PREVIEW_POST_ID, PREVIEW_READING_MINUTES].map((n) => `(?<![\\w.-])${n}(?![\\w.-])`),
      escapeRegExp(PREVIEW_DATE),
      escapeRegExp(longDate.format(new Date(PREVIEW_DATE))),
    ].join('|'),
    'g',
  );
  // One pass over the template alone: what is put in is never searched again.
  return keepParts(template, post).replace(sentinels, (found) => {
    const value = values.get(found);
    if (value === undefined) throw new PreviewTemplateError(`unknown mark "${found}"`);
    return value;
  });
}
