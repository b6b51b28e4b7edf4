// The studio's part of the wire contract (docs/product.md, "The studio"): who may write and
// publish, the states a post moves through, the limits of a post and an image, and the address
// rule of uploaded images, which the server, the build and the islands all read. It imports
// nothing.

// ---- Who may do what ---------------------------------------------------------------------------

/** Authors write their own posts and submit them; editors and admins write, publish and upload. */
export function canWritePosts(role: string | null | undefined): boolean {
  return role === 'author' || role === 'editor' || role === 'admin';
}

/** Editors and admins edit any post, publish, schedule, withdraw and upload images. */
export function canPublishPosts(role: string | null | undefined): boolean {
  return role === 'editor' || role === 'admin';
}

// ---- Posts -------------------------------------------------------------------------------------

/**
 * Where a post is: `draft` (being written), `review` (an author submitted it), `scheduled`
 * (published with a time still to come), `published`, `withdrawn` (taken down; it keeps its
 * comments and counts). Stored as draft/review/published/withdrawn; `scheduled` is a published
 * post whose time has not come.
 */
export const POST_STATUSES = ['draft', 'review', 'scheduled', 'published', 'withdrawn'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export const POST_STATUS_LABELS: Record<PostStatus, string> = {
  draft: 'Draft',
  review: 'In review',
  scheduled: 'Scheduled',
  published: 'Published',
  withdrawn: 'Withdrawn',
};

export const POST_TITLE_MAX = 200;
export const POST_EXCERPT_MAX = 500;
/** A post's Markdown: about 100,000 words' worth is far more than any post needs. */
export const POST_MARKDOWN_MAX = 200_000;
/** The studio's JSON bodies carry a whole post, so they may be larger than other writes. */
export const STUDIO_MAX_BODY_BYTES = 1024 * 1024;
/** A slug: lowercase words of letters and digits joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX = 120;

/** The slug a title suggests: "Best Car Seats, 2026!" → "best-car-seats-2026". */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, '');
}

/** A row of the studio's list (GET /api/studio/posts). */
export interface StudioPostSummary {
  postId: number;
  slug: string;
  title: string;
  status: PostStatus;
  authorName: string;
  /** When its text last changed (its latest revision). */
  updatedAt: string;
  /** When it goes (or went) live; null for a post never published. */
  publishAt: string | null;
  /** Where its text lives: written in the studio, or a file in content/posts (see docs/product.md). */
  source: 'studio' | 'file';
  /** Whether its latest revision differs from what readers have (a published post edited since). */
  hasUnpublishedChanges: boolean;
}

/** The fields a studio save sends: the whole post. */
export interface StudioPostFields {
  title: string;
  slug: string;
  excerpt: string;
  markdown: string;
  categories: string[];
  kind: 'article' | 'discussion';
  featured: boolean;
  featuredImageUrl: string | null;
  /** Required when there is a featured image. */
  featuredImageAlt: string | null;
}

/** A post as the editor opens it (GET /api/studio/posts/:postId). */
export interface StudioPost extends StudioPostFields, StudioPostSummary {
  /** The Markdown rendered and sanitized exactly as the build renders it. */
  html: string;
  /** The latest revision; a save sends it back as baseRevision. */
  revision: number;
  /** The revision readers have; null when none has been published. */
  publishedRevision: number | null;
  wordCount: number;
  readingTimeMinutes: number;
  /** The uid of the author (who created it); null for a post imported from content/. */
  authorUid: string | null;
}

export interface StudioPostCreated {
  postId: number;
  slug: string;
  status: 'draft';
  revision: number;
}

export interface StudioPostSaved {
  revision: number;
  slug: string;
  updatedAt: string;
}

/** A 409 from PUT: someone saved since the editor's base revision. */
export interface StudioConflict {
  error: string;
  /** The latest revision as the server has it, so the editor can show what changed. */
  latest: StudioRevision;
}

export interface StudioPublishAnswer {
  status: 'published' | 'scheduled';
  publishAt: string;
  /** The publish run that makes it live (GET /api/admin/publish follows it). */
  releaseId: number | null;
}

export interface StudioStatusAnswer {
  status: PostStatus;
}

export interface StudioWithdrawAnswer {
  status: 'withdrawn';
  /** The publish run that takes it down (GET /api/studio/releases/:id follows it). */
  releaseId: number | null;
}

/** One saved version of a post (GET /api/studio/posts/:postId/revisions, newest first). */
export interface StudioRevision extends StudioPostFields {
  revision: number;
  savedAt: string;
  savedBy: string;
  /** Set when this revision came from a restore of an earlier one. */
  restoredFrom: number | null;
}

/** POST /api/studio/render: the live preview beside the editor. */
export interface RenderedMarkdown {
  html: string;
  wordCount: number;
  readingTimeMinutes: number;
}

// ---- Images ------------------------------------------------------------------------------------

export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;
/** The widths every upload is served in (never wider than the original). */
export const IMAGE_WIDTHS = [400, 800, 1200, 1600] as const;
const WIDEST = 1600;
export const IMAGE_FORMATS = ['avif', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export const IMAGE_ALT_MAX = 300;

/** POST /api/studio/images answers with the address to put in a post. */
export interface UploadedImage {
  url: string;
  width: number;
  height: number;
  alt: string;
}

// An uploaded image's address names its id and its size, so a page can give width, height and
// srcset without asking the server: /api/images/<id>-<width>x<height>/<w>.<format>.
const UPLOADED = /^\/api\/images\/([a-z0-9]{8,64})-(\d{1,5})x(\d{1,5})\/(\d{1,5})\.(avif|webp)$/;

/** The address of one width and format of an uploaded image. */
export function imageUrl(id: string, width: number, height: number, w: number, format: ImageFormat): string {
  return `/api/images/${id}-${width}x${height}/${w}.${format}`;
}

/** The widths an image of this width is served in. */
export function imageWidths(width: number): number[] {
  const widest = Math.min(width, WIDEST);
  const widths: number[] = IMAGE_WIDTHS.filter((w) => w < widest);
  return [...widths, widest];
}

export interface ImageSources {
  width: number;
  height: number;
  /** The fallback src (the widest WebP). */
  src: string;
  avifSrcset: string;
  webpSrcset: string;
}

/** The sources of an uploaded image's address; null for any other address (a file in public/). */
export function uploadedImageSources(url: string | null | undefined): ImageSources | null {
  const match = url ? UPLOADED.exec(url) : null;
  if (!match) return null;
  const [, id = '', w = '', h = ''] = match;
  const width = Number(w);
  const height = Number(h);
  const widths = imageWidths(width);
  const srcset = (format: ImageFormat) =>
    widths.map((each) => `${imageUrl(id, width, height, each, format)} ${each}w`).join(', ');
  return {
    width,
    height,
    src: imageUrl(id, width, height, widths[widths.length - 1]!, 'webp'),
    avifSrcset: srcset('avif'),
    webpSrcset: srcset('webp'),
  };
}
