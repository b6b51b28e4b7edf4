// The code key (scripts/lib/build.ts, docs/decisions/019): what every page depends on besides its
// data. Any change to it renders the whole site, so each kind of change must change the key.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codeKey } from '../../scripts/lib/build.ts';
import { tempDir } from '../../scripts/lib/temp.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A checkout in miniature: a page, a style, a public file, the server's code and the lockfile. */
function checkout(): string {
  const root = tempDir('nestling-code-key-');
  dirs.push(root);
  const files: Record<string, string> = {
    'src/pages/index.astro': '<h1>Home</h1>',
    'src/styles/global.css': 'body { color: black; }',
    'public/favicon.svg': '<svg></svg>',
    'api/contract.ts': 'export const LIMIT = 10;',
    'astro.config.mjs': 'export default {};',
    'package-lock.json': '{"lockfileVersion": 3}',
    'tsconfig.json': '{}',
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('the code key', () => {
  it('is the same for the same code and settings, whatever else the environment holds', () => {
    const root = checkout();
    const env = { PUBLIC_SITE_URL: 'https://nestling.example' };
    expect(codeKey({ ...env, DATABASE_PATH: 'a.db' }, root)).toBe(
      codeKey({ ...env, DATABASE_PATH: 'b.db' }, root),
    );
  });

  it.each([
    ['a template', 'src/pages/index.astro', '<h1>Welcome home</h1>'],
    ['a style', 'src/styles/global.css', 'body { color: navy; }'],
    ['a public file', 'public/favicon.svg', '<svg><circle /></svg>'],
    ['the server code the build renders through', 'api/contract.ts', 'export const LIMIT = 20;'],
    ['the dependencies', 'package-lock.json', '{"lockfileVersion": 3, "packages": {}}'],
    ['the build’s own code', 'scripts/lib/build.ts', 'export const QUALITY = 9;'],
    ['the renderer', 'scripts/lib/astro-renderer.mjs', 'export {};'],
    ['a new file', 'src/components/New.astro', '<p>new</p>'],
  ])('changes with %s', (_what, file, text) => {
    const root = checkout();
    const before = codeKey({}, root);
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
    expect(codeKey({}, root)).not.toBe(before);
  });

  it('changes with a public setting, and not with a private one', () => {
    const root = checkout();
    const before = codeKey({ PUBLIC_SITE_URL: 'https://a.example', SMTP_HOST: 'a' }, root);
    expect(codeKey({ PUBLIC_SITE_URL: 'https://b.example', SMTP_HOST: 'a' }, root)).not.toBe(before);
    expect(codeKey({ PUBLIC_SITE_URL: 'https://a.example', SMTP_HOST: 'b' }, root)).toBe(before);
  });
});
