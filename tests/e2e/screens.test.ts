// Every screen the product has in Chromium, against the site and API served by `npm start`.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { HERO_ADVANCE_MS } from '../../src/config.ts';
import {
  closeContexts,
  expectNoAxeViolations,
  PagePool,
  waitForIsland,
  workerBrowser,
} from '../helpers/browser.ts';

interface Post {
  postId: number;
  slug: string;
  title: string;
  content: string;
  authorName: string;
  isFeatured: boolean;
  relatedCategories: string[];
  readingTimeMinutes: number;
}
interface Item {
  itemId: string;
  category: string;
  itemName: string;
}

let browser: Browser;
/** The file's signed-out pages, which its loads reuse: see open(). */
let pages: PagePool;
/** The page the last open() loaded. */
let current: Page | undefined;
let base: string;
let posts: Post[];
const TIMEOUT = 15_000;

beforeAll(async () => {
  base = inject('baseURL');
  browser = await workerBrowser();
  posts = (await (await fetch(`${base}/api/blog/posts`)).json()) as Post[];
  pages = new PagePool(browser, TIMEOUT, { reducedMotion: 'no-preference' });
});
afterEach(async () => {
  // A post records its view a second after it loads: never during the next test.
  if (current && /\/blog\/[^/]+$/.test(new URL(current.url()).pathname))
    await current.goto(`${base}/favicon.svg`);
});
afterAll(async () => {
  await closeContexts(browser);
});

/**
 * Loads the path in a page of the file's: these screens are read signed out and store nothing, so a
 * passed test's page serves the next. Closing it fails the test on any uncaught error of the page.
 */
async function open(path: string) {
  const page = await pages.take();
  current = page;
  const response = await page.goto(`${base}${path}`);
  return { page, response, close: async () => pages.giveBack(page) };
}

/** The JavaScript files a page loads before any interaction. */
function scriptRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') urls.push(r.url());
  });
  return urls;
}

