// The publishing pipeline over real SQLite files, with the real server serving the live release's
// folder and the real API. Two publishers over one database file, each with its own connection,
// stand for two server instances. The site build is the publisher's injected step: here it writes
// a page per post of the candidate release, read through the real API in-process as the Astro
// build does, and waits until the test lets it finish (tests/e2e/publish.test.ts runs the real
// build).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import type {
  BlogCategory,
  BlogPost,
  CategoryCounts,
  Item,
  PublishProgress,
  PublishRun,
  PublishStatus,
} from '../../api/contract.ts';
import { type DB, openDatabase } from '../../api/db/database.ts';
import { listAudit } from '../../api/db/queries/audit.ts';
import { acquirePublishLock } from '../../api/db/queries/publish-lock.ts';
import { claimQueuedRelease, enqueueRelease, findRun, publishStatus } from '../../api/db/queries/releases.ts';
import { fixedReleaseSource, liveReleaseSource } from '../../api/lib/live-release.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import { createPublisher, type Publisher, type PublisherOptions } from '../../scripts/lib/publisher.ts';
import { createContentDir, writePost } from '../helpers/content-fixture.ts';
import { startListener } from '../helpers/listener.ts';
import { call, emulatorVerifier, expectJson, newParent } from '../helpers/parents.ts';
import { databaseEnv, runScript } from '../helpers/run-script.ts';
import { createTestDb, TEST_NOW } from '../helpers/test-db.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { importListings } from '../../api/db/queries/listings.ts';
import { parseListings } from '../../api/screening/listing-input.ts';

const ROMPER = {
  itemId: 'item-romper',
  itemName: 'Organic Cotton Romper Set',
  category: 'clothing',
  listingPrice: '18.00',
  imageUrl: '/images/items/item-001.svg',
  condition: 'like_new',
  brand: 'Little Sprout',
  ageGroup: '0-6 months',
  featured: true,
  createdAt: '2026-11-20T09:00:00.000Z',
};

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

type Build = NonNullable<PublisherOptions['build']>;

/**
 * A build that waits for the test: `builds[n].finish()` writes the candidate release's pages (a
 * home page naming the release, and /blog/<slug> for each of its posts) and resolves;
 * `builds[n].fail(error)` rejects; `builds[n].options` is what the publisher passed it (its
 * onProgress reports as the real build does). `started(n)` resolves once n builds have begun.
 */
function gatedBuild(db: DB) {
  const builds: {
    release: number;
    options: Parameters<Build>[2];
    finish: () => void;
    fail: (error: Error) => void;
  }[] = [];
  const waiting: (() => void)[] = [];
  const writePages = async (outDir: string, release: number) => {
    const app = createApp({ db, release: fixedReleaseSource(db, release) });
    const posts = await expectJson<BlogPost[]>(app.request('/api/blog/posts'), 200);
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, 'index.html'), `<h1>Release ${release}</h1>`);
    for (const post of posts) {
      fs.mkdirSync(path.join(outDir, 'blog', post.slug), { recursive: true });
      fs.writeFileSync(path.join(outDir, 'blog', post.slug, 'index.html'), `<h1>${post.title}</h1>`);
    }
  };
  const build: Build = (outDir, env, options) =>
    new Promise<void>((resolve, reject) => {
      const release = Number(env.NESTLING_RELEASE_ID);
      builds.push({
        release,
        options,
        finish: () => void writePages(outDir, release).then(resolve, reject),
        fail: reject,
      });
      for (const wake of waiting.splice(0)) wake();
    });
  const started = async (n: number) => {
    while (builds.length < n) await new Promise<void>((resolve) => waiting.push(resolve));
  };
  return { build, builds, started };
}

/** A publisher that finishes every build at once. */
function immediateBuild(db: DB): Build {
  const gate = gatedBuild(db);
  return (outDir, env, options) => {
    const done = gate.build(outDir, env, options);
    gate.builds.at(-1)!.finish();
    return done;
  };
}

