// The studio's posts API (docs/product.md, "The studio"): who may do what, drafts and their slugs,
// saves that never overwrite each other, publishing now and on a schedule, withdrawing, old
// addresses that forward, the history and restore, and sanitizing. Through the real app over a
// real database (SQLite here, PostgreSQL in api-pg), with Auth emulator parents, and a real
// publisher whose site build is a stub (tests/e2e builds real sites): a publish goes live the way
// it does on the server, and the app's clock moves for the schedule.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { AuditEntry, BlogCategory, BlogPost, PublishRun } from '../../api/contract.ts';
import type {
  RenderedMarkdown,
  StudioConflict,
  StudioPost,
  StudioPostCreated,
  StudioPostFields,
  StudioPostSaved,
  StudioPostSummary,
  StudioPublishAnswer,
  StudioRevision,
  StudioStatusAnswer,
  StudioWithdrawAnswer,
} from '../../api/contract/studio.ts';
import type { DB } from '../../api/db/database.ts';
import { redirectTarget } from '../../api/db/queries/redirects.ts';
import { liveRelease } from '../../api/db/queries/releases.ts';
import { liveReleaseSource } from '../../api/lib/live-release.ts';
import { createRateLimiter } from '../../api/middleware/rate-limit.ts';
import { createPublisher, type Publisher } from '../../scripts/lib/publisher.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import {
  call,
  emulatorAccounts,
  emulatorVerifier,
  expectJson,
  newParent,
  type Parent,
} from '../helpers/parents.ts';
import { CONTENT_DIR, createTestDb, TEST_MAIL, TEST_NOW } from '../helpers/test-db.ts';

type App = ReturnType<typeof createApp>;
let app: App;
let db: DB;
let publisher: Publisher;
/** The app's and the publisher's clock: each test moves it forward. */
let now = new Date(TEST_NOW);
const MINUTE = 60_000;
const later = (ms: number) => (now = new Date(now.getTime() + ms));

let author: Parent;
let otherAuthor: Parent;
let editor: Parent;
let admin: Parent;
let parent: Parent;
let moderator: Parent;
let category: string;
let filePost: BlogPost;

beforeAll(async () => {
  ({ db } = await createTestDb());
  publisher = createPublisher({
    db,
    contentDir: CONTENT_DIR,
    siteDir: path.join(tempDir(), 'site'),
    buildEnv: {},
    now: () => now,
    log: () => {},
    // The site build is not what is tested here: the API answers from the release's snapshot.
    build: async (outDir) => fs.mkdirSync(outDir, { recursive: true }),
  });
  app = createApp({
    db,
    now: () => now,
    release: liveReleaseSource(db, { ttlMs: 0 }),
    verifyToken: emulatorVerifier(),
    accounts: emulatorAccounts(),
    writeLimiter: createRateLimiter(db, { scope: 'writes', limit: 10_000, windowMs: 60_000 }),
    safety: { holdFirstComment: false, escalationUrl: null, siteUrl: 'http://nestling.test' },
    mail: TEST_MAIL,
    publisher,
  });
  [author, otherAuthor, editor, admin, parent, moderator] = await Promise.all([
    newParent(app, db, 'Ada Author', 'author'),
    newParent(app, db, 'Otto Author', 'author'),
    newParent(app, db, 'Eda Editor', 'editor'),
    newParent(app, db, 'Ari Admin', 'admin'),
    newParent(app, db, 'Pat Parent', 'user'),
    newParent(app, db, 'Mo Moderator', 'moderator'),
  ]);
  category = (await expectJson<BlogCategory[]>(app.request('/api/blog/categories'), 200))[0]!.slug;
  filePost = (await expectJson<BlogPost[]>(app.request('/api/blog/posts'), 200))[0]!;
});

afterAll(async () => {
  await publisher.idle();
  await db.destroy();
});

const draft = (over: Partial<StudioPostFields> = {}) => ({
  title: 'Packing a hospital bag',
  excerpt: 'What we actually used.',
  markdown: 'Pack **light**: a few things matter.',
  categories: [category],
  kind: 'article' as const,
  featured: false,
  ...over,
});

