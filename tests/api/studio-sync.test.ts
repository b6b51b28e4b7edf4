// How content/posts and the studio's posts meet (docs/decisions/018), on a real database file (and
// PostgreSQL in api-pg): the sync and a real publish never touch a post written or edited in the
// studio, skip and report a file that would, and keep a revision of every change to a file post.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { StudioPostFields } from '../../api/contract/studio.ts';
import { loadContent } from '../../api/db/content.ts';
import type { DB } from '../../api/db/database.ts';
import { addRevision, listRevisions } from '../../api/db/queries/post-revisions.ts';
import { addRedirect } from '../../api/db/queries/redirects.ts';
import { syncContent } from '../../api/db/sync.ts';
import { createPublisher } from '../../scripts/lib/publisher.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { createContentDir, writePost } from '../helpers/content-fixture.ts';
import { createTestDb, TEST_NOW } from '../helpers/test-db.ts';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

const later = (minutes: number) => new Date(TEST_NOW.getTime() + minutes * 60_000);

/** A fresh migrated database with nothing in it. */
async function emptyDb(): Promise<DB> {
  const { db } = await createTestDb({ seed: false });
  stops.push(() => db.destroy());
  return db;
}

const sync = (db: DB, dir: string, now = TEST_NOW) => syncContent(db, loadContent(dir), now);

function fields(slug: string, overrides: Partial<StudioPostFields> = {}): StudioPostFields {
  return {
    title: `Written in the studio: ${slug}`,
    slug,
    excerpt: 'Studio excerpt',
    markdown: 'Studio **body**.',
    categories: ['tips'],
    kind: 'article',
    featured: false,
    featuredImageUrl: null,
    featuredImageAlt: null,
    ...overrides,
  };
}

/** A published post written in the studio, as the studio's publish leaves it. */
async function studioPost(db: DB, slug: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { post_id } = await trx
      .insertInto('blog_posts')
      .values({
        slug,
        title: `Written in the studio: ${slug}`,
        excerpt: 'Studio excerpt',
        content: '<p>Studio <strong>body</strong>.</p>',
        featured_image_url: null,
        author_name: 'Edie Editor',
        author_uid: 'editor-uid',
        kind: 'article',
        is_featured: 0,
        is_published: 1,
        status: 'published',
        source: 'studio',
        published_at: '2026-11-01T10:00:00.000Z',
        created_at: '2026-11-01T09:00:00.000Z',
        updated_at: '2026-11-01T10:00:00.000Z',
        reading_time_minutes: 1,
        source_hash: null,
      })
      .returning('post_id')
      .executeTakeFirstOrThrow();
    const revision = await addRevision(
      trx,
      post_id,
      fields(slug),
      { uid: 'editor-uid', name: 'Edie Editor' },
      TEST_NOW,
    );
    await trx
      .updateTable('blog_posts')
      .set({ published_revision: revision })
      .where('post_id', '=', post_id)
      .execute();
    return post_id;
  });
}

/** A file post once saved in the studio: the studio flips its source and keeps a revision. */
async function saveInStudio(db: DB, slug: string, changes: Partial<StudioPostFields> = {}): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { post_id } = await trx
      .selectFrom('blog_posts')
      .select('post_id')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow();
    await addRevision(
      trx,
      post_id,
      fields(slug, changes),
      { uid: 'editor-uid', name: 'Edie Editor' },
      TEST_NOW,
    );
    await trx.updateTable('blog_posts').set({ source: 'studio' }).where('post_id', '=', post_id).execute();
    return post_id;
  });
}

const row = (db: DB, slug: string) =>
  db.selectFrom('blog_posts').selectAll().where('slug', '=', slug).executeTakeFirstOrThrow();

/** The tables a sync writes for posts, whole, to show that a second run changes nothing. */
async function postTables(db: DB): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of ['blog_posts', 'post_categories', 'post_revisions', 'post_likes']) {
    out[table] = (await sql`select * from ${sql.table(table)} order by 1, 2`.execute(db)).rows;
  }
  return out;
}

