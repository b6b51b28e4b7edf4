// The studio's preview of the real post page (docs/product.md, "The studio"). The site is static,
// so the build writes the real post page once for a sentinel post, a template at
// PREVIEW_TEMPLATE_PATH, and the API fills a draft into the live build's copy. These are the
// sentinels both sides agree on. It imports nothing.

/** Where each build writes the template, inside the build folder (never linked, noindex). */
export const PREVIEW_TEMPLATE_PATH = 'studio/preview-template/index.html';

const mark = (name: string) => `__nestling_preview_${name}__`;

/** Every mark: `__nestling_preview_<name>__`; letters, digits, _ and - survive any escaping. */
export const PREVIEW_MARK_PATTERN = /__nestling_preview_([a-z0-9_-]+?)__/;

/** The sentinel post's text fields, each a mark the API replaces with the draft's escaped text. */
export const PREVIEW_FIELDS = {
  title: mark('title'),
  slug: mark('slug'),
  excerpt: mark('excerpt'),
  authorName: mark('author'),
  /** The author's initial, which the page shows beside their name. */
  authorInitial: mark('author_initial'),
  featuredImageUrl: mark('image'),
  featuredImageAlt: mark('image_alt'),
  /** The body, as sanitized HTML. */
  body: mark('body'),
} as const;

/** Numbers the page prints as they are: the API replaces each with the draft's. */
export const PREVIEW_POST_ID = 987654321;
export const PREVIEW_READING_MINUTES = 876543219;
/**
 * The uploaded image the template's <picture> form is made for (api/contract/studio.ts, the
 * uploaded-image address rule): the API puts the draft's sources, width and height in its place.
 */
export const PREVIEW_UPLOADED_IMAGE = '/api/images/nestlingpreview0-1600x900/1600.webp';
/** The sentinel post's date, which the page prints in a datetime attribute and in words. */
export const PREVIEW_DATE = '2001-02-03T04:05:06.789Z';

/**
 * The parts of the page shown only for some posts. The template has each between its begin and
 * end marks, and the API keeps the ones the draft has: the excerpt or the description made from
 * the title, the featured image, and the body or the "Content Loading" note. The category badges
 * are list items, each with PREVIEW_PART_ATTRIBUTE naming its part: the template has every
 * category's, the draft keeps its own in its order.
 */
export const PREVIEW_PARTS = {
  excerpt: 'excerpt',
  noExcerpt: 'no_excerpt',
  /** A featured image from a file in public/: a plain <img>. */
  image: 'image',
  /** An uploaded featured image: a <picture> in every width and format. */
  uploadedImage: 'uploaded_image',
  body: 'body',
  noBody: 'no_body',
  category: (slug: string) => `category_${slug}`,
} as const;

/** The attribute that names a category badge's part in the template (never on a reader's page). */
export const PREVIEW_PART_ATTRIBUTE = 'data-preview-part';

export const previewBegin = (part: string) => mark(`begin_${part}`);
export const previewEnd = (part: string) => mark(`end_${part}`);