const create = (as: Parent, body: object = draft()) =>
  expectJson<StudioPostCreated>(call(app, 'POST', '/api/studio/posts', { token: as.token, body }), 201);
const open = (as: Parent, postId: number) =>
  expectJson<StudioPost>(call(app, 'GET', `/api/studio/posts/${postId}`, { token: as.token }), 200);
const list = (as: Parent, query = '') =>
  expectJson<StudioPostSummary[]>(call(app, 'GET', `/api/studio/posts${query}`, { token: as.token }), 200);

function fieldsOf(post: StudioPost): StudioPostFields {
  const { title, slug, excerpt, markdown, categories, kind, featured, featuredImageUrl, featuredImageAlt } =
    post;
  return { title, slug, excerpt, markdown, categories, kind, featured, featuredImageUrl, featuredImageAlt };
}

const save = (as: Parent, postId: number, body: object) =>
  call(app, 'PUT', `/api/studio/posts/${postId}`, { token: as.token, body });

/** Opens the post, changes some fields and saves on top of what it opened. */
async function edit(as: Parent, postId: number, change: Partial<StudioPostFields>): Promise<StudioPostSaved> {
  const post = await open(as, postId);
  return expectJson<StudioPostSaved>(
    save(as, postId, { ...fieldsOf(post), ...change, baseRevision: post.revision }),
    200,
  );
}

/** Publishes (now, or at `at`) and waits until the release it asked for is live. */
async function publish(postId: number, at?: string, as: Parent = editor): Promise<StudioPublishAnswer> {
  const answer = await expectJson<StudioPublishAnswer>(
    call(app, 'POST', `/api/studio/posts/${postId}/publish`, { token: as.token, body: at ? { at } : {} }),
    202,
  );
  expect(answer.releaseId).not.toBeNull();
  expect(await publisher.finished(answer.releaseId!)).toMatchObject({ state: 'succeeded', live: true });
  return answer;
}

/** What readers get for an address now: the status and the title. */
async function reader(slug: string): Promise<{ status: number; title: string | null }> {
  const res = await app.request(`/api/blog/posts/${slug}`);
  const body = (await res.json()) as { title?: string };
  return { status: res.status, title: body.title ?? null };
}

const readerRow = (postId: number) =>
  db
    .selectFrom('blog_posts')
    .select([
      'title',
      'slug',
      'excerpt',
      'content',
      'reading_time_minutes',
      'kind',
      'is_featured',
      'featured_image_url',
      'featured_image_alt',
      'is_published',
      'published_at',
      'status',
    ])
    .where('post_id', '=', postId)
    .executeTakeFirstOrThrow();

async function auditOf(postId: number): Promise<AuditEntry[]> {
  const entries = await expectJson<AuditEntry[]>(
    call(app, 'GET', '/api/moderation/audit?limit=100', { token: admin.token }),
    200,
  );
  return entries.filter((e) => e.targetType === 'post' && e.targetId === String(postId));
}

