import fs from 'node:fs';
import path from 'node:path';

// SITE_DIR (e.g. dist) holds one build folder per release, named by the release's id (dist/12).
// Which one readers get is the database's business (the live release), never the disk's: every
// instance reads the same answer, and a switch or rollback is one transaction.

/** Before releases, SITE_DIR was a symlink into a sibling `.<name>-builds` folder: both go. */
export function prepareSiteDir(siteDir: string): void {
  const resolved = path.resolve(siteDir);
  if (fs.lstatSync(resolved, { throwIfNoEntry: false })?.isSymbolicLink()) {
    fs.unlinkSync(resolved);
    const builds = path.join(path.dirname(resolved), `.${path.basename(resolved)}-builds`);
    fs.rmSync(builds, { recursive: true, force: true });
  }
  fs.mkdirSync(resolved, { recursive: true });
}

/** Removes a build folder that will never be served (a failed or retired release). */
export function discardBuild(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Removes every release folder but those named in `keep`; returns the names removed. */
export function pruneBuilds(siteDir: string, keep: string[]): string[] {
  const kept = new Set(keep);
  const removed = fs
    .readdirSync(siteDir)
    .filter((entry) => /^\d+$/.test(entry) && !kept.has(entry))
    .sort((a, b) => Number(a) - Number(b));
  for (const entry of removed) discardBuild(path.join(siteDir, entry));
  return removed;
}
