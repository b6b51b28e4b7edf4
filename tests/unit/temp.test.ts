// Temp folders (scripts/lib/temp.ts) go when a test file ends, in every project: Vitest stops its
// workers without Node's 'exit' event, and before this one `npm test` left some 400 folders behind.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.ts';
import { removeTempDirs, tempDir } from '../../scripts/lib/temp.ts';

describe('temp folders', () => {
  it('are removed, with what is in them, by removeTempDirs', () => {
    const dir = tempDir('nestling-temp-test-');
    fs.mkdirSync(path.join(dir, 'site'));
    fs.writeFileSync(path.join(dir, 'site', 'index.html'), '<h1>Home</h1>');
    removeTempDirs();
    expect(fs.existsSync(dir)).toBe(false);
    // A second call has nothing left to do.
    expect(() => removeTempDirs()).not.toThrow();
  });

  it('are removed after every test file of every project', () => {
    const projects = config.test?.projects ?? [];
    expect(projects.length).toBeGreaterThan(0);
    for (const project of projects) {
      if (typeof project !== 'object' || !('test' in project))
        throw new Error('A project without a test config');
      expect(project.test?.setupFiles, JSON.stringify(project.test?.name)).toContain(
        'tests/helpers/temp-setup.ts',
      );
    }
  });
});
