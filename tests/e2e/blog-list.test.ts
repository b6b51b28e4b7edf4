// The blog list in Chromium against the site and API served by `npm start`: every category and
// page is its own static page that reads without JavaScript, the filter and the pages are links,
// and the old /blog?category=&page= addresses forward to the static pages.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BLOG_PAGE_SIZE, SITE_NAME } from '../../src/config.ts';
import {
  closeContexts,
  closePage,
  expectNoAxeViolations,
  openPage,
  PagePool,
  workerBrowser,
} from '../helpers/browser.ts';

interface Post {
  slug: string;
  title: string;
  isFeatured: boolean;
  relatedCategories: string[];
}
interface Category {
  slug: string;
  categoryName: string;
}

let browser: Browser;
/** The file's pages with JavaScript and without, which its loads reuse: see reused(). */
let withScript: PagePool;
let withoutScript: PagePool;
let base: string;
let posts: Post[];
let categories: Category[];
const TIMEOUT = 15_000;

beforeAll(async () => {
  base = inject('baseURL');
  browser = await workerBrowser();
  posts = (await (await fetch(`${base}/api/blog/posts`)).json()) as Post[];
  categories = (await (await fetch(`${base}/api/blog/categories`)).json()) as Category[];
  withScript = new PagePool(browser, TIMEOUT);
  withoutScript = new PagePool(browser, TIMEOUT, { javaScriptEnabled: false });
});
afterAll(async () => {
  await closeContexts(browser);
});

/** A page in a fresh context; closing it fails the test on any uncaught error. */
async function newPage() {
  const page = await openPage(browser, TIMEOUT);
  return { page, close: () => closePage(page) };
}

/** A page with or without JavaScript for a test that loads lists signed out and keeps nothing. */
async function reused(javaScript = true) {
  const pool = javaScript ? withScript : withoutScript;
  const page = await pool.take();
  return { page, close: async () => pool.giveBack(page) };
}

/** What the list should show, worked out from the API's posts (docs/product.md, "Blog list"). */
function expected(category: string | null, page: number) {
  const inCategory = category ? posts.filter((p) => p.relatedCategories.includes(category)) : posts;
  const featured = inCategory.find((p) => p.isFeatured) ?? null;
  const rest = inCategory.filter((p) => p !== featured);
  const start = (page - 1) * BLOG_PAGE_SIZE;
  const shown = rest.slice(start, start + BLOG_PAGE_SIZE);
  return {
    featured,
    titles: shown.map((p) => p.title),
    showing: `Showing ${start + 1}-${start + shown.length} of ${rest.length} posts`,
    pageCount: Math.max(1, Math.ceil(rest.length / BLOG_PAGE_SIZE)),
  };
}

const cardTitles = (page: Page) => page.locator('#latest-articles ~ ul li h3').allTextContents();
const filterLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Filter posts by category' }).getByRole('link', { name, exact: true });
const skeletonVisible = (page: Page) => page.getByTestId('post-skeleton').first().isVisible();
const categoryName = (slug: string) => categories.find((c) => c.slug === slug)!.categoryName;