describe('who may use the studio', () => {
  const routes: [string, string, object?][] = [
    ['GET', '/api/studio/posts'],
    ['POST', '/api/studio/posts', draft()],
    ['GET', '/api/studio/posts/1'],
    ['PUT', '/api/studio/posts/1', { ...draft(), slug: 'a-slug', baseRevision: 1 }],
    ['POST', '/api/studio/posts/1/submit'],
    ['POST', '/api/studio/posts/1/publish', {}],
    ['POST', '/api/studio/posts/1/withdraw'],
    ['GET', '/api/studio/posts/1/revisions'],
    ['POST', '/api/studio/posts/1/revisions/1/restore'],
    ['POST', '/api/studio/render', { markdown: 'Hi' }],
    ['GET', '/api/studio/releases/1'],
  ];

  it('refuses anonymous callers (401), and parents and moderators (403), on every route', async () => {
    for (const [method, route, body] of routes) {
      const anonymous = await call(app, method, route, { body });
      expect(anonymous.status, `${method} ${route}`).toBe(401);
      for (const who of [parent, moderator]) {
        const res = await call(app, method, route, { token: who.token, body });
        expect(res.status, `${method} ${route} as ${who.name}`).toBe(403);
        expect(((await res.json()) as { error: string }).error).toMatch(/editor|author/);
      }
    }
  });

  it('lets an author write and submit their own posts, and tells them an editor publishes', async () => {
    const { postId } = await create(author, draft({ title: 'An author’s own post' }));
    const refused = await call(app, 'POST', `/api/studio/posts/${postId}/publish`, {
      token: author.token,
      body: {},
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toContain('Only an editor');
    for (const [method, route] of [
      ['POST', `/api/studio/posts/${postId}/withdraw`],
      ['GET', '/api/studio/releases/1'],
    ] as const) {
      expect((await call(app, method, route, { token: author.token })).status, route).toBe(403);
    }
    expect(await readerRow(postId)).toMatchObject({ status: 'draft', is_published: 0 });

    const submitted = await expectJson<StudioStatusAnswer>(
      call(app, 'POST', `/api/studio/posts/${postId}/submit`, { token: author.token }),
      202,
    );
    expect(submitted.status).toBe('review');
    expect(await readerRow(postId)).toMatchObject({ status: 'review', is_published: 0 });
    const [entry] = await auditOf(postId);
    expect(entry).toMatchObject({
      action: 'post.submit',
      actorName: 'Ada Author',
      target: { name: 'the post “An author’s own post”', href: `/studio/edit/?post=${postId}` },
    });
  });

  it('keeps an author to their own posts; editors and admins see every post, files included', async () => {
    const own = await create(author, draft({ title: 'Mine, by Ada' }));
    const others = await create(otherAuthor, draft({ title: 'Mine, by Otto' }));

    const ids = (rows: StudioPostSummary[]) => rows.map((r) => r.postId);
    const ada = await list(author);
    expect(ids(ada)).toContain(own.postId);
    expect(ids(ada)).not.toContain(others.postId);
    expect(ids(ada)).not.toContain(filePost.postId);

    for (const staff of [editor, admin]) {
      const all = await list(staff);
      expect(ids(all)).toEqual(expect.arrayContaining([own.postId, others.postId, filePost.postId]));
      expect(all.find((r) => r.postId === filePost.postId)).toMatchObject({
        source: 'file',
        status: 'published',
        authorName: filePost.authorName,
      });
    }

    const theirs = `/api/studio/posts/${others.postId}`;
    for (const [method, route, body] of [
      ['GET', theirs],
      ['PUT', theirs, { ...draft(), slug: 'taken-over', baseRevision: 1 }],
      ['GET', `${theirs}/revisions`],
      ['POST', `${theirs}/submit`],
      ['POST', `${theirs}/revisions/1/restore`],
    ] as const) {
      const res = await call(app, method, route, { token: author.token, body });
      expect(res.status, `${method} ${route}`).toBe(403);
    }
    expect((await open(editor, others.postId)).title).toBe('Mine, by Otto');
    expect((await open(editor, filePost.postId)).source).toBe('file');
  });

  it('answers 404 for a post or a run that does not exist, and 400 for an id that is not one', async () => {
    expect((await call(app, 'GET', '/api/studio/posts/999999', { token: editor.token })).status).toBe(404);
    expect((await call(app, 'GET', '/api/studio/posts/999999', { token: author.token })).status).toBe(404);
    expect((await call(app, 'GET', '/api/studio/releases/999999', { token: editor.token })).status).toBe(404);
    const bad = await call(app, 'GET', '/api/studio/posts/abc', { token: editor.token });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'postId: must be a positive integer' });
  });
});

