// npm run content:export -- [folder] — writes every post in the database (DATABASE_URL, else
// DATABASE_PATH) as Markdown with frontmatter, in the form of content/posts, into a new or empty
// folder (default ./content-export): <folder>/posts/<slug>.md and <folder>/blog-categories.json.
// The sync imports that folder; exporting the database it makes gives the same files
// (docs/decisions/018).
import path from 'node:path';
import { databaseLocation, describeDatabase, openDatabase } from '../api/db/database.ts';
import { ExportError, writeExport } from '../api/db/export.ts';
import { migrateToLatest } from '../api/db/migrate.ts';
import { commandLine } from './lib/command-line.ts';
import { loadEnv } from './lib/env.ts';

const DEFAULT_FOLDER = 'content-export';

const { args } = commandLine({
  usage: 'npm run content:export -- [folder]   (a new or empty folder; default ./content-export)',
  takes: ['a folder'],
  refusal: 'Nothing was exported',
});
const folder = args[0] ?? DEFAULT_FOLDER;
const env = loadEnv();
const location = databaseLocation(env);
const db = openDatabase(location);
try {
  await migrateToLatest(db);
  const written = await writeExport(db, folder);
  for (const post of written.posts) {
    const state = post.draft
      ? `draft, revision ${post.revision}`
      : `published, revision ${post.revision}` +
        (post.unpublishedChanges ? '; its later revisions are not published, so not in the file' : '');
    console.log(`  ${path.join(folder, 'posts', post.file)} (${state})`);
  }
  console.log(`  ${path.join(folder, 'blog-categories.json')} (${written.categories.length} categories)`);
  console.log(
    `Exported ${written.posts.length} posts from ${describeDatabase(location)} to ${folder}/. ` +
      'No file was overwritten.',
  );
  for (const slug of written.withoutRevision) {
    console.error(
      `Not written: ${slug} has no revision yet (imported from a file before posts had revisions; ` +
        'the next sync with its file gives it one).',
    );
  }
  for (const clash of written.clashes) {
    console.error(
      `Not written: post #${clash.postId}, because another post already has the slug ${clash.slug}.`,
    );
  }
  for (const reason of written.unreadable) console.error(`Not written: ${reason}`);
  if (written.withoutRevision.length + written.clashes.length + written.unreadable.length > 0) {
    process.exitCode = 1;
  }
} catch (error) {
  if (!(error instanceof ExportError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