describe('the sync and the studio', () => {
  it('never unpublishes or changes a studio post, through a sync or a real publish of content/ without its file', async () => {
    const db = await emptyDb();
    const dir = createContentDir([{ slug: 'from-a-file' }, { slug: 'taken-over' }]);
    await sync(db, dir);
    const written = await studioPost(db, 'written-here');
    await saveInStudio(db, 'taken-over', { title: 'Edited in the studio' });
    // Neither studio post has a file now (the taken-over one's file is removed).
    fs.rmSync(path.join(dir, 'posts', 'taken-over.md'));
    const before = [await row(db, 'written-here'), await row(db, 'taken-over')];

    const result = await sync(db, dir, later(1));
    expect(result).toMatchObject({ inserted: [], updated: [], unpublished: [], skipped: [], unchanged: 1 });
    expect([await row(db, 'written-here'), await row(db, 'taken-over')]).toEqual(before);

    // A real publish (the publisher's sync, snapshot and switch; the site build is a folder).
    const lines: string[] = [];
    const publisher = createPublisher({
      db,
      contentDir: dir,
      siteDir: path.join(tempDir(), 'site'),
      buildEnv: {},
      now: () => later(2),
      log: (line) => lines.push(line),
      build: async (outDir) => void fs.mkdirSync(outDir, { recursive: true }),
    });
    stops.push(() => publisher.idle());
    const run = await publisher.finished((await publisher.request('editor')).id);
    expect(run).toMatchObject({ state: 'succeeded', live: true });
    expect([await row(db, 'written-here'), await row(db, 'taken-over')]).toEqual(before);
    const live = await db
      .selectFrom('release_posts')
      .select(['slug', 'title'])
      .where('release_id', '=', run.id)
      .orderBy('slug')
      .execute();
    expect(live).toEqual([
      { slug: 'from-a-file', title: 'Post from-a-file' },
      // What readers have: the studio's save is a draft until the studio publishes it.
      { slug: 'taken-over', title: 'Post taken-over' },
      { slug: 'written-here', title: 'Written in the studio: written-here' },
    ]);
    expect((await listRevisions(db, written)).map((r) => r.revision)).toEqual([1]);
    expect(lines.join('\n')).toContain('0 new, 0 changed, 0 withdrawn. Building');
  });

  it('skips and reports a file whose post is edited in the studio, and the publisher says so', async () => {
    const db = await emptyDb();
    const dir = createContentDir([{ slug: 'renamed-in-studio' }]);
    await sync(db, dir);
    await studioPost(db, 'written-here');
    // The file post is saved in the studio under a new slug, published, and its old address kept.
    const renamed = await saveInStudio(db, 'renamed-in-studio', { slug: 'a-new-name' });
    await db.updateTable('blog_posts').set({ slug: 'a-new-name' }).where('post_id', '=', renamed).execute();
    await addRedirect(db, 'renamed-in-studio', renamed, TEST_NOW);
    // Someone adds a file with the studio post's slug, and one with an old address of a post.
    writePost(dir, { slug: 'written-here', title: 'A file that would overwrite it' });
    writePost(dir, { slug: 'old-address', title: 'A file on an old address' });
    const oldAddressOf = await studioPost(db, 'moved-away');
    await addRedirect(db, 'old-address', oldAddressOf, TEST_NOW);
    const before = await postTables(db);

    const result = await sync(db, dir, later(1));
    expect(result).toEqual({
      inserted: [],
      updated: [],
      unpublished: [],
      unchanged: 0,
      skipped: ['old-address', 'renamed-in-studio', 'written-here'],
    });
    expect(await postTables(db)).toEqual(before);

    const lines: string[] = [];
    const publisher = createPublisher({
      db,
      contentDir: dir,
      siteDir: path.join(tempDir(), 'site'),
      buildEnv: {},
      now: () => later(2),
      log: (line) => lines.push(line),
      build: async (outDir) => void fs.mkdirSync(outDir, { recursive: true }),
    });
    stops.push(() => publisher.idle());
    await publisher.finished((await publisher.request('editor')).id);
    expect(lines.join('\n')).toContain(
      '0 new, 0 changed, 0 withdrawn, 3 skipped: edited in the studio (old-address, renamed-in-studio, written-here).',
    );
    expect(await row(db, 'written-here')).toMatchObject({ title: 'Written in the studio: written-here' });
  });

  it('keeps a revision of every change to a file post, none for an unchanged file', async () => {
    const db = await emptyDb();
    const dir = createContentDir([
      { slug: 'kept', categories: ['news', 'tips'], body: 'First *body*.' },
      { slug: 'removed' },
    ]);
    expect((await sync(db, dir)).inserted).toEqual(['kept', 'removed']);
    const { post_id: kept } = await row(db, 'kept');
    expect(await listRevisions(db, kept)).toEqual([
      {
        revision: 1,
        title: 'Post kept',
        slug: 'kept',
        excerpt: 'Excerpt of kept',
        markdown: 'First *body*.',
        categories: ['news', 'tips'],
        kind: 'article',
        featured: false,
        featuredImageUrl: '/images/posts/kept.svg',
        featuredImageAlt: null,
        savedAt: TEST_NOW.toISOString(),
        savedBy: 'content/posts/kept.md',
        restoredFrom: null,
      },
    ]);
    expect(await row(db, 'kept')).toMatchObject({
      source: 'file',
      status: 'published',
      is_published: 1,
      revision: 1,
      published_revision: 1,
    });
    const revisionsBy = await db
      .selectFrom('post_revisions')
      .select('saved_by_uid')
      .where('post_id', '=', kept)
      .execute();
    expect(revisionsBy).toEqual([{ saved_by_uid: null }]);

    // Unchanged: nothing at all changes.
    const before = await postTables(db);
    expect(await sync(db, dir, later(1))).toMatchObject({ unchanged: 2, updated: [] });
    expect(await postTables(db)).toEqual(before);

    // Changed: one revision, and readers get it.
    writePost(dir, {
      slug: 'kept',
      categories: ['tips'],
      body: 'Second body.',
      extra: 'featuredImageAlt: "A pram"',
    });
    expect((await sync(db, dir, later(2))).updated).toEqual(['kept']);
    expect(
      (await listRevisions(db, kept)).map((r) => [r.revision, r.markdown, r.categories, r.featuredImageAlt]),
    ).toEqual([
      [2, 'Second body.', ['tips'], 'A pram'],
      [1, 'First *body*.', ['news', 'tips'], null],
    ]);
    expect(await row(db, 'kept')).toMatchObject({
      status: 'published',
      revision: 2,
      published_revision: 2,
      featured_image_alt: 'A pram',
    });

    // Marked draft: a revision, and no revision is what readers have.
    writePost(dir, { slug: 'kept', categories: ['tips'], body: 'Second body.', draft: true });
    fs.rmSync(path.join(dir, 'posts', 'removed.md'));
    const third = await sync(db, dir, later(3));
    expect(third).toMatchObject({ updated: ['kept'], unpublished: ['removed', 'kept'] });
    expect(await row(db, 'kept')).toMatchObject({
      status: 'draft',
      is_published: 0,
      revision: 3,
      published_revision: null,
    });
    // A file post whose file is gone is withdrawn, its text kept.
    expect(await row(db, 'removed')).toMatchObject({
      status: 'withdrawn',
      is_published: 0,
      revision: 1,
      published_revision: null,
    });

    const settled = await postTables(db);
    expect(await sync(db, dir, later(4))).toMatchObject({ inserted: [], updated: [], unpublished: [] });
    expect(await postTables(db)).toEqual(settled);
  });

  it('gives a file post of a database from before revisions its first revision, once', async () => {
    const db = await emptyDb();
    const dir = createContentDir([
      { slug: 'old-post', body: 'Old *body*.' },
      { slug: 'old-draft', draft: true },
    ]);
    await sync(db, dir);
    // As a database migrated from before this change has it: no revision yet.
    await db.deleteFrom('post_revisions').execute();
    await db.updateTable('blog_posts').set({ revision: 0, published_revision: null }).execute();

    const result = await sync(db, dir, later(1));
    expect(result).toMatchObject({ inserted: [], updated: [], unchanged: 2 });
    const post = await row(db, 'old-post');
    expect(post).toMatchObject({ revision: 1, published_revision: 1, status: 'published' });
    expect(await listRevisions(db, post.post_id)).toEqual([
      expect.objectContaining({
        revision: 1,
        markdown: 'Old *body*.',
        savedBy: 'content/posts/old-post.md',
        savedAt: later(1).toISOString(),
      }),
    ]);
    expect(await row(db, 'old-draft')).toMatchObject({
      revision: 1,
      published_revision: null,
      status: 'draft',
    });

    const before = await postTables(db);
    await sync(db, dir, later(2));
    expect(await postTables(db)).toEqual(before);
  });
});