describe('drafts', () => {
  it('creates a draft with its first revision, a slug from its title, and nothing readers get', async () => {
    later(MINUTE);
    const created = await create(author, draft({ title: 'First Steps, Shoes & Socks!' }));
    expect(created).toMatchObject({ slug: 'first-steps-shoes-socks', status: 'draft', revision: 1 });
    const row = await db
      .selectFrom('blog_posts')
      .selectAll()
      .where('post_id', '=', created.postId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      slug: 'first-steps-shoes-socks',
      status: 'draft',
      is_published: 0,
      source: 'studio',
      author_uid: author.uid,
      author_name: 'Ada Author',
      published_at: null,
      revision: 1,
      published_revision: null,
      content: '<p>Pack <strong>light</strong>: a few things matter.</p>\n',
    });

    const post = await open(author, created.postId);
    expect(post).toMatchObject({
      postId: created.postId,
      title: 'First Steps, Shoes & Socks!',
      slug: 'first-steps-shoes-socks',
      status: 'draft',
      revision: 1,
      publishedRevision: null,
      publishAt: null,
      authorUid: author.uid,
      authorName: 'Ada Author',
      categories: [category],
      html: '<p>Pack <strong>light</strong>: a few things matter.</p>\n',
      wordCount: 6,
      readingTimeMinutes: 1,
      hasUnpublishedChanges: false,
    });
    expect((await reader('first-steps-shoes-socks')).status).toBe(404);

    // The same title again takes the next free address.
    expect((await create(author, draft({ title: 'First steps: shoes & socks' }))).slug).toBe(
      'first-steps-shoes-socks-2',
    );
    expect((await create(author, draft({ title: 'First steps: shoes & socks' }))).slug).toBe(
      'first-steps-shoes-socks-3',
    );
  });

  it('refuses a slug another post has, naming it, and what is not a post', async () => {
    const taken = await call(app, 'POST', '/api/studio/posts', {
      token: author.token,
      body: draft({ slug: filePost.slug }),
    });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: string }).error).toContain(`“${filePost.slug}”`);

    const refusals: [object, string][] = [
      [
        draft({ categories: [category, 'no-such-category'] }),
        'categories: “no-such-category” is not a blog category',
      ],
      [{ ...draft(), featuredImageUrl: '/images/posts/bag.jpg' }, 'featuredImageAlt: must not be blank'],
      [{ ...draft(), featuredImageUrl: 'javascript:alert(1)', featuredImageAlt: 'x' }, 'featuredImageUrl:'],
      [draft({ title: 'Nul\u0000byte' }), 'title:'],
      [draft({ markdown: 'A lone \ud800 surrogate' }), 'markdown:'],
      [draft({ title: '   ' }), 'title: must not be blank'],
      [draft({ slug: 'Not A Slug' }), 'slug: must be lowercase'],
      [{ ...draft(), kind: 'poem' }, 'kind: must be article or discussion'],
    ];
    const before = await db
      .selectFrom('blog_posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const [body, message] of refusals) {
      const res = await call(app, 'POST', '/api/studio/posts', { token: author.token, body });
      expect(res.status, message).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain(message);
    }
    const after = await db
      .selectFrom('blog_posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    const withImage = await create(
      author,
      draft({
        title: 'With a photo',
        featuredImageUrl: '/images/posts/bag.jpg',
        featuredImageAlt: 'A packed bag',
      }),
    );
    expect(await open(author, withImage.postId)).toMatchObject({
      featuredImageUrl: '/images/posts/bag.jpg',
      featuredImageAlt: 'A packed bag',
    });
  });

  it('keeps every save as a revision and refuses one based on an old revision with the latest (409)', async () => {
    const { postId } = await create(author, draft({ title: 'Night feeds' }));
    const first = await open(author, postId);

    later(MINUTE);
    const saved = await expectJson<StudioPostSaved>(
      save(author, postId, { ...fieldsOf(first), markdown: 'Version two.', baseRevision: 1 }),
      200,
    );
    expect(saved).toEqual({ revision: 2, slug: 'night-feeds', updatedAt: now.toISOString() });

    // An editor who opened revision 1 saves on top of it: refused, with what Ada saved.
    const conflict = await expectJson<StudioConflict>(
      save(editor, postId, { ...fieldsOf(first), markdown: 'The editor’s version.', baseRevision: 1 }),
      409,
    );
    expect(conflict.error).toContain('revision 2');
    expect(conflict.latest).toMatchObject({ revision: 2, markdown: 'Version two.', savedBy: 'Ada Author' });
    expect((await open(editor, postId)).markdown).toBe('Version two.');

    later(MINUTE);
    expect((await edit(editor, postId, { markdown: 'The editor’s version.' })).revision).toBe(3);
    const revisions = await expectJson<StudioRevision[]>(
      call(app, 'GET', `/api/studio/posts/${postId}/revisions`, { token: author.token }),
      200,
    );
    expect(revisions.map((r) => [r.revision, r.savedBy, r.markdown])).toEqual([
      [3, 'Eda Editor', 'The editor’s version.'],
      [2, 'Ada Author', 'Version two.'],
      [1, 'Ada Author', 'Pack **light**: a few things matter.'],
    ]);

    // A slug another post has (or had) is refused on save too.
    const taken = await save(editor, postId, {
      ...fieldsOf(await open(editor, postId)),
      slug: filePost.slug,
      baseRevision: 3,
    });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: string }).error).toContain(filePost.slug);

    // A draft keeps its newest slug reserved.
    await edit(author, postId, { slug: 'night-feeds-tips' });
    expect((await readerRow(postId)).slug).toBe('night-feeds-tips');
    const reserved = await call(app, 'POST', '/api/studio/posts', {
      token: otherAuthor.token,
      body: draft({ slug: 'night-feeds-tips' }),
    });
    expect(reserved.status).toBe(409);

    // Two saves on top of the same revision at once (side by side on PostgreSQL): one is kept.
    const base = await open(editor, postId);
    const both = await Promise.all(
      (['One.', 'Two.'] as const).map((markdown, i) =>
        save(i === 0 ? editor : author, postId, { ...fieldsOf(base), markdown, baseRevision: base.revision }),
      ),
    );
    expect(both.map((res) => res.status).sort()).toEqual([200, 409]);
    const revisionsNow = await expectJson<StudioRevision[]>(
      call(app, 'GET', `/api/studio/posts/${postId}/revisions`, { token: editor.token }),
      200,
    );
    expect(revisionsNow[0]!.revision).toBe(base.revision + 1);
    expect(revisionsNow).toHaveLength(base.revision + 1);
  });

  it('lists posts newest change first, filtered by state', async () => {
    later(MINUTE);
    const older = await create(author, draft({ title: 'Older draft' }));
    later(MINUTE);
    const newer = await create(author, draft({ title: 'Newer draft' }));
    let rows = await list(author, '?status=draft');
    expect(rows.slice(0, 2).map((r) => r.postId)).toEqual([newer.postId, older.postId]);
    expect(rows.every((r) => r.status === 'draft')).toBe(true);

    later(MINUTE);
    await edit(author, older.postId, { title: 'Older draft, edited' });
    rows = await list(author);
    expect(rows[0]).toMatchObject({
      postId: older.postId,
      title: 'Older draft, edited',
      updatedAt: now.toISOString(),
    });
    expect((await list(editor, '?status=published')).every((r) => r.status === 'published')).toBe(true);
    const bad = await call(app, 'GET', '/api/studio/posts?status=live', { token: editor.token });
    expect(bad.status).toBe(400);
  });

  it('makes a post from content/ the studio’s once saved', async () => {
    const post = await open(editor, filePost.postId);
    expect(post).toMatchObject({ revision: 1, source: 'file', featuredImageAlt: null });
    const before = await readerRow(filePost.postId);
    // Its featured image needs the alt text the file never had.
    await edit(editor, filePost.postId, { excerpt: 'Edited in the studio.', featuredImageAlt: 'A drawing' });
    const source = () =>
      db
        .selectFrom('blog_posts')
        .select('source')
        .where('post_id', '=', filePost.postId)
        .executeTakeFirstOrThrow();
    expect(await source()).toEqual({ source: 'studio' });
    expect(await readerRow(filePost.postId)).toEqual(before);
    // A publish syncs content/ and leaves it alone now: the edit is still the latest revision.
    await publisher.finished((await publisher.request('a sync')).id);
    expect(await source()).toEqual({ source: 'studio' });
    expect(await open(editor, filePost.postId)).toMatchObject({
      revision: 2,
      excerpt: 'Edited in the studio.',
    });
  });
});

