// A publish killed with SIGKILL in each phase (syncing, rendering, indexing, compressing, switching:
// the run's releases.progress says which), by a real publisher process (tests/helpers/killable-publisher.ts):
// the live release stays live and whole, the next run takes over once the dead one's lease is out,
// marks it failed and removes its half-built folder, and the last run goes live.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../api/db/database.ts';
import { liveRelease } from '../../api/db/queries/releases.ts';
import { createPublisher } from '../../scripts/lib/publisher.ts';
import { tempDir } from '../../scripts/lib/temp.ts';
import { CONTENT_DIR, onPostgres } from '../helpers/test-db.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PHASES = ['syncing', 'rendering', 'indexing', 'compressing', 'switching'] as const;

describe.runIf(!onPostgres())('a publish killed in each phase', () => {
  const children: ReturnType<typeof spawn>[] = [];
  afterAll(() => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('leaves the live release whole, and the next run cleans up after it and succeeds', async () => {
    const file = path.join(tempDir(), 'killed.db');
    fs.copyFileSync(inject('templates').seeded, file);
    const siteDir = tempDir('nestling-killed-site-');
    const db = openDatabase(file);
    const build = async (outDir: string, env: NodeJS.ProcessEnv) => {
      fs.mkdirSync(outDir, { recursive: true });
      fs.writeFileSync(path.join(outDir, 'index.html'), `<h1>Release ${env.NESTLING_RELEASE_ID}</h1>`);
    };
    const publisher = createPublisher({
      db,
      contentDir: CONTENT_DIR,
      siteDir,
      buildEnv: {},
      log: () => {},
      build,
      leaseMs: 1_000,
      pollMs: 50,
    });
    try {
      expect((await publisher.finished((await publisher.request('first')).id)).state).toBe('succeeded');
      const live = (await liveRelease(db))!;
      const liveFiles = () => fs.readdirSync(path.join(siteDir, live.folder)).sort();
      const whole = liveFiles();
      const dead: string[] = [];
      const deadRuns: number[] = [];
      for (const phase of PHASES) {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', 'tests/helpers/killable-publisher.ts', file, siteDir, CONTENT_DIR, phase],
          { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        children.push(child);
        let output = '';
        await new Promise<void>((resolve, reject) => {
          const onData = (chunk: Buffer) => {
            output += chunk.toString();
            if (output.includes(`hanging at ${phase}`)) resolve();
          };
          child.stdout!.on('data', onData);
          child.stderr!.on('data', onData);
          child.once('exit', (code) =>
            reject(new Error(`the publisher exited (${code}) before ${phase}:\n${output}`)),
          );
        });
        const run = await db
          .selectFrom('releases')
          .select(['release_id', 'folder', 'state'])
          .orderBy('release_id', 'desc')
          .executeTakeFirstOrThrow();
        await expect
          .poll(
            async () =>
              (
                await db
                  .selectFrom('releases')
                  .select('progress')
                  .where('release_id', '=', run.release_id)
                  .executeTakeFirstOrThrow()
              ).progress,
          )
          .toContain(phase);
        // The previous dead runs' folders are gone: this run's publisher took over and removed them.
        for (const folder of dead) expect(fs.existsSync(path.join(siteDir, folder))).toBe(false);
        // A run syncing has no folder yet; from its snapshot on, it has one.
        if (phase === 'syncing') expect(run.folder).toBeNull();
        else expect(fs.existsSync(path.join(siteDir, run.folder!))).toBe(true);
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
        deadRuns.push(run.release_id);
        if (run.folder) dead.push(run.folder);
        // Readers see nothing of it.
        expect((await liveRelease(db))!.id).toBe(live.id);
        expect(liveFiles()).toEqual(whole);
      }
      // The next run: takes over once the lease is out, fails the dead run, removes its folder, goes live.
      const next = await publisher.finished((await publisher.request('after the kills')).id);
      expect(next.state).toBe('succeeded');
      for (const folder of dead) expect(fs.existsSync(path.join(siteDir, folder))).toBe(false);
      const failed = await db
        .selectFrom('releases')
        .select('state')
        .where('release_id', 'in', deadRuns)
        .execute();
      expect(failed.map((row) => row.state)).toEqual(PHASES.map(() => 'failed'));
      expect((await liveRelease(db))!.id).toBeGreaterThan(live.id);
      console.log(
        `killed publish: ${PHASES.length} runs killed (${PHASES.join(', ')}), 0 reader-visible changes, dead folders removed, next run succeeded`,
      );
    } finally {
      await publisher.close();
      await db.destroy();
    }
  }, 120_000);
});
