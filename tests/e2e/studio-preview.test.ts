// The studio's preview with the real built template (docs/product.md, "The studio"), on the run's
// emulator-backed server (its live build is this run's): a draft written through the studio API
// comes back in the real post page, with the built page's layout and stylesheets, its own title
// and sanitized body, noindex, and without the post's islands; then, in Chromium, the preview
// screen shows it in a sandboxed frame whose stylesheet applies. The API's rules are tested in
// tests/api/studio-preview.test.ts, the filling in tests/unit/preview.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BlogCategory, PostSummary } from '../../api/contract.ts';
import { PREVIEW_TEMPLATE_PATH } from '../../api/contract/preview.ts';
import { imageUrl, type StudioPostCreated, uploadedImageSources } from '../../api/contract/studio.ts';
import { fillPreview } from '../../api/lib/preview.ts';
import { closeContexts, closePage, openPage, signInWithEmail, workerBrowser } from '../helpers/browser.ts';
import { type Person, signedUpParent } from '../helpers/e2e-people.ts';
import { setRole } from '../helpers/roles.ts';

const PASSWORD = 'correct-horse-9';
const TITLE = 'Night feeds & "dream feeds" <tips>';
let base: string;
let browser: Browser;
let editor: Person;
let postId: number;
let category: BlogCategory;