describe('publishing', () => {
  it('changes nothing readers get on a save of a published post until it is published again', async () => {
    later(MINUTE);
    const { postId, slug } = await create(author, draft({ title: 'Teething, the first week' }));
    const answer = await publish(postId);
    expect(answer).toMatchObject({ status: 'published', publishAt: now.toISOString() });
    expect(await reader(slug)).toEqual({ status: 200, title: 'Teething, the first week' });
    const published = await readerRow(postId);
    expect(published).toMatchObject({
      status: 'published',
      is_published: 1,
      published_at: now.toISOString(),
    });
    const firstDate = published.published_at;

    later(MINUTE);
    await edit(author, postId, {
      title: 'Teething, the whole story',
      markdown: 'All new text.',
      excerpt: 'New excerpt.',
      featured: true,
    });
    expect(await readerRow(postId)).toEqual(published);
    // Another publish (any release) snapshots blog_posts: the saved edit is not in it.
    await publisher.finished((await publisher.request('another change')).id);
    expect(await reader(slug)).toEqual({ status: 200, title: 'Teething, the first week' });
    const row = (await list(editor)).find((r) => r.postId === postId)!;
    expect(row).toMatchObject({
      status: 'published',
      hasUnpublishedChanges: true,
      title: 'Teething, the whole story',
    });
    expect((await open(editor, postId)).publishedRevision).toBe(1);

    later(MINUTE);
    await publish(postId);
    expect(await reader(slug)).toEqual({ status: 200, title: 'Teething, the whole story' });
    // Republished now, it keeps the date it first went live.
    expect(await readerRow(postId)).toMatchObject({
      published_at: firstDate,
      content: '<p>All new text.</p>\n',
      excerpt: 'New excerpt.',
      is_featured: 1,
    });
    expect(await open(editor, postId)).toMatchObject({ publishedRevision: 2, hasUnpublishedChanges: false });

    const entries = await auditOf(postId);
    expect(entries.map((e) => [e.action, e.details.revision])).toEqual([
      ['post.publish', 2],
      ['post.publish', 1],
    ]);
    expect(entries[0]!.target).toEqual({
      name: 'the post “Teething, the whole story”',
      href: `/studio/edit/?post=${postId}`,
    });
  });

  it('schedules a post: nothing before its time, live in the API after the tick that follows it', async () => {
    later(MINUTE);
    const { postId, slug } = await create(author, draft({ title: 'Winter layers' }));
    // Two hours from now, written in another offset; stored in UTC.
    const at = new Date(now.getTime() + 120 * MINUTE);
    const local = new Date(at.getTime() + 2 * 60 * MINUTE).toISOString().replace('Z', '+02:00');
    const answer = await publish(postId, local);
    expect(answer).toMatchObject({ status: 'scheduled', publishAt: at.toISOString() });
    expect(await readerRow(postId)).toMatchObject({
      status: 'published',
      is_published: 1,
      published_at: at.toISOString(),
    });
    expect((await list(editor, '?status=scheduled')).map((r) => r.postId)).toContain(postId);
    expect(await reader(slug)).toMatchObject({ status: 404 });
    expect((await auditOf(postId))[0]).toMatchObject({
      action: 'post.schedule',
      details: { at: at.toISOString() },
    });

    later(60 * MINUTE);
    await publisher.tick();
    await publisher.idle();
    expect(await reader(slug)).toMatchObject({ status: 404 });

    now = new Date(at.getTime() + 30_000);
    await publisher.tick();
    await publisher.idle();
    expect(await reader(slug)).toEqual({ status: 200, title: 'Winter layers' });
    expect((await list(editor, '?status=published')).map((r) => r.postId)).toContain(postId);
  });

  it('withdraws a post (editors only) and takes it down with the next release', async () => {
    later(MINUTE);
    const { postId, slug } = await create(author, draft({ title: 'Car seat checks' }));
    const refusedDraft = await call(app, 'POST', `/api/studio/posts/${postId}/withdraw`, {
      token: editor.token,
    });
    expect(refusedDraft.status).toBe(409);
    await publish(postId);
    expect((await reader(slug)).status).toBe(200);

    expect(
      (await call(app, 'POST', `/api/studio/posts/${postId}/withdraw`, { token: author.token })).status,
    ).toBe(403);
    const withdrawn = await expectJson<StudioWithdrawAnswer>(
      call(app, 'POST', `/api/studio/posts/${postId}/withdraw`, { token: editor.token }),
      202,
    );
    expect(withdrawn).toEqual({ status: 'withdrawn', releaseId: expect.any(Number) });
    expect(await readerRow(postId)).toMatchObject({ status: 'withdrawn', is_published: 0 });
    expect(await publisher.finished(withdrawn.releaseId!)).toMatchObject({ state: 'succeeded', live: true });
    expect((await reader(slug)).status).toBe(404);
    expect((await auditOf(postId))[0]).toMatchObject({ action: 'post.withdraw', actorName: 'Eda Editor' });
    expect((await list(editor, '?status=withdrawn')).map((r) => r.postId)).toContain(postId);

    // A submitted, withdrawn post goes back to review; an editor can publish it again.
    expect(
      (
        await expectJson<StudioStatusAnswer>(
          call(app, 'POST', `/api/studio/posts/${postId}/submit`, { token: author.token }),
          202,
        )
      ).status,
    ).toBe('review');
    await publish(postId);
    expect((await reader(slug)).status).toBe(200);
    const submitPublished = await call(app, 'POST', `/api/studio/posts/${postId}/submit`, {
      token: author.token,
    });
    expect(submitPublished.status).toBe(409);
  });

  it('publishes no image without alt text, naming it, and publishes it once described', async () => {
    later(MINUTE);
    const { postId, slug } = await create(
      author,
      draft({ title: 'Nursery shelves', markdown: 'Ours:\n\n![](/images/posts/shelves.svg)' }),
    );
    const refused = await call(app, 'POST', `/api/studio/posts/${postId}/publish`, {
      token: editor.token,
      body: {},
    });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^markdown: an image has no alt text \(\/images\/posts\/shelves\.svg\)/,
    );
    expect(await readerRow(postId)).toMatchObject({ status: 'draft', is_published: 0 });
    await edit(author, postId, { markdown: 'Ours:\n\n![Three white shelves](/images/posts/shelves.svg)' });
    await publish(postId);
    expect((await reader(slug)).status).toBe(200);
  });

  it('forwards a published post’s old address to its new one once that is live', async () => {
    later(MINUTE);
    const { postId } = await create(author, draft({ title: 'Sleep schedules', slug: 'sleep-schedules' }));
    await publish(postId);
    later(MINUTE);
    await edit(editor, postId, { slug: 'baby-sleep-schedules' });
    // Saved, not published: the old address is still the post, nothing forwards yet.
    expect((await reader('sleep-schedules')).status).toBe(200);
    expect((await reader('baby-sleep-schedules')).status).toBe(404);

    await publish(postId);
    const live = (await liveRelease(db))!;
    expect(await redirectTarget(db, live, 'sleep-schedules')).toBe('baby-sleep-schedules');
    expect(await reader('baby-sleep-schedules')).toEqual({ status: 200, title: 'Sleep schedules' });
    expect(
      await db
        .selectFrom('post_redirects')
        .select(['from_slug', 'post_id'])
        .where('post_id', '=', postId)
        .execute(),
    ).toEqual([{ from_slug: 'sleep-schedules', post_id: postId }]);

    // The old address stays the post's: no other post may take it.
    const taken = await call(app, 'POST', '/api/studio/posts', {
      token: author.token,
      body: draft({ slug: 'sleep-schedules' }),
    });
    expect(taken.status).toBe(409);

    // Going back to it removes the forward.
    later(MINUTE);
    await edit(editor, postId, { slug: 'sleep-schedules' });
    await publish(postId);
    expect(
      await db.selectFrom('post_redirects').select('from_slug').where('post_id', '=', postId).execute(),
    ).toEqual([{ from_slug: 'baby-sleep-schedules' }]);
    expect(await redirectTarget(db, (await liveRelease(db))!, 'sleep-schedules')).toBeNull();
  });

  it('follows a publish run for editors', async () => {
    later(MINUTE);
    const { postId } = await create(author, draft({ title: 'Run to follow' }));
    const answer = await publish(postId);
    const run = await expectJson<PublishRun>(
      call(app, 'GET', `/api/studio/releases/${answer.releaseId}`, { token: editor.token }),
      200,
    );
    expect(run).toMatchObject({ id: answer.releaseId, state: 'succeeded', live: true });
    expect(run.trigger).toContain('studio (Eda Editor)');
  });
});

