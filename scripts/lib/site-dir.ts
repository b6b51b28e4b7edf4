import fs from 'node:fs';
import path from 'node:path';

/**
 * The served site folder (SITE_DIR, e.g. dist) is a symlink to one finished build in a sibling
 * folder (.dist-builds/<id>). A new build goes into a new folder and the link is replaced with one
 * rename, which is atomic: a reader gets the old site or the new one, never half of either.
 */
export function buildsDir(siteDir: string): string {
  const resolved = path.resolve(siteDir);
  return path.join(path.dirname(resolved), `.${path.basename(resolved)}-builds`);
}

/** A fresh, empty folder for the next build. */
export function newBuildDir(siteDir: string): string {
  const dir = path.join(buildsDir(siteDir), `${Date.now().toString(36)}-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Points siteDir at buildDir atomically and removes older builds (keeping the previous one). */
export function swapIn(siteDir: string, buildDir: string): void {
  const link = path.resolve(siteDir);
  const previous = currentBuild(siteDir);
  // A real folder from an older layout is moved aside once, so the link can take its place.
  if (fs.existsSync(link) && !fs.lstatSync(link).isSymbolicLink()) {
    fs.renameSync(link, path.join(buildsDir(siteDir), `legacy-${Date.now().toString(36)}`));
  }
  const temp = `${link}.swap-${process.pid}`;
  fs.rmSync(temp, { force: true });
  fs.symlinkSync(path.relative(path.dirname(link), buildDir), temp, 'dir');
  fs.renameSync(temp, link);
  for (const entry of fs.readdirSync(buildsDir(siteDir))) {
    const dir = path.join(buildsDir(siteDir), entry);
    if (dir !== buildDir && dir !== previous) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The build the link points at now, if any. */
export function currentBuild(siteDir: string): string | null {
  try {
    return fs.realpathSync(path.resolve(siteDir));
  } catch {
    return null;
  }
}

/** Removes a build folder that was never swapped in (a failed build). */
export function discardBuild(buildDir: string): void {
  fs.rmSync(buildDir, { recursive: true, force: true });
}