beforeAll(async () => {
  base = inject('authBaseURL');
  editor = await signedUpParent('Preview', PASSWORD);
  await setRole(editor.email, 'admin');
  category = ((await (await fetch(`${base}/api/blog/categories`)).json()) as BlogCategory[])[0]!;
  const res = await fetch(`${base}/api/studio/posts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${editor.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title: TITLE,
      excerpt: 'What helped us sleep.',
      markdown: [
        'Keep the lights **low**.',
        '',
        '<script>window.ran = 1</script><img src="/favicon.svg" alt="A nest" onerror="window.ran = 2">',
      ].join('\n'),
      categories: [category.slug],
      kind: 'article',
      featured: false,
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  postId = ((await res.json()) as StudioPostCreated).postId;
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
});

/** The stylesheets a page links to. */
const stylesheets = (html: string) =>
  [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);

describe('the preview of a draft', () => {
  it('is the real post page of the live build, with the draft in it and nothing live', async () => {
    const res = await fetch(`${base}/api/studio/posts/${postId}/preview`, {
      headers: { Authorization: `Bearer ${editor.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Robots-Tag')).toBe('noindex');
    expect(res.headers.get('Cache-Control')).toBe('private, no-store');
    const html = await res.text();

    // The layout and styles of a reader's post page.
    const [published] = (await (await fetch(`${base}/api/blog/posts`)).json()) as PostSummary[];
    const page = await (await fetch(`${base}/blog/${published!.slug}`)).text();
    expect(stylesheets(page).length).toBeGreaterThan(0);
    expect(stylesheets(html)).toEqual(stylesheets(page));
    for (const part of [
      '<nav aria-label="Main"',
      '← Back to Blog',
      'Written by',
      'Continue Reading',
      '<footer',
    ]) {
      expect(html).toContain(part);
    }
    expect(html).toMatch(/<a href="\/blog" [^>]*aria-current="page"/);

    // The draft, escaped and sanitized.
    const escaped = 'Night feeds &amp; &quot;dream feeds&quot; &lt;tips&gt;';
    expect(html).toContain(`<title>${escaped} | Nestling blog</title>`);
    expect(html).toMatch(new RegExp(`<h1 [^>]*>${escaped}</h1>`));
    expect(html).toContain('What helped us sleep.');
    expect(html).toContain(`>${category.categoryName.replace('&', '&amp;')}</span>`);
    expect(html).toContain('Keep the lights <strong>low</strong>.');
    expect(html).toMatch(/<img src="\/favicon.svg" alt="A nest"/);
    expect(html).not.toMatch(/window\.ran|onerror/);
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).not.toMatch(/__nestling_preview|data-preview-part|data-pagefind-body|2001/);
    // The post's islands are static HTML that never hydrates: no views, likes or comments on a draft.
    expect(html).not.toMatch(/component-url="[^"]*\/(PostStats|LikeButton|ShareButton|CommentsSection)\./);
    expect(html).toContain('data-testid="view-count"');
  });

  it('of a published post is its reader’s page, byte for byte, from the title to the author', async () => {
    const [post] = (await (await fetch(`${base}/api/blog/posts`)).json()) as PostSummary[];
    const page = await (await fetch(`${base}/blog/${post!.slug}`)).text();
    const res = await fetch(`${base}/api/studio/posts/${post!.postId}/preview`, {
      headers: { Authorization: `Bearer ${editor.token}` },
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    // The live parts (counts, likes, the thread) are left out: a preview has none of them.
    const parts = (of: string) => {
      const article = /<article class="mt-6"[^>]*>([\s\S]*?)<\/article>/.exec(of)?.[1] ?? '';
      return [
        /<ul class="flex flex-wrap gap-2" aria-label="Categories"[\s\S]*?<\/ul>/.exec(article)?.[0],
        /<h1 [\s\S]*?<div class="border-sand mt-4/.exec(article)?.[0],
        article.slice(article.indexOf('</header>')),
      ];
    };
    const expected = parts(page);
    expect(expected.every((part) => part && part.length > 50)).toBe(true);
    expect(parts(html)).toEqual(expected);
  });

  it('fills the built template’s image in the form the draft’s image has', () => {
    const template = fs.readFileSync(path.join(inject('builtSites').auth, PREVIEW_TEMPLATE_PATH), 'utf8');
    const draft = {
      postId: 7,
      title: 'T',
      slug: 't',
      excerpt: '',
      authorName: 'A',
      featuredImageAlt: 'A cot',
      html: '<p>x</p>',
      readingTimeMinutes: 1,
      date: '2026-12-01T00:00:00.000Z',
      categories: [],
    };
    const uploaded = imageUrl('abcdef123456', 1000, 750, 1000, 'webp');
    const sources = uploadedImageSources(uploaded)!;
    const withUpload = fillPreview(template, { ...draft, featuredImageUrl: uploaded });
    expect(withUpload).toContain(`<source type="image/avif" srcSet="${sources.avifSrcset}"`);
    expect(withUpload).toMatch(
      new RegExp(
        `<img src="${sources.src}" srcSet="${sources.webpSrcset}" [^>]*width="1000" height="750" alt="A cot"`,
      ),
    );
    const withFile = fillPreview(template, { ...draft, featuredImageUrl: '/images/posts/cot.svg' });
    expect(withFile).toMatch(/<img src="\/images\/posts\/cot.svg" width="800" height="450" alt="A cot"/);
    expect(withFile).not.toContain('<picture');
    for (const filled of [withUpload, withFile])
      expect(filled).not.toMatch(/nestlingpreview|__nestling_preview/);
  });

  it('shows in the studio’s preview screen, styled, in a frame that runs no script', async () => {
    const page = await openPage(browser);
    await page.goto(`${base}/studio/preview/?post=${postId}`);
    await signInWithEmail(page, editor.email, PASSWORD);
    // The bar once the account (and its role) is known.
    await page.getByText('Preview: readers don’t see this until it’s published').waitFor();
    expect(await page.getByRole('link', { name: 'Back to the editor' }).getAttribute('href')).toBe(
      `/studio/edit/?post=${postId}`,
    );
    const frame = page.locator('iframe');
    await frame.waitFor();
    expect(await frame.getAttribute('title')).toBeTruthy();
    expect(await frame.getAttribute('sandbox')).not.toContain('allow-scripts');
    const heading = page.frameLocator('iframe').getByRole('heading', { level: 1 });
    expect(await heading.textContent()).toBe(TITLE);
    // The site's stylesheet applies inside the frame (font-extrabold), under the page's CSP.
    expect(await heading.evaluate((h) => getComputedStyle(h).fontWeight)).toBe('800');
    const image = page.frameLocator('iframe').getByRole('img', { name: 'A nest' });
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    // A phone's width.
    await page.getByLabel('Phone').check();
    expect(await frame.evaluate((f) => f.getBoundingClientRect().width)).toBe(390);
    await closePage(page);
  });
});
