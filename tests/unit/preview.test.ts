// Filling the studio's preview template (api/lib/preview.ts) with a draft: every part only some
// posts have is kept or dropped, the badges follow the post's order, every text is escaped and
// nothing put in is read as a mark. The real built template is checked end to end in
// tests/e2e/studio-preview.test.ts.
import { describe, expect, it } from 'vitest';
import {
  PREVIEW_DATE,
  PREVIEW_FIELDS as F,
  PREVIEW_POST_ID,
  PREVIEW_READING_MINUTES,
  PREVIEW_UPLOADED_IMAGE,
  previewBegin as begin,
  previewEnd as end,
} from '../../api/contract/preview.ts';
import { imageUrl, uploadedImageSources } from '../../api/contract/studio.ts';
import { fillPreview, type PreviewPost, PreviewTemplateError } from '../../api/lib/preview.ts';
import { formatLongDate } from '../../src/lib/format.ts';

const SENTINEL = uploadedImageSources(PREVIEW_UPLOADED_IMAGE)!;

const badge = (slug: string, name: string) =>
  `<li data-preview-part="category_${slug}"> <a href="/blog/category/${slug}"><span>${name}</span></a> </li>`;

/** The post page's shape as the build writes the template (src/components/PostPage.astro). */
const TEMPLATE = [
  `<html><head><title>${F.title} | Nestling blog</title>`,
  `<meta name="description" content="${begin('excerpt')}${F.excerpt}${end('excerpt')}${begin('no_excerpt')}${F.title}, on the Nestling blog.${end('no_excerpt')}">`,
  `<link rel="canonical" href="https://nestling.example/blog/${F.slug}"><meta name="robots" content="noindex"></head>`,
  `<body><ul aria-label="Categories">`,
  badge('seasonal', 'Seasonal'),
  badge('safety-health', 'Safety &amp; Health'),
  badge('diy-crafts', 'DIY Crafts'),
  `</ul><h1>${F.title}</h1>`,
  `${begin('excerpt')}<p class="excerpt">${F.excerpt}</p>${end('excerpt')}`,
  `<p>By <span>${F.authorName}</span> <time datetime="${PREVIEW_DATE}">${formatLongDate(PREVIEW_DATE)}</time>`,
  `<span>${PREVIEW_READING_MINUTES} min read</span></p>`,
  `${begin('image')}<img src="${F.featuredImageUrl}" alt="${F.featuredImageAlt}">${end('image')}`,
  `${begin('uploaded_image')}<picture class="contents"><source type="image/avif" srcSet="${SENTINEL.avifSrcset}"/>`,
  `<img src="${SENTINEL.src}" srcSet="${SENTINEL.webpSrcset}" width="${SENTINEL.width}" height="${SENTINEL.height}" alt="${F.featuredImageAlt}"/></picture>${end('uploaded_image')}`,
  `${begin('body')}<div class="prose">${F.body}</div>${end('body')}`,
  `${begin('no_body')}<section>Content Loading <dd>${PREVIEW_POST_ID}</dd><dd>${F.slug}</dd></section>${end('no_body')}`,
  `<footer><span>${F.authorInitial}</span><span>${F.authorName}</span></footer>`,
  `<a href="/_astro/index.B1vdCzhw.js">a build asset</a></body></html>`,
].join('');

const DRAFT: PreviewPost = {
  postId: 42,
  title: 'Winter coats: what fits',
  slug: 'winter-coats',
  excerpt: 'Sizes, layers and swaps.',
  authorName: 'Elena García',
  featuredImageUrl: '/images/coats.jpg',
  featuredImageAlt: 'Three coats on hooks',
  html: '<p>Layers <strong>first</strong>.</p>',
  readingTimeMinutes: 3,
  date: '2026-12-24T09:30:00.000Z',
  categories: ['diy-crafts', 'seasonal'],
};