/** An instance: its own connection to the database file and its own publisher (quiet, test clock). */
function instance(
  file: string,
  options: Partial<PublisherOptions> & Pick<PublisherOptions, 'contentDir' | 'siteDir'>,
) {
  const db = openDatabase(file);
  stops.push(() => db.destroy());
  const publisher = createPublisher({
    db,
    buildEnv: {},
    now: () => TEST_NOW,
    log: () => {},
    build: immediateBuild(db),
    ...options,
  });
  stops.push(() => publisher.idle());
  return { db, publisher };
}

/** Another connection to the database file (a build's, or a crashed instance's). */
function connect(file: string): DB {
  const db = openDatabase(file);
  stops.push(() => db.destroy());
  return db;
}

/** The real server over the database file and SITE_DIR, following a switch at once (no cache). */
async function serve(file: string, siteDir: string): Promise<RunningServer> {
  const db = openDatabase(file);
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

/** What a reader gets for a post: its page, its API answer, and which release served them. */
async function reader(server: RunningServer, slug: string) {
  const page = await fetch(`${server.url}/blog/${slug}`);
  const api = await fetch(`${server.url}/api/blog/posts/${slug}`);
  await Promise.all([page.arrayBuffer(), api.arrayBuffer()]);
  return {
    page: page.status,
    api: api.status,
    release: [page.headers.get('x-nestling-release'), api.headers.get('x-nestling-release')],
  };
}

/** A fresh database file (migrated, not seeded), a content folder and a SITE_DIR. */
async function setup(posts: Parameters<typeof createContentDir>[0]) {
  const { db, location: file } = await createTestDb({ seed: false });
  await db.destroy();
  return { file, contentDir: createContentDir(posts), siteDir: path.join(tempDir(), 'site') };
}

async function publishOnce(publisher: Publisher, trigger = 'editor'): Promise<PublishRun> {
  return publisher.finished((await publisher.request(trigger)).id);
}

describe('the publisher', () => {
  it('coalesces publishes that arrive during a build into one follow-up build', async () => {
    const { file, contentDir, siteDir } = await setup([{ slug: 'first' }]);
    const gate = gatedBuild(connect(file));
    const { publisher, db } = instance(file, { contentDir, siteDir, build: gate.build });

    const first = await publisher.request('one');
    await gate.started(1);
    expect((await publishStatus(db)).current).toMatchObject({ id: first.id, state: 'building' });
    const second = await publisher.request('two');
    const third = await publisher.request('three');
    expect(third.id).toBe(second.id);
    gate.builds[0]!.finish();
    await gate.started(2);
    gate.builds[1]!.finish();
    await publisher.idle();

    expect(gate.builds).toHaveLength(2);
    const { recent, live } = await publishStatus(db);
    expect(recent.map((r) => [r.id, r.state, r.live])).toEqual([
      [second.id, 'succeeded', true],
      [first.id, 'succeeded', false],
    ]);
    expect(live?.id).toBe(second.id);
    expect(recent[1]!.postsChanged).toBe(1);
    expect(recent[0]!.postsChanged).toBe(0);
  });

  it('builds a publish requested on two instances once, and either instance reports it', async () => {
    const { file, contentDir, siteDir } = await setup([{ slug: 'first' }]);
    const shared = connect(file);
    const gate = gatedBuild(shared);
    const a = instance(file, { contentDir, siteDir, build: gate.build });
    const b = instance(file, { contentDir, siteDir, build: gate.build });

    const running = await a.publisher.request('editor on A');
    await gate.started(1);
    // B cannot take the lock while A builds: what is asked on either instance now waits, once.
    const onA = await a.publisher.request('second editor on A');
    const onB = await b.publisher.request('editor on B');
    expect(onB.id).toBe(onA.id);
    expect((await publishStatus(b.db)).current).toMatchObject({ id: running.id, state: 'building' });
    const waitingOnB = b.publisher.finished(onB.id);

    gate.builds[0]!.finish();
    await gate.started(2);
    gate.builds[1]!.finish();
    expect(await waitingOnB).toMatchObject({ id: onB.id, state: 'succeeded', live: true });
    await Promise.all([a.publisher.idle(), b.publisher.idle()]);
    expect(gate.builds.map((x) => x.release)).toEqual([running.id, onB.id]);
    expect(fs.readdirSync(siteDir).sort()).toEqual([String(running.id), String(onB.id)]);
  });

  it("hands a command-line publish to a running server's warm publisher, and runs it itself once none is up", async () => {
    const { file, contentDir, siteDir } = await setup([{ slug: 'first' }]);
    const serverBuilds = gatedBuild(connect(file));
    const server = instance(file, { contentDir, siteDir, build: serverBuilds.build });
    stops.push(() => server.publisher.close());
    // Once the server has said it is up, a command-line publish goes to it.
    await server.publisher.keepWarm();
    const cliBuilds = gatedBuild(connect(file));
    const lines: string[] = [];
    const cli = instance(file, { contentDir, siteDir, build: cliBuilds.build, log: (l) => lines.push(l) });

    const handed = cli.publisher.publishHere('command line');
    // The server looks for queued runs every second: it takes this one.
    await serverBuilds.started(1);
    serverBuilds.builds[0]!.finish();
    const first = await handed;
    expect(first.run).toMatchObject({ trigger: 'command line', state: 'succeeded', live: true });
    expect(first.handedTo).not.toBeNull();
    expect(cliBuilds.builds).toHaveLength(0);
    expect(lines.join('\n')).toContain(`handed to the running server's publisher (${first.handedTo})`);

    // The server stops: the next command-line publish runs where it was asked.
    await server.publisher.close();
    const here = cli.publisher.publishHere('command line, no server');
    await cliBuilds.started(1);
    cliBuilds.builds[0]!.finish();
    expect(await here).toMatchObject({ run: { state: 'succeeded', live: true }, handedTo: null });
    expect(serverBuilds.builds).toHaveLength(1);
  });

  it('changes neither the API nor the pages when a build fails, and names a broken post', async () => {
    const { file, contentDir, siteDir } = await setup([{ slug: 'first' }]);
    const gate = gatedBuild(connect(file));
    const { publisher, db } = instance(file, { contentDir, siteDir, build: gate.build });
    const initial = publisher.request('initial');
    await gate.started(1);
    gate.builds[0]!.finish();
    const live = await publisher.finished((await initial).id);
    const server = await serve(file, siteDir);
    expect(await reader(server, 'first')).toEqual({
      page: 200,
      api: 200,
      release: [`${live.id}`, `${live.id}`],
    });

    // A category's name changes with the post: none of it may show before a release does. Items
    // are listings, read live rather than from a release (docs/decisions/025): a publish leaves them.
    const shop = async () => ({
      items: await expectJson<Item[]>(fetch(`${server.url}/api/items`), 200),
      featured: await expectJson<Item[]>(fetch(`${server.url}/api/items/featured`), 200),
      counts: await expectJson<CategoryCounts>(fetch(`${server.url}/api/items/categories`), 200),
      categories: (await expectJson<BlogCategory[]>(fetch(`${server.url}/api/blog/categories`), 200)).map(
        (c) => c.categoryName,
      ),
      postCategories: (await expectJson<BlogPost>(fetch(`${server.url}/api/blog/posts/first`), 200))
        .relatedCategories,
    });
    const before = await shop();
    expect(before).toEqual({
      items: [],
      featured: [],
      counts: {},
      categories: ['News', 'Tips'],
      postCategories: ['news'],
    });
    fs.writeFileSync(path.join(contentDir, 'items.json'), JSON.stringify([ROMPER]));
    fs.writeFileSync(
      path.join(contentDir, 'blog-categories.json'),
      JSON.stringify([
        { slug: 'news', categoryName: 'Family news', colorHex: '#654321' },
        { slug: 'tips', categoryName: 'Tips', colorHex: '#123456' },
      ]),
    );
    writePost(contentDir, { slug: 'second', title: 'The second post' });
    const failing = await publisher.request('build fails');
    await gate.started(2);
    expect(await shop()).toEqual(before);
    // While it builds, and after it has failed, readers get the live release only.
    expect(await reader(server, 'second')).toEqual({
      page: 404,
      api: 404,
      release: [`${live.id}`, `${live.id}`],
    });
    gate.builds[1]!.fail(new Error('Site build failed (exit code 1): boom'));
    expect(await publisher.finished(failing.id)).toMatchObject({
      state: 'failed',
      live: false,
      error: 'Site build failed (exit code 1): boom',
    });
    expect(await reader(server, 'second')).toEqual({
      page: 404,
      api: 404,
      release: [`${live.id}`, `${live.id}`],
    });
    expect(await reader(server, 'first')).toMatchObject({ page: 200, api: 200 });
    expect(
      (await expectJson<BlogPost[]>(fetch(`${server.url}/api/blog/posts`), 200)).map((p) => p.slug),
    ).toEqual(['first']);
    // The sync did happen (the next publish starts from it); its failed build left no folder.
    expect(
      await db.selectFrom('blog_posts').select('slug').where('slug', '=', 'second').executeTakeFirst(),
    ).toBeTruthy();
    expect(fs.readdirSync(siteDir)).toEqual([String(live.id)]);
    expect(await shop()).toEqual(before);

    writePost(contentDir, { slug: 'broken', extra: 'featured: "perhaps"' });
    const broken = await publisher.finished((await publisher.request('broken post')).id);
    expect(broken.state).toBe('failed');
    expect(broken.error).toMatch(/broken\.md: /);
    expect(gate.builds).toHaveLength(2); // the sync failed, so no build was attempted
    expect((await publishStatus(db)).live?.id).toBe(live.id);
    expect(await shop()).toEqual(before);

    // The next release that goes live brings the new name with it.
    fs.rmSync(path.join(contentDir, 'posts', 'broken.md'));
    const fixed = publisher.request('fixed');
    await gate.started(3);
    expect(await shop()).toEqual(before);
    gate.builds[2]!.finish();
    expect(await publisher.finished((await fixed).id)).toMatchObject({ state: 'succeeded', live: true });
    const after = await shop();
    // A content/items.json is no longer synced by a publish: the marketplace's listings stay as they are.
    expect(after.items).toEqual([]);
    expect(after.featured).toEqual([]);
    expect(after.counts).toEqual({});
    expect(after.categories).toEqual(['Family news', 'Tips']);
  });

  it('shows a scheduled post nowhere until the release that includes it is live, built by one instance', async () => {
    const { file, contentDir, siteDir } = await setup([
      { slug: 'now' },
      { slug: 'later', publishedAt: '2026-11-22T12:30:00Z' },
    ]);
    let now = TEST_NOW;
    const shared = connect(file);
    const gate = gatedBuild(shared);
    const clock = { now: () => now, build: gate.build, contentDir, siteDir };
    const a = instance(file, clock);
    const b = instance(file, clock);
    const initial = a.publisher.request('initial');
    await gate.started(1);
    gate.builds[0]!.finish();
    const first = await a.publisher.finished((await initial).id);
    const server = await serve(file, siteDir);
    expect(await reader(server, 'now')).toMatchObject({ page: 200, api: 200 });
    expect(await reader(server, 'later')).toMatchObject({ page: 404, api: 404 });

    // Not due yet: neither instance publishes.
    await Promise.all([a.publisher.tick(), b.publisher.tick()]);
    expect(gate.builds).toHaveLength(1);

    // Due: both instances tick at once; one of them publishes.
    now = new Date('2026-11-22T12:30:30Z');
    const ticks = Promise.all([a.publisher.tick(), b.publisher.tick()]);
    await gate.started(2);
    const scheduled = (await publishStatus(shared)).current!;
    expect(scheduled.trigger).toBe('schedule (later)');
    expect(await reader(server, 'later')).toEqual({
      page: 404,
      api: 404,
      release: [`${first.id}`, `${first.id}`],
    });
    gate.builds[1]!.finish();
    await ticks;
    await Promise.all([a.publisher.idle(), b.publisher.idle()]);
    expect(await reader(server, 'later')).toEqual({
      page: 200,
      api: 200,
      release: [`${scheduled.id}`, `${scheduled.id}`],
    });

    // Once only.
    await Promise.all([a.publisher.tick(), b.publisher.tick()]);
    expect(gate.builds).toHaveLength(2);
  });

  it('shows what a running publish is doing, through the API of another instance, and nothing once it has finished', async () => {
    const { file, contentDir, siteDir } = await setup([{ slug: 'first' }, { slug: 'second' }]);
    const gate = gatedBuild(connect(file));
    const lines: string[] = [];
    // Every report is written (no throttle), so each one can be read back through the API.
    const { publisher } = instance(file, {
      contentDir,
      siteDir,
      build: gate.build,
      log: (line) => lines.push(line),
      progressEveryMs: 0,
    });
    // Should an expectation fail while the build waits, end it, so the publisher can stop.
    stops.push(async () => gate.builds.forEach((b) => b.fail(new Error('The test ended first.'))));
    // /admin and the studio on another instance: the real app over a connection of its own.
    const other = connect(file);
    const app = createApp({ db: other, verifyToken: emulatorVerifier(), now: () => TEST_NOW });
    const admin = await newParent(app, other, 'Ada Admin', 'admin');
    const editor = await newParent(app, other, 'Edi Editor', 'editor');
    const status = () =>
      expectJson<PublishStatus>(call(app, 'GET', '/api/admin/publish', { token: admin.token }), 200);
    const studioRun = (id: number) =>
      expectJson<PublishRun>(call(app, 'GET', `/api/studio/releases/${id}`, { token: editor.token }), 200);
    const shown = async () => (await status()).current?.progress ?? null;

    const run = await publisher.request('editor');
    await gate.started(1);
    const { options } = gate.builds[0]!;
    await expect.poll(shown).toEqual({ phase: 'syncing', done: 0, total: null, incremental: null });
    expect((await status()).current).toMatchObject({ id: run.id, state: 'building' });

    const reports: PublishProgress[] = [
      { phase: 'rendering', done: 0, total: null, incremental: true },
      { phase: 'rendering', done: 30, total: 120, incremental: true },
      { phase: 'indexing', done: 0, total: null, incremental: true },
      { phase: 'compressing', done: 4, total: 9, incremental: true },
    ];
    for (const report of reports) {
      options.onProgress?.(report);
      await expect.poll(shown).toEqual(report);
    }
    // The studio's follow of the run reads the same progress.
    expect((await studioRun(run.id)).progress).toEqual(reports.at(-1));

    gate.builds[0]!.finish();
    expect(await publisher.finished(run.id)).toMatchObject({ state: 'succeeded', progress: null });
    const after = await status();
    expect(after.current).toBeNull();
    expect(after.recent.find((r) => r.id === run.id)).toMatchObject({ state: 'succeeded', progress: null });
    expect((await studioRun(run.id)).progress).toBeNull();

    // The command line's log names each phase in turn, how much is rendered, and a count on the way.
    const expected = [
      'Reading the posts …',
      'Rendering pages (only what changed) …',
      'Rendering pages: 30 of 120 …',
      'Indexing for search …',
      'Compressing …',
      'Going live …',
    ].map((words) => `Publish #${run.id}: ${words}`);
    expect(lines.filter((line) => expected.includes(line))).toEqual(expected);
  });

  it('rolls back to the previous release, API and site folder together, and says who did it', async () => {
    const { file, contentDir, siteDir } = await setup([{ slug: 'first', title: 'First, as written' }]);
    const { publisher, db } = instance(file, { contentDir, siteDir });
    const one = await publishOnce(publisher);
    writePost(contentDir, { slug: 'first', title: 'First, edited' });
    writePost(contentDir, { slug: 'second' });
    const two = await publishOnce(publisher);
    const server = await serve(file, siteDir);
    expect(await reader(server, 'second')).toEqual({
      page: 200,
      api: 200,
      release: [`${two.id}`, `${two.id}`],
    });
    const edited = await expectJson<BlogPost>(fetch(`${server.url}/api/blog/posts/first`), 200);
    expect(edited.title).toBe('First, edited');
    // Listings come in between publishes and are not part of a release (docs/decisions/025).
    const romper = parseListings([ROMPER]);
    if (!romper.ok) throw new Error(romper.error);
    await importListings(db, romper.listings, TEST_NOW);
    const items = async () =>
      (await expectJson<Item[]>(fetch(`${server.url}/api/items`), 200)).map((i) => i.itemId);
    expect(await items()).toEqual([ROMPER.itemId]);

    const done = await publisher.rollback({ uid: 'admin-uid', name: 'Editor Admin' }, 'The edit was wrong');
    expect(done.from).toMatchObject({ id: two.id, state: 'rolled_back', live: false });
    expect(done.to).toMatchObject({ id: one.id, state: 'succeeded', live: true });
    expect(await reader(server, 'second')).toEqual({
      page: 404,
      api: 404,
      release: [`${one.id}`, `${one.id}`],
    });
    const restored = await expectJson<BlogPost>(fetch(`${server.url}/api/blog/posts/first`), 200);
    expect(restored.title).toBe('First, as written');
    // A rollback leaves the listings as they are: they are the marketplace's, not the release's.
    expect(await items()).toEqual([ROMPER.itemId]);
    expect(await (await fetch(`${server.url}/`)).text()).toBe(`<h1>Release ${one.id}</h1>`);

    const { entries } = await listAudit(db, { limit: 1, before: null });
    expect(entries[0]).toMatchObject({
      actorUid: 'admin-uid',
      actorName: 'Editor Admin',
      action: 'release.rollback',
      targetType: 'release',
      targetId: String(two.id),
      reason: 'The edit was wrong',
      details: { from: two.id, to: one.id },
    });
    // Nothing older to go back to.
    await expect(publisher.rollback({ uid: null, name: 'command line' }, null)).rejects.toThrow(
      'There is no earlier release to go back to.',
    );
  });

  it('tells its own server when it switches, which serves the switch at once, as npm start wires them', async () => {
    const { file, contentDir, siteDir } = await setup([{ slug: 'first' }]);
    const db = openDatabase(file);
    stops.push(() => db.destroy());
    // A release source that would otherwise keep what it read for an hour.
    const release = liveReleaseSource(db, { ttlMs: 3_600_000 });
    let failing = false;
    const immediate = immediateBuild(connect(file));
    const build: Build = (outDir, env, options) =>
      failing ? Promise.reject(new Error('Site build failed: boom')) : immediate(outDir, env, options);
    const { publisher } = instance(file, { contentDir, siteDir, build, onLive: release.refresh });
    const one = await publishOnce(publisher);
    const server = await startServer({
      db,
      siteDir,
      host: '127.0.0.1',
      port: 0,
      deps: { release, publisher, now: () => TEST_NOW },
    });
    stops.push(() => server.close());
    expect((await reader(server, 'first')).release).toEqual([`${one.id}`, `${one.id}`]);

    writePost(contentDir, { slug: 'second' });
    const two = await publishOnce(publisher);
    expect(await reader(server, 'second')).toEqual({
      page: 200,
      api: 200,
      release: [`${two.id}`, `${two.id}`],
    });
    await publisher.rollback({ uid: null, name: 'test' }, null);
    expect(await reader(server, 'second')).toEqual({
      page: 404,
      api: 404,
      release: [`${one.id}`, `${one.id}`],
    });
    // A failed publish switches nothing and tells nobody: the source still knows release one.
    failing = true;
    writePost(contentDir, { slug: 'third' });
    expect((await publishOnce(publisher)).state).toBe('failed');
    expect(release.known()).toMatchObject({ id: one.id });
  });

  it('withdraws a post marked draft from its page and the API at the next release', async () => {
    const { file, contentDir, siteDir } = await setup([{ slug: 'first' }, { slug: 'second' }]);
    const { publisher } = instance(file, { contentDir, siteDir });
    await publishOnce(publisher);
    const server = await serve(file, siteDir);
    expect(await reader(server, 'second')).toMatchObject({ page: 200, api: 200 });

    writePost(contentDir, { slug: 'second', draft: true });
    const next = await publishOnce(publisher);
    expect(await reader(server, 'second')).toEqual({
      page: 404,
      api: 404,
      release: [`${next.id}`, `${next.id}`],
    });
    expect(
      (await expectJson<BlogPost[]>(fetch(`${server.url}/api/blog/posts`), 200)).map((p) => p.slug),
    ).toEqual(['first']);
  });

  it('rolls back from the command line (npm run publish -- --rollback), says when it cannot, and refuses a mistyped option', async () => {
    const { file, contentDir, siteDir } = await setup([{ slug: 'first', title: 'First, as written' }]);
    const { publisher, db } = instance(file, { contentDir, siteDir });
    const one = await publishOnce(publisher);
    writePost(contentDir, { slug: 'first', title: 'First, edited' });
    const two = await publishOnce(publisher);
    const env = { ...databaseEnv(file), SITE_DIR: siteDir, CONTENT_DIR: contentDir };

    // A mistyped option publishes nothing: it is refused before the database is opened.
    const typo = await runScript('scripts/publish.ts', ['--rolback'], env);
    expect(typo.code).toBe(2);
    expect(typo.output).toContain('Nothing was published: npm run publish does not take --rolback.');
    expect((await publishStatus(db)).live?.id).toBe(two.id);

    const back = await runScript('scripts/publish.ts', ['--rollback'], env);
    expect(back.code, back.output).toBe(0);
    expect(back.output).toContain(`Rolled back from release #${two.id} to #${one.id}`);
    expect((await publishStatus(db)).live?.id).toBe(one.id);
    const server = await serve(file, siteDir);
    const restored = await expectJson<BlogPost>(fetch(`${server.url}/api/blog/posts/first`), 200);
    expect(restored.title).toBe('First, as written');

    const none = await runScript('scripts/publish.ts', ['--rollback'], env);
    expect(none.code).toBe(1);
    expect(none.output).toContain('Nothing was rolled back: There is no earlier release to go back to.');
    expect((await publishStatus(db)).live?.id).toBe(one.id);
    // Three runs of the command, each a whole process (15 s on a busy machine for the two that load
    // the app).
  }, 90_000);

  it('keeps the newest 5 builds, and always the live one and the one before it', async () => {
    const { file, contentDir, siteDir } = await setup([{ slug: 'first' }]);
    const { publisher, db } = instance(file, { contentDir, siteDir });
    const ids: number[] = [];
    for (let n = 0; n < 7; n++) ids.push((await publishOnce(publisher)).id);
    const folders = () =>
      fs
        .readdirSync(siteDir)
        .map(Number)
        .sort((x, y) => x - y);
    expect(folders()).toEqual(ids.slice(2));
    const states = async () =>
      Object.fromEntries((await publishStatus(db)).recent.map((r) => [r.id, r.state]));
    expect(await states()).toMatchObject({
      [ids[0]!]: 'retired',
      [ids[1]!]: 'retired',
      [ids[2]!]: 'succeeded',
    });
    const snapshots = await db.selectFrom('release_posts').select('release_id').distinct().execute();
    expect(snapshots.map((r) => r.release_id).sort((x, y) => x - y)).toEqual(ids.slice(2));

    // Roll back four times: the oldest kept build is live, with nothing before it.
    for (let n = 0; n < 4; n++) await publisher.rollback({ uid: null, name: 'test' }, null);
    expect((await publishStatus(db)).live?.id).toBe(ids[2]);
    // A new release goes live; the one it replaced is its previous release, kept though older
    // than the newest five builds.
    const next = await publishOnce(publisher);
    const status = await publishStatus(db);
    expect(status.previous?.id).toBe(ids[2]);
    expect(folders()).toEqual([ids[2]!, ...ids.slice(3), next.id].sort((x, y) => x - y));
    expect(folders()).toHaveLength(6);
    await publisher.rollback({ uid: null, name: 'test' }, null);
    expect(await (await fetch(`${(await serve(file, siteDir)).url}/`)).text()).toBe(
      `<h1>Release ${ids[2]}</h1>`,
    );
  });

  it('takes over the lock of an instance that stopped, once its lease has run out', async () => {
    const { file, contentDir, siteDir } = await setup([{ slug: 'first' }]);
    // An instance took the lock and a run, then stopped without letting go.
    const crashed = connect(file);
    const orphan = await enqueueRelease(crashed, 'crashed instance', TEST_NOW);
    await claimQueuedRelease(crashed, 'crashed', TEST_NOW);
    expect(await acquirePublishLock(crashed, 'crashed', TEST_NOW, 60_000)).toBe(true);

    let now = TEST_NOW;
    const { publisher } = instance(file, { contentDir, siteDir, now: () => now, leaseMs: 60_000 });
    const asked = await publisher.request('editor');
    await publisher.tick();
    // Its lease has not run out: the request waits in the queue.
    expect(await findRun(crashed, asked.id)).toMatchObject({ state: 'queued' });
    expect(await findRun(crashed, orphan.id)).toMatchObject({ state: 'syncing' });

    now = new Date(TEST_NOW.getTime() + 61_000);
    await publisher.tick();
    const status = await publishStatus(crashed);
    expect(status.recent.find((r) => r.id === orphan.id)).toMatchObject({
      state: 'failed',
      error: 'Abandoned: the instance running it stopped before it finished.',
    });
    expect(status.live).toMatchObject({ id: asked.id, state: 'succeeded' });
    expect(status.current).toBeNull();
  });

  it('POSTs the live release to the build hook after a publish and a rollback, and publishes when the hook is down', async () => {
    const hook = await startListener({ status: 202 });
    stops.push(() => hook.close());
    const { file, contentDir, siteDir } = await setup([{ slug: 'hooked' }]);
    const lines: string[] = [];
    const { publisher } = instance(file, {
      contentDir,
      siteDir,
      log: (line) => lines.push(line),
      hookUrl: `${hook.url}/build-hook`,
    });
    const first = await publishOnce(publisher);
    const second = await publishOnce(publisher, 'editor again');
    await publisher.rollback({ uid: null, name: 'test' }, null);
    expect(hook.received.map((r) => [r.method, r.path, r.headers['content-type'], r.body])).toEqual([
      [
        'POST',
        '/build-hook',
        'application/json',
        { event: 'publish', release: first.id, trigger: 'editor', postsChanged: 1 },
      ],
      [
        'POST',
        '/build-hook',
        'application/json',
        { event: 'publish', release: second.id, trigger: 'editor again', postsChanged: 0 },
      ],
      ['POST', '/build-hook', 'application/json', { event: 'rollback', release: first.id, from: second.id }],
    ]);
    expect(lines.join('\n')).toContain('build hook answered 202');

    await hook.close();
    expect((await publishOnce(publisher, 'hook down')).state).toBe('succeeded');
    expect(lines.join('\n')).toMatch(/build hook failed/);
  });
});
