import createDOMPurify from 'dompurify';
import { marked } from 'marked';
import { uploadedImageSources } from '../contract/studio.ts';
import { lazyModule } from './lazy-module.ts';

// One jsdom window for the process: creating one costs far more than sanitizing a post.
let purifier: ReturnType<typeof createDOMPurify> | undefined;
const jsdom = lazyModule<typeof import('jsdom')>('jsdom');

function getPurifier() {
  if (!purifier) {
    // Loaded on first use: jsdom is most of the start-up (1.5 s of CPU) of a command or server that
    // imports this module but never renders (a publish with nothing changed, an import, a restart).
    const { JSDOM } = jsdom();
    purifier = createDOMPurify(new JSDOM('').window as unknown as Window & typeof globalThis);
    purifier.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A' && /^https?:/i.test(node.getAttribute('href') ?? '')) {
        node.setAttribute('rel', 'noopener noreferrer');
      }
      for (const [name, allowed] of ATTRIBUTE_RULES) {
        const value = node.getAttribute(name);
        if (value !== null && !allowed(node.tagName, value)) node.removeAttribute(name);
      }
    });
  }
  return purifier;
}

// The allowlist for post bodies: text structure, links and images; no scripts, styles, forms,
// frames or SVG (docs/product.md).
const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  'b',
  'i',
  'u',
  's',
  'del',
  'blockquote',
  'code',
  'pre',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'figure',
  'figcaption',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'span',
  'sup',
  'sub',
  // An uploaded image in every width and format (bodyPictures below).
  'picture',
  'source',
];
const ALLOWED_ATTR = [
  'href',
  'title',
  'src',
  'alt',
  'width',
  'height',
  'colspan',
  'rowspan',
  'start',
  'srcset',
  'sizes',
  'type',
  'loading',
  'decoding',
];
// Attributes whose values are not addresses. The address rule (ALLOWED_URI_REGEXP) would drop
// them all: it used to drop width, height, colspan and start.
const NOT_ADDRESSES = [
  'width',
  'height',
  'colspan',
  'rowspan',
  'start',
  'sizes',
  'type',
  'loading',
  'decoding',
];

const isImageElement = (tag: string) => tag === 'IMG' || tag === 'SOURCE';
const whole = /^\d{1,5}$/;

/**
 * Where each attribute beyond text and links may appear, and what it may say. srcset may name
 * only uploaded images' addresses (its candidates would otherwise slip past the address rule,
 * which looks at the start of a value), and a <source> only says which of their formats it is.
 */
const ATTRIBUTE_RULES: [string, (tag: string, value: string) => boolean][] = [
  ['src', (tag) => tag === 'IMG'],
  ['srcset', (tag, value) => isImageElement(tag) && isUploadedSrcset(value)],
  ['sizes', (tag, value) => isImageElement(tag) && /^[a-z0-9\s().,:%-]{1,200}$/i.test(value)],
  ['type', (tag, value) => tag === 'SOURCE' && (value === 'image/avif' || value === 'image/webp')],
  ['loading', (tag, value) => tag === 'IMG' && (value === 'lazy' || value === 'eager')],
  ['decoding', (tag, value) => tag === 'IMG' && (value === 'async' || value === 'sync' || value === 'auto')],
  ['width', (_tag, value) => whole.test(value)],
  ['height', (_tag, value) => whole.test(value)],
  ['colspan', (_tag, value) => whole.test(value)],
  ['rowspan', (_tag, value) => whole.test(value)],
  ['start', (_tag, value) => whole.test(value)],
];

function isUploadedSrcset(srcset: string): boolean {
  return srcset.split(',').every((candidate) => {
    const [url, descriptor, ...rest] = candidate.trim().split(/\s+/);
    return (
      rest.length === 0 &&
      uploadedImageSources(url) !== null &&
      (descriptor === undefined || /^\d{1,5}w$/.test(descriptor))
    );
  });
}

