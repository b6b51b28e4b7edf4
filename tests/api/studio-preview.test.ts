// The studio's preview (GET /api/studio/posts/:postId/preview; docs/product.md, "The studio"): who
// may see it, that it is the post's latest revision in the live build's template, sanitized and
// escaped, never kept or indexed, and a 503 that says what to do when there is no template. Through
// the real app over a real database (SQLite here, PostgreSQL in api-pg) with Auth emulator
// parents. The template here has the real one's marks and parts; the real built template is
// previewed end to end in tests/e2e/studio-preview.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { BlogCategory } from '../../api/contract.ts';
import {
  PREVIEW_DATE,
  PREVIEW_FIELDS as F,
  PREVIEW_TEMPLATE_PATH,
  previewBegin as begin,
  previewEnd as end,
} from '../../api/contract/preview.ts';
import type { StudioPostCreated, StudioPostSaved } from '../../api/contract/studio.ts';
import type { DB } from '../../api/db/database.ts';
import { liveRelease } from '../../api/db/queries/releases.ts';
import { liveReleaseSource } from '../../api/lib/live-release.ts';
import { createRateLimiter } from '../../api/middleware/rate-limit.ts';
import type { AppDeps } from '../../api/types.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import {
  call,
  emulatorAccounts,
  emulatorVerifier,
  expectJson,
  newParent,
  type Parent,
} from '../helpers/parents.ts';
import { createTestDb, TEST_MAIL, TEST_NOW } from '../helpers/test-db.ts';

type App = ReturnType<typeof createApp>;
let db: DB;
let app: App;
let siteDir: string;
let templateFile: string;
const now = new Date(TEST_NOW);

let author: Parent;
let otherAuthor: Parent;
let editor: Parent;
let admin: Parent;
let parent: Parent;
let moderator: Parent;
let categories: BlogCategory[];
let postId: number;

const TEMPLATE = [
  `<!doctype html><html><head><title>${F.title} | Nestling blog</title>`,
  `<meta name="description" content="${begin('excerpt')}${F.excerpt}${end('excerpt')}${begin('no_excerpt')}${F.title}, on the Nestling blog.${end('no_excerpt')}">`,
  `<meta name="robots" content="noindex"><link rel="stylesheet" href="/_astro/index.Abc123_-.css"></head>`,
  `<body><main><ul aria-label="Categories">CATEGORIES</ul><h1>${F.title}</h1>`,
  `${begin('excerpt')}<p>${F.excerpt}</p>${end('excerpt')}`,
  `<time datetime="${PREVIEW_DATE}">February 3, 2001</time>`,
  `${begin('image')}<img src="${F.featuredImageUrl}" alt="${F.featuredImageAlt}">${end('image')}`,
  `${begin('body')}<div class="prose">${F.body}</div>${end('body')}`,
  `${begin('no_body')}<section>Content Loading</section>${end('no_body')}`,
  `<footer>${F.authorInitial} ${F.authorName}</footer></main></body></html>`,
].join('');

function deps(over: Partial<AppDeps> = {}): Parameters<typeof createApp>[0] {
  return {
    db,
    now: () => now,
    release: liveReleaseSource(db, { ttlMs: 0 }),
    verifyToken: emulatorVerifier(),
    accounts: emulatorAccounts(),
    writeLimiter: createRateLimiter(db, { scope: 'writes', limit: 10_000, windowMs: 60_000 }),
    safety: { holdFirstComment: false, escalationUrl: null, siteUrl: 'http://nestling.test' },
    mail: TEST_MAIL,
    siteDir,
    ...over,
  };
}

const preview = (id: number, as?: Parent, on: App = app) =>
  call(on, 'GET', `/api/studio/posts/${id}/preview`, { token: as?.token });