describe('home', () => {
  it('shows the navigation, categories with items, featured finds, community hub and stats', async () => {
    const { page, close } = await open('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const shop = nav.getByRole('link', { name: /^Shop/ });
    expect(await shop.getAttribute('target')).toBe('_blank');
    await shop.hover();
    await expect
      .poll(() => page.getByRole('tooltip', { name: 'Best viewed on mobile browser' }).first().isVisible())
      .toBe(true);
    expect(await nav.getByRole('link', { name: 'Community' }).getAttribute('href')).toBe('/blog');
    expect(await nav.getByRole('link', { name: 'About' }).getAttribute('href')).toBe('/#about');

    const counts = (await (await fetch(`${base}/api/items/categories`)).json()) as Record<string, number>;
    const tiles = page.locator('#categories li button');
    await expect.poll(() => tiles.count()).toBe(Object.values(counts).filter((n) => n > 0).length);
    await expect.poll(() => page.locator('#categories').textContent()).not.toContain('Health & Safety');
    expect(await page.locator('#categories').textContent()).toMatch(/\d+ items/);

    const featured = page.locator('#featured li article');
    expect(await featured.count()).toBe(4);
    expect(await featured.first().textContent()).toMatch(/\$\d+\.\d{2}/);

    const hub = page.locator('#community li');
    expect(await hub.count()).toBe(3);
    expect(await hub.first().getByRole('link').getAttribute('href')).toBe(`/blog/${posts[0]!.slug}`);
    expect(await hub.first().textContent()).toMatch(/Discussion|Article/);

    const stats = await page.getByRole('region', { name: 'Nestling in numbers' }).textContent();
    const items = (await (await fetch(`${base}/api/items`)).json()) as Item[];
    // Parents whose email address is verified, as the build counted them (docs/product.md, "Favourites and alerts").
    expect(stats).toMatch(/Verified Parents\s*\d[\d,]*/);
    expect(stats).toMatch(new RegExp(`Items Available\\s*${items.length}`));
    expect(stats).toMatch(new RegExp(`Community Posts\\s*${posts.length}`));
    expect(stats).toMatch(/Sustainable Impact\s*100%/);
    await close();
  });

  it('filters Featured Finds by a category tile and clears the filter, by keyboard', async () => {
    const { page, close } = await open('/');
    const items = (await (await fetch(`${base}/api/items`)).json()) as Item[];
    const toys = items.filter((i) => i.category === 'toys').slice(0, 8);
    const tile = page.locator('#categories button', { hasText: 'Toys & Games' });
    await tile.scrollIntoViewIfNeeded();
    await waitForIsland(page, 'CategoryFilter');
    await tile.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('#featured li article h3').allTextContents())
      .toEqual(toys.map((i) => `${i.itemName} (opens the marketplace in a new tab)`));
    expect(await tile.getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Clear Filter' }).click();
    await expect.poll(() => page.locator('#featured li article').count()).toBe(4);
    expect(await page.getByRole('button', { name: 'Clear Filter' }).count()).toBe(0);
    await close();
  });

  it.each([360, 375, 430])(
    'shows two item cards a row on a %i px phone, filtered too, without scrolling sideways',
    async (width) => {
      // A page at the phone's size from the first load, as a context of that size would be.
      const page = await pages.take({ width, height: 800 });
      current = page;
      await phoneRows(page, width);
      pages.giveBack(page);
    },
  );

  /** Two item cards a row at the page's width, filtered too, without scrolling sideways. */
  async function phoneRows(page: Page, width: number) {
    await page.goto(`${base}/`);
    const cards = page.locator('#featured li article');
    const rows = async () => {
      // Measured in one go: boxes read one by one could straddle a late layout change above them.
      const boxes = await cards.evaluateAll((articles) =>
        articles.map((article) => {
          const { x, y, width, height } = article.getBoundingClientRect();
          return { x, y, width, height };
        }),
      );
      const [first, second, third] = boxes;
      // Side by side on one row, both wider than a thumbnail, and the third on the next row.
      expect(second!.y).toBe(first!.y);
      expect(second!.x).toBeGreaterThan(first!.x + first!.width);
      expect(first!.width).toBeGreaterThan(140);
      expect(third!.x).toBe(first!.x);
      expect(third!.y).toBeGreaterThan(first!.y + first!.height);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      // The price and the rating fit inside their card.
      const card = first!;
      for (const text of [/^\$\d+\.\d{2}$/, /^4\.8/]) {
        const box = (await cards.first().getByText(text).first().boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(card.x + card.width);
      }
    };
    expect(await cards.count()).toBe(4);
    await rows();
    const tile = page.locator('#categories button', { hasText: 'Toys & Games' });
    await tile.scrollIntoViewIfNeeded();
    await waitForIsland(page, 'CategoryFilter');
    await tile.click();
    await expect.poll(() => page.getByRole('button', { name: 'Clear Filter' }).count()).toBe(1);
    await expect.poll(() => cards.count()).toBeGreaterThan(2);
    await rows();
  }

  it('advances the hero every 10 seconds, pauses while hovered, and follows the dots', async () => {
    const context = await browser.newContext({ reducedMotion: 'no-preference' });
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(`${base}/`);
    const slide = (n: number) => page.getByRole('group', { name: `${n} of 3` });
    await expect.poll(() => slide(1).isVisible()).toBe(true);
    await waitForIsland(page, 'HeroCarousel');
    // Hydrated is not yet running: the timer starts once the island knows the motion preference.
    await page.locator('[data-autoplay="on"]').waitFor();
    await page.clock.runFor(HERO_ADVANCE_MS);
    await expect.poll(() => slide(2).isVisible()).toBe(true);
    // The page keeps its heading while the first slide is hidden.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('buy, sell and trade');
    await page.clock.runFor(HERO_ADVANCE_MS);
    await expect.poll(() => slide(3).isVisible()).toBe(true);
    await page.clock.runFor(HERO_ADVANCE_MS);
    await expect.poll(() => slide(1).isVisible()).toBe(true);
    expect(
      await slide(1)
        .getByRole('link', { name: /Start Shopping/ })
        .count(),
    ).toBe(1);
    expect(
      await slide(1)
        .getByRole('link', { name: /List an Item/ })
        .count(),
    ).toBe(1);

    await page.getByRole('region', { name: 'Highlights' }).hover();
    await page.locator('[data-autoplay="off"]').waitFor();
    await page.clock.runFor(HERO_ADVANCE_MS * 2);
    expect(await slide(1).isVisible()).toBe(true);
    await page.mouse.move(0, 0);

    await page.getByRole('button', { name: /Show slide 2/ }).click();
    await expect.poll(() => slide(2).isVisible()).toBe(true);
    expect(await slide(2).getByRole('link').getAttribute('href')).toBe('/safety');
    await page.getByRole('button', { name: /Show slide 3/ }).click();
    expect(await slide(3).getByRole('link').getAttribute('href')).toBe('/blog');
    await context.close();
  });

  it('does not auto-advance under prefers-reduced-motion', async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(`${base}/`);
    await waitForIsland(page, 'HeroCarousel');
    // Half a second on the page's clock (with motion allowed it would be 'on' by now).
    await page.clock.runFor(500);
    expect(await page.locator('[data-autoplay]').getAttribute('data-autoplay')).toBe('off');
    await page.clock.runFor(HERO_ADVANCE_MS * 3);
    expect(await page.getByRole('group', { name: '1 of 3' }).isVisible()).toBe(true);
    await context.close();
  });
});

describe('blog list', () => {
  it('shows the title, RSS card, featured article and the first page of ten in the static HTML', async () => {
    const html = await (await fetch(`${base}/blog`)).text();
    expect(html).toContain('Nestling blog');
    expect(html).toContain('Showing 1-10 of');
    const { page, close } = await open('/blog');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Nestling blog');
    expect(await page.getByRole('link', { name: '← Back to Home' }).getAttribute('href')).toBe('/');
    expect(
      await page
        .getByRole('main')
        .getByRole('link', { name: /RSS Feed/ })
        .getAttribute('href'),
    ).toBe('/rss.xml');
    const featured = posts.find((p) => p.isFeatured)!;
    expect(await page.locator('section[aria-labelledby="featured-article"] h3').textContent()).toBe(
      featured.title,
    );
    const rest = posts.filter((p) => p !== featured);
    expect(await page.getByText(`Showing 1-10 of ${rest.length} posts`).count()).toBe(1);
    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(`${base}/blog/page/2#latest-articles`);
    expect(await page.getByText(`Showing 11-20 of ${rest.length} posts`).count()).toBe(1);
    expect(await page.locator('#latest-articles ~ ul li h3').first().textContent()).toBe(rest[10]!.title);
    await page.locator('#latest-articles ~ ul li h3 a').first().click();
    await page.waitForURL(`${base}/blog/${rest[10]!.slug}`);
    await close();
  });

  it('ships no island of its own: the filter and pages are links', async () => {
    const { page, close } = await open('/blog');
    expect(await page.locator('astro-island[component-url*="BlogList"]').count()).toBe(0);
    const filters = page.getByRole('navigation', { name: 'Filter posts by category' }).getByRole('link');
    const categories = (await (await fetch(`${base}/api/blog/categories`)).json()) as { slug: string }[];
    expect(await filters.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '/blog',
      ...categories.map((c) => `/blog/category/${c.slug}`),
    ]);
    await close();
  });
});