describe("filling the preview template with a draft's latest revision", () => {
  it('puts every field where the page shows it and leaves no sentinel behind', () => {
    const html = fillPreview(TEMPLATE, DRAFT);
    expect(html).toContain('<title>Winter coats: what fits | Nestling blog</title>');
    expect(html).toContain('<h1>Winter coats: what fits</h1>');
    expect(html).toContain('<meta name="description" content="Sizes, layers and swaps.">');
    expect(html).toContain('<p class="excerpt">Sizes, layers and swaps.</p>');
    expect(html).toContain('href="https://nestling.example/blog/winter-coats"');
    expect(html).toContain('<div class="prose"><p>Layers <strong>first</strong>.</p></div>');
    expect(html).toContain('<img src="/images/coats.jpg" alt="Three coats on hooks">');
    expect(html).not.toContain('<picture');
    expect(html).toContain('<span>3 min read</span>');
    expect(html).toContain('<footer><span>E</span><span>Elena García</span></footer>');
    // The date as built pages print it.
    expect(html).toContain(
      `<time datetime="2026-12-24T09:30:00.000Z">${formatLongDate('2026-12-24T09:30:00.000Z')}</time>`,
    );
    expect(html).toContain('December 24, 2026');
    expect(html).not.toContain('Content Loading');
    expect(html).not.toMatch(/__nestling_preview|data-preview-part|2001|876543219|987654321/);
    // The build's own markup is untouched.
    expect(html).toContain('<a href="/_astro/index.B1vdCzhw.js">a build asset</a>');
  });

  it("shows the post's categories in its order, and leaves out one the live build does not have", () => {
    const html = fillPreview(TEMPLATE, { ...DRAFT, categories: ['seasonal', 'gone', 'safety-health'] });
    const list = /<ul aria-label="Categories">(.*?)<\/ul>/.exec(html)?.[1];
    expect(list).toBe(
      '<li> <a href="/blog/category/seasonal"><span>Seasonal</span></a> </li>' +
        '<li> <a href="/blog/category/safety-health"><span>Safety &amp; Health</span></a> </li>',
    );
    expect(fillPreview(TEMPLATE, { ...DRAFT, categories: [] })).toContain(
      '<ul aria-label="Categories"></ul>',
    );
  });

  it('shows an uploaded featured image as a <picture> of its own sources and size', () => {
    const url = imageUrl('abcdef123456', 1000, 750, 1000, 'webp');
    const html = fillPreview(TEMPLATE, { ...DRAFT, featuredImageUrl: url });
    const sources = uploadedImageSources(url)!;
    expect(html).toContain(`<source type="image/avif" srcSet="${sources.avifSrcset}"/>`);
    expect(html).toContain(
      `<img src="${sources.src}" srcSet="${sources.webpSrcset}" width="1000" height="750" alt="Three coats on hooks"/>`,
    );
    expect(html).not.toMatch(
      /nestlingpreview|<img src="\/api\/images\/abcdef123456-1000x750\/1000.webp" alt/,
    );
  });

  it('without an excerpt, image or body shows what the page shows then', () => {
    const html = fillPreview(TEMPLATE, { ...DRAFT, excerpt: '', featuredImageUrl: null, html: '  ' });
    expect(html).toContain(
      '<meta name="description" content="Winter coats: what fits, on the Nestling blog.">',
    );
    expect(html).not.toContain('class="excerpt"');
    expect(html).not.toMatch(/<img|<picture/);
    expect(html).not.toContain('class="prose"');
    expect(html).toContain('<section>Content Loading <dd>42</dd><dd>winter-coats</dd></section>');
  });

  it('escapes every text field, in text and in attributes alike', () => {
    const html = fillPreview(TEMPLATE, {
      ...DRAFT,
      title: '<script>alert(1)</script> & "quotes"',
      excerpt: `It's <b>bold</b>"><img src=x onerror=alert(1)>`,
      authorName: '<Mallory>',
      featuredImageUrl: '/images/a.jpg" onerror="alert(1)',
      featuredImageAlt: '"><script>',
    });
    expect(html).not.toMatch(/<script>|<b>|<img src=x|<Mallory>|" onerror=/);
    expect(html).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</h1>');
    expect(html).toContain(
      '<meta name="description" content="It&#39;s &lt;b&gt;bold&lt;/b&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">',
    );
    expect(html).toContain(
      '<img src="/images/a.jpg&quot; onerror=&quot;alert(1)" alt="&quot;&gt;&lt;script&gt;">',
    );
    expect(html).toContain('<footer><span>&lt;</span><span>&lt;Mallory&gt;</span></footer>');
  });

  it('never reads what a draft says as a mark or a sentinel', () => {
    const sly = `${F.body} ${begin('no_body')} February 3, 2001 ${PREVIEW_DATE} ${PREVIEW_POST_ID}`;
    const html = fillPreview(TEMPLATE, { ...DRAFT, title: sly, html: `<p>${sly}</p>` });
    expect(html).toContain(`<h1>${sly}</h1>`);
    expect(html).toContain(`<div class="prose"><p>${sly}</p></div>`);
    expect(html).not.toContain('Content Loading');
  });

  it('refuses a template with a mark it does not know (a build of another version)', () => {
    expect(() => fillPreview(`${TEMPLATE}__nestling_preview_subtitle__`, DRAFT)).toThrow(
      PreviewTemplateError,
    );
    expect(() => fillPreview(`${begin('banner')}x${end('banner')}${TEMPLATE}`, DRAFT)).toThrow(
      PreviewTemplateError,
    );
  });
});
