// A published post's old address answers 301 to its new one on the real server (api/server.ts), over
// a real database (SQLite, and PostgreSQL in api-pg): exactly while the live release has the post
// under another slug, so it forwards when the new page is live, and never from a live address.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DB } from '../../api/db/database.ts';
import { openDatabase } from '../../api/db/database.ts';
import { addRedirect } from '../../api/db/queries/redirects.ts';
import { rollbackRelease } from '../../api/db/queries/releases.ts';
import { loadContent } from '../../api/db/content.ts';
import { syncContent } from '../../api/db/sync.ts';
import { liveReleaseSource } from '../../api/lib/live-release.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { createContentDir } from '../helpers/content-fixture.ts';
import { createTestDb, releaseNow, TEST_NOW } from '../helpers/test-db.ts';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** The real server over the database and SITE_DIR, following a switch at once. */
async function serve(location: string, siteDir: string): Promise<RunningServer> {
  const db = openDatabase(location);
  const server = await startServer({
    db,
    siteDir,
    host: '127.0.0.1',
    port: 0,
    deps: { release: liveReleaseSource(db, { ttlMs: 0 }), now: () => TEST_NOW },
  });
  stops.push(() => server.close());
  return server;
}

/** Makes what the database holds live, with a page per post of the release (as a build writes). */
async function publish(db: DB, siteDir: string): Promise<number> {
  const id = await releaseNow(db);
  const posts = await db.selectFrom('release_posts').select('slug').where('release_id', '=', id).execute();
  const root = path.join(siteDir, String(id));
  fs.mkdirSync(path.join(root, 'blog'), { recursive: true });
  fs.writeFileSync(path.join(root, 'blog', '404.html'), '<h1>Post Not Found</h1>');
  for (const { slug } of posts) {
    fs.mkdirSync(path.join(root, 'blog', slug), { recursive: true });
    fs.writeFileSync(path.join(root, 'blog', slug, 'index.html'), `<h1>${slug} in release ${id}</h1>`);
  }
  return id;
}

/** What a reader's browser gets for /blog/<path>, without following a redirect. */
async function visit(server: RunningServer, address: string) {
  const res = await fetch(`${server.url}/blog/${address}`, { redirect: 'manual' });
  const body = await res.text();
  return {
    status: res.status,
    location: res.headers.get('location'),
    page: res.status === 200 ? body : null,
  };
}

/** As the studio renames a published post: the new slug waits for a publish, the old one forwards. */
async function rename(db: DB, from: string, to: string): Promise<void> {
  const { post_id } = await db
    .updateTable('blog_posts')
    .set({ slug: to, source: 'studio' })
    .where('slug', '=', from)
    .returning('post_id')
    .executeTakeFirstOrThrow();
  await addRedirect(db, from, post_id, TEST_NOW);
}

describe("a published post's old address", () => {
  it('answers 301 to the new one exactly while the release with the new slug is live', async () => {
    const { db, location } = await createTestDb({ seed: false });
    stops.push(() => db.destroy());
    await syncContent(
      db,
      loadContent(createContentDir([{ slug: 'first-name' }, { slug: 'neighbour' }])),
      TEST_NOW,
    );
    const siteDir = tempDir();
    const first = await publish(db, siteDir);
    const server = await serve(location, siteDir);

    await rename(db, 'first-name', 'second-name');
    // Renamed, not yet published: readers still have the post at its old address.
    expect(await visit(server, 'first-name')).toEqual({
      status: 200,
      location: null,
      page: `<h1>first-name in release ${first}</h1>`,
    });
    expect(await visit(server, 'second-name')).toMatchObject({ status: 404, location: null });

    const second = await publish(db, siteDir);
    expect(await visit(server, 'first-name')).toEqual({
      status: 301,
      location: '/blog/second-name',
      page: null,
    });
    // With its trailing slash, and a query kept.
    expect(await visit(server, 'first-name/?utm_source=rss')).toMatchObject({
      status: 301,
      location: '/blog/second-name?utm_source=rss',
    });
    expect(await visit(server, 'second-name')).toMatchObject({
      status: 200,
      page: `<h1>second-name in release ${second}</h1>`,
    });
    // Any other unknown post is still the blog's 404.
    expect(await visit(server, 'never-was')).toEqual({ status: 404, location: null, page: null });
    expect(await fetch(`${server.url}/blog/never-was`).then((r) => r.text())).toBe('<h1>Post Not Found</h1>');

    // Renamed again: both earlier addresses forward to the newest, once it is live.
    await rename(db, 'second-name', 'third-name');
    expect(await visit(server, 'first-name')).toMatchObject({ status: 301, location: '/blog/second-name' });
    await publish(db, siteDir);
    expect(await visit(server, 'first-name')).toMatchObject({ status: 301, location: '/blog/third-name' });
    expect(await visit(server, 'second-name')).toMatchObject({ status: 301, location: '/blog/third-name' });

    // Back to an older release: its addresses are live again, and the newer one is unknown there.
    await rollbackRelease(db, { uid: null, name: 'test' }, null, TEST_NOW);
    expect(await visit(server, 'second-name')).toMatchObject({ status: 200 });
    expect(await visit(server, 'first-name')).toMatchObject({ status: 301, location: '/blog/second-name' });
    expect(await visit(server, 'third-name')).toMatchObject({ status: 404, location: null });
  });

  it('never forwards from an address that is live itself', async () => {
    const { db, location } = await createTestDb({ seed: false });
    stops.push(() => db.destroy());
    await syncContent(db, loadContent(createContentDir([{ slug: 'home-address' }])), TEST_NOW);
    const siteDir = tempDir();
    await publish(db, siteDir);
    const server = await serve(location, siteDir);
    await rename(db, 'home-address', 'away');
    await publish(db, siteDir);
    expect(await visit(server, 'home-address')).toMatchObject({ status: 301, location: '/blog/away' });

    // The post takes its old address back while the old redirect row is still there: the release
    // has it at that address, so it is served there (or is the blog's 404), never sent to itself.
    await db.updateTable('blog_posts').set({ slug: 'home-address' }).where('slug', '=', 'away').execute();
    const back = await publish(db, siteDir);
    expect(await visit(server, 'home-address')).toMatchObject({ status: 200 });
    fs.rmSync(path.join(siteDir, String(back), 'blog', 'home-address'), { recursive: true });
    expect(await visit(server, 'home-address')).toEqual({ status: 404, location: null, page: null });
  });
});
