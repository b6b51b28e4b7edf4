import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const created: string[] = [];
process.once('exit', removeTempDirs);

/** A new folder under the OS temp dir, removed when this process exits (or removeTempDirs runs). */
export function tempDir(prefix = 'nestling-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/**
 * Removes every folder tempDir has made so far. Test files call it when they end
 * (tests/helpers/temp-setup.ts): Vitest stops its workers without Node's 'exit' event, and one
 * `npm test` left some 400 folders (1.2 GB) behind.
 */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}
