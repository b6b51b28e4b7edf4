// The lookup of system programs against real files in a temp folder: only the machine's
// environment, its install permission and apt-get itself are stand-ins.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  chromiumBinary,
  findOrInstall,
  findSystemBinary,
  postgresqlBinary,
  SystemDependencyError,
  type SystemHost,
} from '../../scripts/lib/system-deps.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nestling-system-deps-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A real executable file (or, with mode 0o644, a file that is not executable). */
function program(file: string, mode = 0o755): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\n', { mode });
  return file;
}

/** A machine with the given environment; `installs` is what apt-get would put on disk. */
function host(options: { env?: Record<string, string>; canInstall?: boolean; installs?: string[] } = {}) {
  const installed: string[][] = [];
  const lines: string[] = [];
  const machine: SystemHost = {
    env: options.env ?? {},
    canInstall: () => options.canInstall ?? false,
    install: (packages) => {
      installed.push(packages);
      for (const file of options.installs ?? []) program(file);
      return Promise.resolve();
    },
    log: (line) => lines.push(line),
  };
  return { machine, installed, lines };
}

describe('Chromium lookup order', () => {
  const paths = () => ({
    explicit: path.join(dir, 'custom/chrome'),
    shell: path.join(dir, 'usr/bin/chromium-headless-shell'),
    debian: path.join(dir, 'usr/bin/chromium'),
    playwright: path.join(dir, 'ms-playwright/chromium-1/chrome-linux64/chrome'),
  });
  const spec = () =>
    chromiumBinary({
      shellPath: paths().shell,
      debianPath: paths().debian,
      playwrightPath: paths().playwright,
    });

  it('takes CHROMIUM_PATH first, even with the others present', async () => {
    const { explicit, shell, debian, playwright } = paths();
    [explicit, shell, debian, playwright].forEach((file) => program(file));
    const { machine } = host({ env: { CHROMIUM_PATH: explicit } });
    expect(await findOrInstall(spec(), machine)).toBe(explicit);
  });

  it('reports a CHROMIUM_PATH that is not an executable instead of using another browser', async () => {
    const { explicit, debian } = paths();
    program(debian);
    program(explicit, 0o644);
    const { machine, installed } = host({ env: { CHROMIUM_PATH: explicit }, canInstall: true });
    await expect(findOrInstall(spec(), machine)).rejects.toThrow(
      `CHROMIUM_PATH=${explicit} is not an executable file: point it at Chromium or unset it.`,
    );
    expect(installed).toEqual([]);
  });

  it("then Debian's headless shell, before its full browser and Playwright's", async () => {
    const { shell, debian, playwright } = paths();
    [shell, debian, playwright].forEach((file) => program(file));
    expect(await findOrInstall(spec(), host().machine)).toBe(shell);
  });

  it("then Debian's /usr/bin/chromium, before Playwright's", async () => {
    const { debian, playwright } = paths();
    program(debian);
    program(playwright);
    expect(await findOrInstall(spec(), host().machine)).toBe(debian);
  });

  it('then a browser Playwright has already installed', async () => {
    const { debian, playwright } = paths();
    program(debian, 0o644); // present but not executable: not a browser
    program(playwright);
    const { machine, installed } = host({ canInstall: true });
    expect(await findOrInstall(spec(), machine)).toBe(playwright);
    expect(installed).toEqual([]);
  });

  it("then, as root with apt-get, installs Debian's chromium-headless-shell package and uses it", async () => {
    const { shell } = paths();
    const { machine, installed, lines } = host({ canInstall: true, installs: [shell] });
    expect(await findOrInstall(spec(), machine)).toBe(shell);
    expect(installed).toEqual([['chromium-headless-shell']]);
    expect(lines[0]).toBe(
      "Chromium not found: installing Debian's chromium-headless-shell package (apt-get) …",
    );
  });

  it('otherwise stops with one line saying exactly what to install', async () => {
    const { machine, installed } = host({ canInstall: false });
    const failure = findOrInstall(spec(), machine);
    await expect(failure).rejects.toBeInstanceOf(SystemDependencyError);
    await expect(failure).rejects.toThrow(
      /^Chromium not found: run `apt-get install chromium-headless-shell` as root, or set CHROMIUM_PATH to its path\.$/,
    );
    expect(installed).toEqual([]);
  });

  it('fails, naming where it looked, when the install leaves no browser behind', async () => {
    const { shell, debian, playwright } = paths();
    const { machine } = host({ canInstall: true, installs: [] });
    await expect(findOrInstall(spec(), machine)).rejects.toThrow(
      `Chromium still not found after \`apt-get install chromium-headless-shell\` (looked in: ${shell}, ${debian}, ${playwright}).`,
    );
  });

  it('lets an apt-get failure through', async () => {
    const { machine } = host({ canInstall: true });
    machine.install = () =>
      Promise.reject(new Error('apt-get install -y chromium-headless-shell exited with 100'));
    await expect(findOrInstall(spec(), machine)).rejects.toThrow('exited with 100');
  });

  it("defaults to Debian's paths, then the browser path Playwright itself reports", () => {
    expect(chromiumBinary().candidates({})).toEqual([
      '/usr/bin/chromium-headless-shell',
      '/usr/bin/chromium',
      chromium.executablePath(),
    ]);
  });
});

describe('PostgreSQL lookup', () => {
  it('prefers PATH, then the newest version under /usr/lib/postgresql', () => {
    const libDir = path.join(dir, 'lib/postgresql');
    const old = program(path.join(libDir, '9.6/bin/initdb'));
    const newest = program(path.join(libDir, '15/bin/initdb'));
    const spec = postgresqlBinary('initdb', { libDir });
    expect(findSystemBinary(spec, { env: { PATH: path.join(dir, 'empty') } })).toBe(newest);
    fs.rmSync(newest);
    expect(findSystemBinary(spec, { env: { PATH: '' } })).toBe(old);
    const onPath = program(path.join(dir, 'bin/initdb'));
    expect(findSystemBinary(spec, { env: { PATH: path.join(dir, 'bin') } })).toBe(onPath);
  });

  it("installs Debian's postgresql package when nothing is there", async () => {
    const libDir = path.join(dir, 'lib/postgresql');
    const initdb = path.join(libDir, '15/bin/initdb');
    const { machine, installed } = host({ env: { PATH: '' }, canInstall: true, installs: [initdb] });
    expect(await findOrInstall(postgresqlBinary('initdb', { libDir }), machine)).toBe(initdb);
    expect(installed).toEqual([['postgresql']]);
  });

  it('names the package to install when it cannot', async () => {
    const spec = postgresqlBinary('pg_ctl', { libDir: path.join(dir, 'none') });
    await expect(findOrInstall(spec, host({ env: { PATH: '' } }).machine)).rejects.toThrow(
      /^PostgreSQL's pg_ctl not found: run `apt-get install postgresql` as root\.$/,
    );
  });
});