describe('the blog list pages', () => {
  it.each([
    ['with', true],
    ['without', false],
  ])('show the right posts, title and canonical address %s JavaScript', async (_, javaScript) => {
    const lastPage = expected(null, 1).pageCount;
    expect(lastPage).toBeGreaterThan(1);
    const cases: [string, string | null, number, string][] = [
      ['/blog', null, 1, `${SITE_NAME} blog`],
      ['/blog/page/2', null, 2, `Page 2 | ${SITE_NAME} blog`],
      [`/blog/page/${lastPage}`, null, lastPage, `Page ${lastPage} | ${SITE_NAME} blog`],
      ['/blog/category/safety-health', 'safety-health', 1, `Safety & Health | ${SITE_NAME} blog`],
      ['/blog/category/marketplace', 'marketplace', 1, `${categoryName('marketplace')} | ${SITE_NAME} blog`],
    ];
    const { page, close } = await reused(javaScript);
    for (const [path, category, n, title] of cases) {
      const response = await page.goto(`${base}${path}`);
      expect(response?.status(), path).toBe(200);
      const want = expected(category, n);
      expect(await page.title(), path).toBe(title);
      expect(await page.locator('link[rel=canonical]').getAttribute('href'), path).toMatch(
        new RegExp(`^https?://[^/]+${path}$`),
      );
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${SITE_NAME} blog`);
      expect(await cardTitles(page), path).toEqual(want.titles);
      expect(await page.getByText(want.showing).isVisible(), path).toBe(true);
      expect(
        await page.locator('section[aria-labelledby="featured-article"] h3').allTextContents(),
        path,
      ).toEqual(want.featured ? [want.featured.title] : []);
      expect(await skeletonVisible(page)).toBe(false);
      const active = category ? categoryName(category) : 'All Posts';
      expect(await filterLink(page, active).getAttribute('aria-current'), path).toBe('true');
      expect(await page.locator('nav[aria-label="Filter posts by category"] [aria-current]').count()).toBe(1);
      if (want.pageCount > 1) {
        const pages = page.getByRole('navigation', { name: 'Pages' });
        expect(await pages.getByRole('link', { name: `Page ${n}` }).getAttribute('aria-current')).toBe(
          'page',
        );
        // The first and last pages show Previous and Next as disabled, not as links.
        const disabled = (await pages.locator('[aria-disabled=true]').allTextContents()).map((t) => t.trim());
        expect(disabled, path).toEqual([
          ...(n === 1 ? ['Previous'] : []),
          ...(n === want.pageCount ? ['Next'] : []),
        ]);
      }
    }
    await close();
  });

  it('has page 1 of each list once: /page/1 answers a permanent redirect to the list', async () => {
    for (const [from, to] of [
      ['/blog/page/1', '/blog'],
      ['/blog/category/safety-health/page/1', '/blog/category/safety-health'],
    ]) {
      const res = await fetch(`${base}${from}`, { redirect: 'manual' });
      expect(res.status, from).toBe(301);
      expect(res.headers.get('Location'), from).toBe(to);
    }
  });

  it('redirects the old ?category=&page= addresses on the server too, for readers without JavaScript', async () => {
    const res = await fetch(`${base}/blog?category=safety-health&page=1&utm_source=feed`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(301);
    expect(res.headers.get('Location')).toBe('/blog/category/safety-health?utm_source=feed');
    const unknown = await fetch(`${base}/blog?category=no-such-category`, { redirect: 'manual' });
    expect(unknown.headers.get('Location')).toBe('/blog');
    // Without either parameter /blog is the list itself.
    expect((await fetch(`${base}/blog?utm_source=feed`, { redirect: 'manual' })).status).toBe(200);
  });

  it('forwards the old ?category=&page= addresses to the static pages, the nearest one when out of range', async () => {
    const lastPage = expected(null, 1).pageCount;
    const safetyPages = expected('safety-health', 1).pageCount;
    const cases: [string, string][] = [
      ['/blog?page=2', '/blog/page/2'],
      ['/blog?category=safety-health', '/blog/category/safety-health'],
      [
        '/blog?category=safety-health&page=2',
        safetyPages > 1 ? '/blog/category/safety-health/page/2' : '/blog/category/safety-health',
      ],
      ['/blog?category=no-such-category&page=99', `/blog/page/${lastPage}`],
      ['/blog?category=local-events&page=0', '/blog/category/local-events'],
    ];
    const { page, close } = await reused();
    for (const [from, to] of cases) {
      await page.goto(`${base}${from}`);
      await page.waitForURL(`${base}${to}`);
      expect(await page.title(), from).toContain(`${SITE_NAME} blog`);
    }
    await close();
  });

  it('switches category and page by links, shows the skeleton meanwhile and never loads the post list', async () => {
    const { page, close } = await newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await page.goto(`${base}/blog`);

    // Note what the reader sees the moment the link is followed, where it outlives the page.
    await page.evaluate(() => {
      const list = document.querySelector('[data-blog-list]')!;
      new MutationObserver(() => {
        const seen = {
          skeleton: list.querySelector('[data-testid=post-skeleton]')!.checkVisibility(),
          list: list.querySelector('#latest-articles')!.checkVisibility(),
        };
        sessionStorage.setItem('seen-while-loading', JSON.stringify(seen));
      }).observe(list, { attributes: true, attributeFilter: ['data-loading'] });
    });
    await filterLink(page, 'Safety & Health').click();
    await page.waitForURL(`${base}/blog/category/safety-health`);
    expect(await page.evaluate(() => sessionStorage.getItem('seen-while-loading'))).toBe(
      JSON.stringify({ skeleton: true, list: false }),
    );
    expect(await cardTitles(page)).toEqual(expected('safety-health', 1).titles);
    expect(await skeletonVisible(page)).toBe(false);

    await page.goto(`${base}/blog`);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Page 2' }).click();
    await page.waitForURL(`${base}/blog/page/2#latest-articles`);
    expect(await cardTitles(page)).toEqual(expected(null, 2).titles);
    // Back shows the list again, whether it comes from the back-forward cache or the network.
    await page.goBack();
    await page.waitForURL(`${base}/blog`);
    await expect.poll(() => page.getByText(expected(null, 1).showing).isVisible()).toBe(true);
    expect(await skeletonVisible(page)).toBe(false);

    expect(requests.filter((path) => path === '/api/blog/posts')).toEqual([]);
    expect(requests).toContain('/blog/category/safety-health');
    await close();
  });

  it('clears the filter from the active category link, by keyboard', async () => {
    const { page, close } = await reused();
    await page.goto(`${base}/blog/category/safety-health`);
    const active = filterLink(page, 'Safety & Health');
    expect(await active.getAttribute('href')).toBe('/blog');
    expect(await page.getByRole('link', { name: /Subscribe to Safety & Health/ }).getAttribute('href')).toBe(
      '/blog/category/safety-health/rss.xml',
    );
    expect(
      await page.locator('head link[rel=alternate][href="/blog/category/safety-health/rss.xml"]').count(),
    ).toBe(1);
    await active.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/blog`);
    expect(await filterLink(page, 'All Posts').getAttribute('aria-current')).toBe('true');
    expect(await filterLink(page, 'Safety & Health').getAttribute('href')).toBe(
      '/blog/category/safety-health',
    );
    expect(await page.getByRole('link', { name: /Subscribe to/ }).count()).toBe(0);
    await close();
  });

  it.each([
    ['with', true],
    ['without', false],
  ])(
    "shows the empty state for a category without posts, and 'View All Posts' works, %s JavaScript",
    async (_, javaScript) => {
      const empty = categories.find((c) => !posts.some((p) => p.relatedCategories.includes(c.slug)))!;
      const { page, close } = await reused(javaScript);
      const response = await page.goto(`${base}/blog/category/${empty.slug}`);
      expect(response?.status()).toBe(200);
      expect(await page.getByText('No posts found').isVisible()).toBe(true);
      expect(
        await page.getByText(`There are no posts in ${empty.categoryName} yet.`, { exact: false }).count(),
      ).toBe(1);
      expect(await page.getByRole('navigation', { name: 'Pages' }).count()).toBe(0);
      await page.getByRole('link', { name: 'View All Posts' }).click();
      await page.waitForURL(`${base}/blog`);
      expect(await cardTitles(page)).toEqual(expected(null, 1).titles);
      await close();
    },
  );

  it.each(['/blog/category/safety-health', '/blog/page/2', '/blog/category/local-events'])(
    'axe finds no violations on %s',
    async (path) => {
      const { page, close } = await reused();
      await page.goto(`${base}${path}`);
      await page.waitForLoadState('networkidle');
      await expectNoAxeViolations(page);
      await close();
    },
  );

  it.each([360, 430])('fits a %i px phone without scrolling sideways', async (width) => {
    const { page, close } = await reused();
    // At the phone's size from the first load, as a context of that size would be.
    const wide = page.viewportSize()!;
    await page.setViewportSize({ width, height: 800 });
    try {
      for (const path of ['/blog', '/blog/category/safety-health', '/blog/page/2']) {
        await page.goto(`${base}${path}`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(
          width,
        );
      }
    } finally {
      await page.setViewportSize(wide);
    }
    await close();
  });

  it('lists every page of the list in the sitemap', async () => {
    const index = await (await fetch(`${base}/sitemap-index.xml`)).text();
    const sitemapUrl = /<loc>([^<]+)<\/loc>/.exec(index)![1]!;
    const locs = [
      ...(await (await fetch(`${base}${new URL(sitemapUrl).pathname}`)).text()).matchAll(
        /<loc>([^<]+)<\/loc>/g,
      ),
    ].map(([, loc]) => new URL(loc!).pathname);
    // The same addresses as the pages' canonical links.
    expect(locs.filter((loc) => loc !== '/' && loc.endsWith('/'))).toEqual([]);
    const lists = [
      '/blog',
      ...Array.from({ length: expected(null, 1).pageCount - 1 }, (_, i) => `/blog/page/${i + 2}`),
      ...categories.map((c) => `/blog/category/${c.slug}`),
    ];
    for (const path of lists) expect(locs, path).toContain(path);
    expect(locs.some((loc) => loc.endsWith('.json'))).toBe(false);
  });
});
