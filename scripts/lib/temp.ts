import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const created: string[] = [];
process.once('exit', () => {
  for (const dir of created) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new folder under the OS temp dir, removed when this process exits. */
export function tempDir(prefix = 'nestling-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}
