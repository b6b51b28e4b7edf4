// `npm run content:export` (docs/decisions/018) on a real database (SQLite, and PostgreSQL in
// api-pg): every post written as a content/posts file, which the sync imports into an empty
// database whose export is the same files, byte for byte.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StudioPostFields } from '../../api/contract/studio.ts';
import { loadContent } from '../../api/db/content.ts';
import type { DB } from '../../api/db/database.ts';
import { writeExport } from '../../api/db/export.ts';
import { addRevision } from '../../api/db/queries/post-revisions.ts';
import { syncContent } from '../../api/db/sync.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { createContentDir } from '../helpers/content-fixture.ts';
import { databaseEnv, runScript } from '../helpers/run-script.ts';
import { createTestDb, TEST_NOW } from '../helpers/test-db.ts';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function emptyDb() {
  const made = await createTestDb({ seed: false });
  stops.push(() => made.db.destroy());
  return made;
}

const TRICKY_TITLE = 'She said "yes": then — naïve café 👶 # not a comment';
const TRICKY_MARKDOWN = [
  '---',
  '',
  'title: "not frontmatter": a line that looks like YAML',
  '',
  '> Quotes “curly” and "straight", a colon: here, and 日本語 🍼',
  '',
  '---',
  '```yaml',
  'key: value',
  '```',
].join('\n');

function fields(overrides: Partial<StudioPostFields> & Pick<StudioPostFields, 'slug'>): StudioPostFields {
  return {
    title: `Studio ${overrides.slug}`,
    excerpt: '',
    markdown: 'A body.',
    categories: [],
    kind: 'article',
    featured: false,
    featuredImageUrl: null,
    featuredImageAlt: null,
    ...overrides,
  };
}

/**
 * A post written in the studio with these revisions; `published` is the revision readers have
 * (null: never published, so no publishedAt either).
 */
async function studioPost(db: DB, revisions: StudioPostFields[], published: number | null): Promise<number> {
  const shown = revisions[(published ?? revisions.length) - 1]!;
  return db.transaction().execute(async (trx) => {
    const { post_id } = await trx
      .insertInto('blog_posts')
      .values({
        slug: shown.slug,
        title: shown.title,
        excerpt: shown.excerpt,
        content: '<p>A body.</p>',
        featured_image_url: shown.featuredImageUrl,
        featured_image_alt: shown.featuredImageAlt,
        author_name: 'Edie: the "Editor"',
        author_uid: 'editor-uid',
        kind: shown.kind,
        is_featured: shown.featured ? 1 : 0,
        is_published: published === null ? 0 : 1,
        status: published === null ? 'draft' : 'published',
        source: 'studio',
        published_at: published === null ? null : '2026-11-02T08:15:30Z',
        created_at: '2026-11-01T09:00:00.000Z',
        updated_at: '2026-11-01T09:00:00.000Z',
        reading_time_minutes: 1,
        source_hash: null,
      })
      .returning('post_id')
      .executeTakeFirstOrThrow();
    for (const revision of revisions) {
      await addRevision(trx, post_id, revision, { uid: 'editor-uid', name: 'Edie' }, TEST_NOW);
    }
    await trx
      .updateTable('blog_posts')
      .set({ published_revision: published })
      .where('post_id', '=', post_id)
      .execute();
    return post_id;
  });
}

/** Every file under a folder, by its path there, with its bytes. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full)] = fs.readFileSync(full, 'latin1');
  }
  return out;
}

/** Database A: file posts (one with categories and a featured image, a draft, a scheduled one, a
 * withdrawn one, one with tricky Markdown) and studio posts (one with unpublished changes, a draft). */
async function databaseA(db: DB) {
  const dir = createContentDir([
    {
      slug: 'with-categories',
      categories: ['news', 'tips'],
      featured: true,
      featuredImage: '/images/posts/pram.svg',
      extra: 'featuredImageAlt: "A blue pram: folded"',
    },
    { slug: 'a-file-draft', draft: true, body: 'Not yet.' },
    { slug: 'scheduled', publishedAt: '2026-12-24T18:00:00Z' },
    { slug: 'tricky-file', title: TRICKY_TITLE, body: TRICKY_MARKDOWN, kind: 'discussion' },
    { slug: 'gone' },
  ]);
  await syncContent(db, loadContent(dir), TEST_NOW);
  fs.rmSync(path.join(dir, 'posts', 'gone.md'));
  await syncContent(db, loadContent(dir), new Date(TEST_NOW.getTime() + 60_000));

  const edited = await studioPost(
    db,
    [
      fields({
        slug: 'studio-published',
        title: TRICKY_TITLE,
        excerpt: 'Two lines:\n--- and a "quote"\u2028 and a separator',
        markdown: `${TRICKY_MARKDOWN}\n`,
        categories: ['tips'],
        featuredImageUrl: '/api/images/abcdef0123-4000x3000/1600.webp',
        featuredImageAlt: 'A child’s “first” shoes: red',
      }),
      fields({ slug: 'studio-published-renamed', title: 'Not published yet', markdown: 'Later text.' }),
    ],
    1,
  );
  await studioPost(db, [fields({ slug: 'studio-draft', title: 'null', excerpt: 'true' })], null);
  return { dir, edited };
}