const SANITIZE = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ADD_URI_SAFE_ATTR: NOT_ADDRESSES,
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|\/(?!\/)|#)/i,
};

export function sanitizeHtml(html: string): string {
  return getPurifier().sanitize(html, SANITIZE);
}

/** How wide a body image is shown: the post's column (max-w-3xl), or the screen on a phone. */
export const BODY_IMAGE_SIZES = '(min-width: 48rem) 48rem, 100vw';

/**
 * Each uploaded image of a body as a <picture>: AVIF where the browser takes it, else WebP, each
 * in every width, with the image's width and height so the page does not move as it loads.
 * Other images stay as they are. An image always has alt, empty when the Markdown gave none.
 */
function bodyPictures(body: HTMLElement): void {
  const document = body.ownerDocument;
  for (const img of imagesOf(body)) {
    if (!img.hasAttribute('alt')) img.setAttribute('alt', '');
    const sources = uploadedImageSources(img.getAttribute('src'));
    if (!sources || img.parentElement?.tagName === 'PICTURE') continue;
    const picture = document.createElement('picture');
    const avif = document.createElement('source');
    avif.setAttribute('type', 'image/avif');
    avif.setAttribute('srcset', sources.avifSrcset);
    avif.setAttribute('sizes', BODY_IMAGE_SIZES);
    const image = document.createElement('img');
    image.setAttribute('src', sources.src);
    image.setAttribute('srcset', sources.webpSrcset);
    image.setAttribute('sizes', BODY_IMAGE_SIZES);
    image.setAttribute('width', String(sources.width));
    image.setAttribute('height', String(sources.height));
    image.setAttribute('alt', img.getAttribute('alt') ?? '');
    const title = img.getAttribute('title');
    if (title !== null) image.setAttribute('title', title);
    image.setAttribute('loading', 'lazy');
    image.setAttribute('decoding', 'async');
    picture.append(avif, image);
    img.replaceWith(picture);
  }
}

/** Sanitized HTML as the body element that holds it (what sanitizeHtml would serialize). */
function sanitizedBody(html: string): HTMLElement {
  const body = getPurifier().sanitize(html, { ...SANITIZE, RETURN_DOM: true });
  if (!isBody(body)) throw new Error('DOMPurify returned something other than a body');
  return body;
}

const isBody = (node: Node): node is HTMLElement => node.nodeName === 'BODY';

/**
 * A body's images, found without selectors: jsdom's selector engine, on its first query in each new
 * document, adds nine listeners to the shared window that are never removed. With querySelectorAll
 * here every body made rendering slower (2 ms a post at first, 7.7 ms after 3,000; the first import
 * of 5,000 posts took 56 s) and the server's memory grew with every save.
 */
function imagesOf(body: HTMLElement): HTMLImageElement[] {
  return [...body.getElementsByTagName('img')];
}

/** Markdown source to the sanitized HTML that is stored and served. */
export function renderMarkdown(markdown: string): string {
  const body = sanitizedBody(marked.parse(markdown, { async: false, gfm: true }));
  bodyPictures(body);
  return body.innerHTML;
}

/** The images of a rendered body that have no alt text: each one's address. */
export function imagesWithoutAlt(html: string): string[] {
  const body = sanitizedBody(html);
  return imagesOf(body)
    .filter((img) => !img.getAttribute('alt')?.trim())
    .map((img) => img.getAttribute('src') ?? '');
}

const WORDS_PER_MINUTE = 200;

/** The words of a body (HTML or text): runs of text with a letter or digit, tags left out. */
export function countWords(body: string): number {
  const text = body.replace(/<[^>]*>/g, ' ');
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** Reading time from the words of a body (HTML or text): 200 words a minute, at least 1. */
export function readingTimeMinutes(body: string): number {
  return Math.max(1, Math.ceil(countWords(body) / WORDS_PER_MINUTE));
}