describe('blog post', () => {
  it('shows everything of the post and counts the view after a second', async () => {
    const post = posts.find((p) => p.content.length > 0 && p.relatedCategories.length > 0)!;
    const before = (
      (await (await fetch(`${base}/api/blog/posts/${post.slug}`)).json()) as { viewCount: number }
    ).viewCount;
    const { page, close } = await open(`/blog/${post.slug}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(post.title);
    expect(await page.getByText(`${post.readingTimeMinutes} min read`).count()).toBe(1);
    expect(await page.getByRole('link', { name: '← Back to Blog' }).getAttribute('href')).toBe('/blog');
    expect(
      await page.getByRole('list', { name: 'Categories' }).getByRole('link').first().getAttribute('href'),
    ).toBe(`/blog/category/${post.relatedCategories[0]}`);
    expect(await page.getByRole('button', { name: 'Share' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Continue Reading' }).count()).toBe(1);
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${base}/api/blog/posts/${post.slug}`)).json()) as { viewCount: number })
            .viewCount,
        { timeout: 5_000 },
      )
      .toBe(before + 1);
    await expect
      .poll(() => page.getByTestId('view-count').textContent(), { timeout: 5_000 })
      .toBe(`${before + 1} views`);
    await close();
  });

  it('shares by copying the link when the browser has no share sheet, and confirms it', async () => {
    const post = posts[1]!;
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await page.goto(`${base}/blog/${post.slug}`);
    await waitForIsland(page, 'ShareButton');
    // Headless Chromium on Linux has no Web Share API; make sure, so the fallback is what runs.
    expect(await page.evaluate(() => typeof navigator.share)).toBe('undefined');
    await page.getByRole('button', { name: 'Share' }).click();
    await expect.poll(() => page.getByText('Link copied').count(), { timeout: 5_000 }).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}/blog/${post.slug}`);
    await context.close();
  });

  it("shows the 'Content Loading' panel for an empty body", async () => {
    const post = posts.find((p) => p.content === '')!;
    const { page, close } = await open(`/blog/${post.slug}`);
    const panel = page.getByRole('region', { name: 'Content Loading' });
    const text = await panel.textContent();
    expect(text).toContain(String(post.postId));
    expect(text).toContain(post.slug);
    expect(text).toContain('false');
    await close();
  });

  it("answers an unknown slug with 'Post Not Found' and a 404", async () => {
    const { page, response, close } = await open('/blog/no-such-post');
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { name: 'Post Not Found' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Return to Blog' }).getAttribute('href')).toBe('/blog');
    await close();
  });
});

describe('other screens', () => {
  it.each([
    ['/privacy-policy', 'Privacy Policy'],
    ['/terms', 'Terms of Service'],
    ['/safety', "Your Family's Safety is Our Priority"],
    ['/confirmation', 'Thank You for Signing Up!'],
    ['/delete-account', 'Account Deletion Request'],
  ])('%s shows its heading', async (path, heading) => {
    const { page, response, close } = await open(path);
    expect(response?.status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(heading);
    await close();
  });

  it('offers the first-party deletion form, and loads no provider script, when the provider is not configured', async () => {
    const html = await (await fetch(`${base}/delete-account`)).text();
    expect(html).not.toContain('mailerlite');
    expect(html).toContain(
      'JavaScript is required for this form. Please enable JavaScript or email us directly at',
    );
    const { page, close } = await open('/delete-account');
    await page.getByLabel('Email address of the account').scrollIntoViewIfNeeded();
    await waitForIsland(page, 'DeletionRequestForm');
    await page.getByLabel('Email address of the account').fill('leaving.parent@example.com');
    await page.getByLabel(/deleting my account is permanent/).check();
    await page.getByRole('button', { name: 'Request Account Deletion' }).click();
    expect(await page.getByRole('status').textContent()).toContain('within 30 days');
    await close();
  });

  it('gives unknown paths the not-found screen with a 404', async () => {
    const { page, response, close } = await open('/no/such/page');
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { name: '404 Page Not Found' }).count()).toBe(1);
    expect(await page.getByText('Did you forget to add the page to the router?').count()).toBe(1);
    await close();
  });

  it('redirects /privacy to the privacy policy', async () => {
    const res = await fetch(`${base}/privacy`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/privacy-policy');
  });

  it('has privacy-policy sections numbered 1 to 13 with the published dates, ages and retention', async () => {
    const { page, close } = await open('/privacy-policy');
    const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
    expect(headings.filter((h) => /^\d+\./.test(h.trim())).map((h) => Number.parseInt(h, 10))).toEqual(
      Array.from({ length: 13 }, (_, i) => i + 1),
    );
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('January 6, 2025');
    expect(text).toMatch(/18/);
    expect(text).toMatch(/under 13/);
    expect(text).toMatch(/3 years/);
    expect(text).toMatch(/7 years/);
    expect(text).toMatch(/2 years/);
    await close();
  });

  it('lists the safety sections in order, with real privacy and terms links', async () => {
    const { page, close } = await open('/safety');
    const headings = (await page.getByRole('heading', { level: 2 }).allTextContents()).map((h) => h.trim());
    const expected = [
      'How We Keep You Safe',
      'Trust Badge System',
      'Every Listing is Checked Before It is Shown',
      'Safe Trading Guidelines',
      'Report Safety Concerns',
      'Your Privacy Matters',
      'Trade with Confidence',
    ];
    expect(headings.filter((h) => expected.includes(h))).toEqual(expected);
    expect(await page.locator('a[href="/privacy-policy"]').count()).toBeGreaterThan(0);
    expect(await page.locator('a[href="/terms"]').count()).toBeGreaterThan(0);
    await close();
  });
});

describe('weight, links and accessibility', () => {
  // A page of their own, which loads only these: no request of another test's page can be counted.
  let bare: Page;
  beforeAll(async () => {
    bare = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    await bare.context().close();
  });

  it.each(['/safety', '/privacy-policy', '/terms', '/confirmation', '/no-such-page', '/blog/no-such-post'])(
    '%s ships no JavaScript',
    async (path) => {
      const scripts = scriptRequests(bare);
      await bare.goto(`${base}${path}`, { waitUntil: 'networkidle' });
      expect(scripts).toEqual([]);
      expect(await bare.locator('script').count()).toBe(0);
    },
  );

  it('every internal link on every top-level page goes somewhere real', async () => {
    const pages = [
      '/',
      '/blog',
      '/blog/page/2',
      '/blog/category/safety-health',
      `/blog/${posts[0]!.slug}`,
      '/safety',
      '/privacy-policy',
      '/terms',
      '/delete-account',
      '/account',
    ];
    const seen = new Set<string>();
    for (const path of pages) {
      const html = await (await fetch(`${base}${path}`)).text();
      for (const [, href] of html.matchAll(/href="(\/[^"#]*)/g)) seen.add(href!);
    }
    for (const href of seen) {
      const res = await fetch(`${base}${href}`, { redirect: 'manual' });
      expect([200, 301], href).toContain(res.status);
    }
  });

  it.each([
    '/',
    '/blog',
    'post',
    'empty-post',
    '/safety',
    '/privacy-policy',
    '/terms',
    '/confirmation',
    '/delete-account',
    '/account',
    '/email/confirm',
    '/email/unsubscribe?token=0&scope=all',
    '/no-such-page',
    '/blog/no-such-post',
  ])('axe finds no violations on %s', async (which) => {
    const path =
      which === 'post'
        ? `/blog/${posts[0]!.slug}`
        : which === 'empty-post'
          ? `/blog/${posts.find((p) => p.content === '')!.slug}`
          : which;
    const { page, close } = await open(path);
    await page.waitForLoadState('networkidle');
    await expectNoAxeViolations(page);
    await close();
  });

  it('has a title, description, canonical URL and Open Graph tags on every page', async () => {
    for (const path of [
      '/',
      '/blog',
      '/blog/page/2',
      '/blog/category/safety-health',
      `/blog/${posts[0]!.slug}`,
      '/safety',
      '/privacy-policy',
      '/terms',
      '/confirmation',
      '/delete-account',
    ]) {
      const html = await (await fetch(`${base}${path}`)).text();
      expect(html, path).toMatch(/<title>[^<]+<\/title>/);
      expect(html, path).toMatch(/<meta name="description" content="[^"]+"/);
      expect(html, path).toMatch(/<link rel="canonical" href="http[^"]+"/);
      expect(html, path).toMatch(/<meta property="og:title" content="[^"]+"/);
      expect(html, path).toContain('type="application/rss+xml"');
      expect(html, path).toContain('rel="icon"');
    }
  });
});

describe('feeds', () => {
  it('rss.xml carries every published post with absolute links, content, author and categories', async () => {
    const res = await fetch(`${base}/rss.xml`);
    expect(res.headers.get('content-type')).toMatch(/xml/);
    const xml = await res.text();
    const { page, close } = await open('/');
    // Parse with the browser's own XML parser.
    const parsed = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, 'application/xml');
      if (doc.querySelector('parsererror')) throw new Error('rss.xml is not well-formed XML');
      return [...doc.querySelectorAll('item')].map((item) => ({
        title: item.querySelector('title')?.textContent ?? '',
        link: item.querySelector('link')?.textContent ?? '',
        creator: item.getElementsByTagName('dc:creator')[0]?.textContent ?? '',
        content: item.getElementsByTagName('content:encoded')[0]?.textContent ?? '',
        categories: [...item.querySelectorAll('category')].map((c) => c.textContent),
        pubDate: item.querySelector('pubDate')?.textContent ?? '',
      }));
    }, xml);
    await close();
    expect(parsed.map((i) => i.title)).toEqual(posts.map((p) => p.title));
    for (const [i, item] of parsed.entries()) {
      const post = posts[i]!;
      expect(item.link).toMatch(new RegExp(`^https?://[^/]+/blog/${post.slug}$`));
      expect(item.creator).toBe(post.authorName);
      expect(item.categories).toHaveLength(post.relatedCategories.length);
      expect(Number.isNaN(Date.parse(item.pubDate))).toBe(false);
      if (post.content) expect(item.content.length).toBeGreaterThan(0);
    }
  });

  it('has a sitemap listing the posts but not the not-found or thank-you pages', async () => {
    const index = await (await fetch(`${base}/sitemap-index.xml`)).text();
    const sitemapUrl = /<loc>([^<]+)<\/loc>/.exec(index)![1]!;
    const sitemap = await (await fetch(`${base}${new URL(sitemapUrl).pathname}`)).text();
    for (const post of posts) expect(sitemap).toContain(`/blog/${post.slug}`);
    expect(sitemap).not.toContain('/404');
    expect(sitemap).not.toContain('/confirmation');
  });
});