describe('history', () => {
  it('restores an earlier revision as a new one, never publishing it', async () => {
    later(MINUTE);
    const { postId, slug } = await create(
      author,
      draft({ title: 'Baby-led weaning', markdown: 'First text.' }),
    );
    await publish(postId);
    later(MINUTE);
    await edit(author, postId, { title: 'Weaning, revised', markdown: 'Second text.' });
    const published = await readerRow(postId);

    later(MINUTE);
    const restored = await expectJson<StudioPostSaved>(
      call(app, 'POST', `/api/studio/posts/${postId}/revisions/1/restore`, { token: author.token }),
      201,
    );
    expect(restored).toEqual({ revision: 3, slug, updatedAt: now.toISOString() });
    const post = await open(author, postId);
    expect(post).toMatchObject({
      revision: 3,
      title: 'Baby-led weaning',
      markdown: 'First text.',
      publishedRevision: 1,
    });
    const [latest] = await expectJson<StudioRevision[]>(
      call(app, 'GET', `/api/studio/posts/${postId}/revisions`, { token: editor.token }),
      200,
    );
    expect(latest).toMatchObject({ revision: 3, restoredFrom: 1, savedBy: 'Ada Author' });
    expect(await readerRow(postId)).toEqual(published);
    expect((await auditOf(postId))[0]).toMatchObject({
      action: 'post.restore',
      details: { revision: 3, restoredFrom: 1 },
    });

    // A draft's restore stays a draft.
    const fresh = await create(author, draft({ title: 'Draft to restore' }));
    await edit(author, fresh.postId, { markdown: 'Changed.' });
    await expectJson(
      call(app, 'POST', `/api/studio/posts/${fresh.postId}/revisions/1/restore`, { token: author.token }),
      201,
    );
    expect(await readerRow(fresh.postId)).toMatchObject({ status: 'draft', is_published: 0 });

    const missing = await call(app, 'POST', `/api/studio/posts/${postId}/revisions/99/restore`, {
      token: editor.token,
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toContain('no revision 99');
  });
});

describe('sanitizing', () => {
  const HOSTILE = [
    'Hello <script>alert(1)</script>',
    '',
    '<img src="/x.png" onerror="alert(2)" alt="x">',
    '',
    '[click](javascript:alert(3)) and <a href="javascript:alert(4)">this</a>',
  ].join('\n');
  const unsafe = (html: string) => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/onerror/i);
    expect(html).not.toMatch(/javascript:/i);
  };

  it('renders the preview and the post as the build does: no script, handler or javascript: link', async () => {
    const rendered = await expectJson<RenderedMarkdown>(
      call(app, 'POST', '/api/studio/render', { token: author.token, body: { markdown: HOSTILE } }),
      200,
    );
    unsafe(rendered.html);
    expect(rendered.html).toContain('<img src="/x.png" alt="x">');
    // Hello, click, and, this: the script's text is gone with it.
    expect(rendered.wordCount).toBe(4);

    const { postId } = await create(author, draft({ title: 'Hostile markdown', markdown: HOSTILE }));
    unsafe((await readerRow(postId)).content);
    unsafe((await open(author, postId)).html);
    await publish(postId);
    unsafe((await readerRow(postId)).content);
    const post = await expectJson<BlogPost>(app.request('/api/blog/posts/hostile-markdown'), 200);
    unsafe(post.content);
  });
});