describe('npm run content:export', () => {
  it('writes every post so that importing the folder and exporting again gives the same bytes', async () => {
    const { db: a } = await emptyDb();
    await databaseA(a);
    const first = path.join(tempDir(), 'first');
    const written = await writeExport(a, first);
    expect(written.withoutRevision).toEqual([]);
    expect(written.clashes).toEqual([]);
    expect(written.posts.map((p) => [p.file, p.draft, p.revision, p.unpublishedChanges])).toEqual([
      ['a-file-draft.md', true, 1, false],
      ['gone.md', true, 1, false],
      ['scheduled.md', false, 1, false],
      ['studio-draft.md', true, 1, false],
      // Readers' version of a post edited since it was published (revision 2 is not theirs yet).
      ['studio-published.md', false, 1, true],
      ['tricky-file.md', false, 1, false],
      ['with-categories.md', false, 1, false],
    ]);
    const exported = files(first);
    expect(Object.keys(exported).sort()).toEqual([
      'blog-categories.json',
      ...written.posts.map((p) => path.join('posts', p.file)),
    ]);
    expect(fs.readFileSync(path.join(first, 'posts', 'with-categories.md'), 'utf8')).toBe(
      [
        '---',
        'title: "Post with-categories"',
        'slug: with-categories',
        'excerpt: "Excerpt of with-categories"',
        'author: Test Author',
        'publishedAt: 2026-01-01T00:00:00.000Z',
        'categories: [news, tips]',
        'featured: true',
        'kind: article',
        'featuredImage: /images/posts/pram.svg',
        'featuredImageAlt: "A blue pram: folded"',
        '---',
        'Body of with-categories.',
        '',
      ].join('\n'),
    );
    const draft = fs.readFileSync(path.join(first, 'posts', 'studio-draft.md'), 'utf8');
    expect(draft).toContain('title: "null"\n');
    expect(draft).toContain('excerpt: "true"\n');
    // A draft never published gets the time it was created; publishing sets its own.
    expect(draft).toContain('publishedAt: 2026-11-01T09:00:00.000Z\n');
    expect(draft).toContain('draft: true\n---\n');
    expect(fs.readFileSync(path.join(first, 'posts', 'studio-published.md'), 'utf8')).toContain(
      `author: "Edie: the \\"Editor\\""\npublishedAt: 2026-11-02T08:15:30.000Z\n`,
    );

    // Imported into an empty database by the sync, every post is what it was in A.
    const { db: b } = await emptyDb();
    const imported = await syncContent(b, loadContent(first), TEST_NOW);
    expect(imported.inserted).toHaveLength(7);
    const post = await b
      .selectFrom('post_revisions')
      .innerJoin('blog_posts', 'blog_posts.post_id', 'post_revisions.post_id')
      .select(['post_revisions.title', 'post_revisions.excerpt', 'post_revisions.markdown'])
      .select(['blog_posts.status', 'blog_posts.featured_image_alt', 'blog_posts.author_name'])
      .where('blog_posts.slug', '=', 'studio-published')
      .executeTakeFirstOrThrow();
    expect(post).toEqual({
      title: TRICKY_TITLE,
      excerpt: 'Two lines:\n--- and a "quote"\u2028 and a separator',
      markdown: TRICKY_MARKDOWN,
      status: 'published',
      featured_image_alt: 'A child’s “first” shoes: red',
      author_name: 'Edie: the "Editor"',
    });
    const states = await b.selectFrom('blog_posts').select(['slug', 'status']).orderBy('slug').execute();
    expect(states.filter((s) => s.status === 'draft').map((s) => s.slug)).toEqual([
      'a-file-draft',
      'gone',
      'studio-draft',
    ]);

    const second = path.join(tempDir(), 'second');
    await writeExport(b, second);
    expect(files(second)).toEqual(exported);
  });

  // Each run starts a process (a few seconds on a busy 2-core machine), hence the longer timeout.
  it(
    'prints what it wrote, and never writes into a folder that has files',
    { timeout: 120_000 },
    async () => {
      const { db, location } = await emptyDb();
      const { dir } = await databaseA(db);
      const env = databaseEnv(location);
      const folder = path.join(tempDir(), 'out');
      const done = await runScript('scripts/content-export.ts', [folder], env);
      expect(done.output).toContain(
        `  ${path.join(folder, 'posts', 'studio-published.md')} (published, revision 1; its later revisions are not published, so not in the file)`,
      );
      expect(done.output).toContain(`  ${path.join(folder, 'posts', 'a-file-draft.md')} (draft, revision 1)`);
      expect(done.output).toContain(`  ${path.join(folder, 'blog-categories.json')} (2 categories)`);
      expect(done.output).toContain(`Exported 7 posts from `);
      expect(done.code).toBe(0);

      // A post with no revision yet (a database from before revisions) is named, and the run fails.
      const { post_id } = await db
        .updateTable('blog_posts')
        .set({ revision: 0, published_revision: null })
        .where('slug', '=', 'scheduled')
        .returning('post_id')
        .executeTakeFirstOrThrow();
      await db.deleteFrom('post_revisions').where('post_id', '=', post_id).execute();
      // And one the file format cannot hold: a featured image that is not on this site.
      await studioPost(db, [fields({ slug: 'elsewhere', featuredImageUrl: 'https://example.com/a.jpg' })], 1);
      const before = files(dir);
      const partialDir = path.join(tempDir(), 'partial');
      const [refused, partial] = await Promise.all([
        // A content folder (content/ itself, say) is left as it was.
        runScript('scripts/content-export.ts', [dir], env),
        runScript('scripts/content-export.ts', [partialDir], env),
      ]);
      expect(refused.output).toContain(`${dir} is not empty: name a new or empty folder`);
      expect(refused.code).toBe(1);
      expect(files(dir)).toEqual(before);
      expect(partial.output).toContain('Not written: scheduled has no revision yet');
      expect(partial.output).toMatch(/Not written: \S+\/partial\/posts\/elsewhere\.md: featuredImage: /);
      expect(fs.existsSync(path.join(partialDir, 'posts', 'elsewhere.md'))).toBe(false);
      expect(partial.output).toContain('Exported 6 posts');
      expect(partial.code).toBe(1);
    },
  );
});