beforeAll(async () => {
  ({ db } = await createTestDb());
  siteDir = tempDir('nestling-preview-');
  app = createApp(deps());
  const live = await liveRelease(db);
  if (!live) throw new Error('the seeded test database has a live release');
  categories = await expectJson<BlogCategory[]>(app.request('/api/blog/categories'), 200);
  const badges = categories
    .map((c) => `<li data-preview-part="category_${c.slug}"><span>${c.categoryName}</span></li>`)
    .join('');
  templateFile = path.join(siteDir, live.folder, PREVIEW_TEMPLATE_PATH);
  fs.mkdirSync(path.dirname(templateFile), { recursive: true });
  fs.writeFileSync(templateFile, TEMPLATE.replace('CATEGORIES', badges));

  [author, otherAuthor, editor, admin, parent, moderator] = await Promise.all([
    newParent(app, db, 'Ada Author', 'author'),
    newParent(app, db, 'Otto Author', 'author'),
    newParent(app, db, 'Eda Editor', 'editor'),
    newParent(app, db, 'Ari Admin', 'admin'),
    newParent(app, db, 'Pat Parent', 'user'),
    newParent(app, db, 'Mo Moderator', 'moderator'),
  ]);
  const created = await expectJson<StudioPostCreated>(
    call(app, 'POST', '/api/studio/posts', {
      token: author.token,
      body: {
        title: 'Packing a hospital bag',
        excerpt: 'What we actually used.',
        markdown: 'Pack **light**.',
        categories: [categories[1]!.slug, categories[0]!.slug],
        kind: 'article',
        featured: false,
      },
    }),
    201,
  );
  postId = created.postId;
  // The latest revision is what the preview shows, with a title and body to escape and sanitize.
  await expectJson<StudioPostSaved>(
    call(app, 'PUT', `/api/studio/posts/${postId}`, {
      token: author.token,
      body: {
        title: 'Packing <b>a bag</b> & "more"',
        slug: created.slug,
        excerpt: '',
        markdown: [
          'Pack **light**, then [check the list](/blog).',
          '',
          '<script>alert(1)</script><img src="/images/x.jpg" onerror="alert(2)">',
          '',
          '[a trap](javascript:alert(3))',
        ].join('\n'),
        categories: [categories[1]!.slug, categories[0]!.slug],
        kind: 'article',
        featured: false,
        featuredImageUrl: null,
        featuredImageAlt: null,
        baseRevision: created.revision,
      },
    }),
    200,
  );
});

afterAll(async () => {
  await db.destroy();
});

describe('who may preview a post', () => {
  it('asks anonymous callers to sign in (401) and refuses parents, moderators and other authors (403)', async () => {
    await expectJson(preview(postId), 401);
    const refused = await expectJson<{ error: string }>(preview(postId, parent), 403);
    expect(refused.error).toMatch(/authors, editors and admins/);
    await expectJson(preview(postId, moderator), 403);
    const other = await expectJson<{ error: string }>(preview(postId, otherAuthor), 403);
    expect(other.error).toMatch(/only their own/);
  });

  it("shows it to the post's author, editors and admins", async () => {
    for (const person of [author, editor, admin]) {
      const res = await preview(postId, person);
      expect(res.status, person.name).toBe(200);
      await res.text();
    }
  });

  it('answers 404 JSON for a post that does not exist, and 400 for an id that is not one', async () => {
    const missing = await expectJson<{ error: string }>(preview(987_654, editor), 404);
    expect(missing.error).toBe('There is no post 987654.');
    const bad = await call(app, 'GET', '/api/studio/posts/abc/preview', { token: editor.token });
    expect(bad.status).toBe(400);
  });
});

describe('the preview page', () => {
  it('is the latest revision in the live build’s post page, never kept or indexed', async () => {
    const res = await preview(postId, author);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(res.headers.get('X-Robots-Tag')).toBe('noindex');
    expect(res.headers.get('Cache-Control')).toBe('private, no-store');
    const html = await res.text();
    // The title escaped, in <title> and on the page; no excerpt, so the description is the title's.
    expect(html).toContain(
      '<title>Packing &lt;b&gt;a bag&lt;/b&gt; &amp; &quot;more&quot; | Nestling blog</title>',
    );
    expect(html).toContain('<h1>Packing &lt;b&gt;a bag&lt;/b&gt; &amp; &quot;more&quot;</h1>');
    expect(html).toContain(
      'content="Packing &lt;b&gt;a bag&lt;/b&gt; &amp; &quot;more&quot;, on the Nestling blog."',
    );
    // Its categories in its order.
    expect(html).toContain(
      `<ul aria-label="Categories"><li><span>${categories[1]!.categoryName}</span></li><li><span>${categories[0]!.categoryName}</span></li></ul>`,
    );
    // The body through the build's sanitizing pipeline.
    expect(html).toContain('<strong>light</strong>');
    expect(html).toContain('<a href="/blog">check the list</a>');
    expect(html).toMatch(/<img src="\/images\/x.jpg"( alt="")?>/);
    expect(html).not.toMatch(/<script>alert|onerror|javascript:/);
    // Dated today (the app's clock) until it is published; the author's name beside it.
    expect(html).toContain(`<time datetime="${TEST_NOW.toISOString()}">November 22, 2026</time>`);
    expect(html).toContain('<footer>A Ada Author</footer>');
    expect(html).toContain('<link rel="stylesheet" href="/_astro/index.Abc123_-.css">');
    expect(html).not.toMatch(/__nestling_preview|data-preview-part|Content Loading/);
  });

  it('says the site needs a publish first when there is no template to fill (503 JSON)', async () => {
    const withoutSite = createApp(deps({ siteDir: undefined }));
    const answer = await expectJson<{ error: string }>(preview(postId, editor, withoutSite), 503);
    expect(answer.error).toMatch(/published once/);

    fs.renameSync(templateFile, `${templateFile}.away`);
    try {
      await expectJson(preview(postId, editor), 503);
    } finally {
      fs.renameSync(`${templateFile}.away`, templateFile);
    }
    expect((await preview(postId, editor)).status).toBe(200);
  });
});
