// The programs that tests need from Debian's packages (Chromium now, PostgreSQL next). Each is
// looked up where Debian or an explicit setting puts it; when it is missing and this machine can
// install Debian packages (root, apt-get present), its package is installed with apt-get's own
// progress on screen. Nothing is ever downloaded from anywhere but the system's package manager.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import which from 'which';

type Env = Record<string, string | undefined>;

export interface SystemBinary {
  /** The program's name in messages, e.g. "Chromium". */
  label: string;
  /** The Debian package that provides it. */
  aptPackage: string;
  /** An environment variable naming the binary; when set it wins, and must be right. */
  envVar?: string;
  /** Where to look, best first. Called again after an install, so it may read the disk. */
  candidates: (env: Env) => string[];
}

/** What the lookup needs from the machine; tests pass their own. */
export interface SystemHost {
  env: Env;
  /** Root with apt-get on PATH. */
  canInstall: () => boolean;
  /** Installs Debian packages, showing apt-get's progress; rejects if apt-get fails. */
  install: (packages: string[]) => Promise<void>;
  log: (line: string) => void;
}

/** A missing program, explained in one line that says what to install. */
export class SystemDependencyError extends Error {
  override name = 'SystemDependencyError';
}

export function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    // stdio inherited: apt-get's progress is the visible progress.
    const child = spawn(command, args, {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

export const systemHost: SystemHost = {
  env: process.env,
  canInstall: () => process.getuid?.() === 0 && which.sync('apt-get', { nothrow: true }) !== null,
  install: async (packages) => {
    // Wait for a dpkg lock held by another apt run instead of failing at once.
    const lock = ['-o', 'DPkg::Lock::Timeout=300'];
    await run('apt-get', [...lock, 'update']);
    // With recommends, as .ci/run installs them: Chromium's fonts change how pages lay out.
    await run('apt-get', [...lock, 'install', '-y', ...packages]);
  },
  log: (line) => console.log(line),
};

/** The binary if it is already on this machine, else undefined. Only reads the disk. */
export function findSystemBinary(binary: SystemBinary, host: Pick<SystemHost, 'env'> = systemHost) {
  const explicit = binary.envVar ? host.env[binary.envVar] : undefined;
  if (explicit) {
    // A wrong explicit setting is a mistake to report, not a reason to quietly use another one.
    if (isExecutableFile(explicit)) return explicit;
    throw new SystemDependencyError(
      `${binary.envVar}=${explicit} is not an executable file: point it at ${binary.label} or unset it.`,
    );
  }
  return binary.candidates(host.env).find(isExecutableFile);
}

/**
 * The binary's path: found where it is, or installed from its Debian package when this machine
 * can, or a SystemDependencyError whose one-line message says exactly what to install.
 */
export async function findOrInstall(binary: SystemBinary, host: SystemHost = systemHost): Promise<string> {
  const found = findSystemBinary(binary, host);
  if (found) return found;
  const command = `apt-get install ${binary.aptPackage}`;
  const orSet = binary.envVar ? `, or set ${binary.envVar} to its path` : '';
  if (!host.canInstall()) {
    throw new SystemDependencyError(`${binary.label} not found: run \`${command}\` as root${orSet}.`);
  }
  host.log(`${binary.label} not found: installing Debian's ${binary.aptPackage} package (apt-get) …`);
  await host.install([binary.aptPackage]);
  const installed = findSystemBinary(binary, host);
  if (!installed) {
    const looked = binary.candidates(host.env).join(', ') || 'nowhere';
    throw new SystemDependencyError(
      `${binary.label} still not found after \`${command}\` (looked in: ${looked}).`,
    );
  }
  host.log(`${binary.label}: ${installed}`);
  return installed;
}

/** The browser that Playwright would use had `playwright install` put one there, if any. */
function playwrightChromium(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    // Playwright knows no build for this platform.
    return undefined;
  }
}

/**
 * Chromium for the browser tests and benchmarks: CHROMIUM_PATH, then Debian's headless shell (the
 * same Chromium without the desktop browser around it, which is what Playwright itself runs headless
 * and costs half the CPU on a 2-core machine: docs/decisions/016-browser-tests-run-the-headless-shell.md),
 * then Debian's full browser, then one Playwright has already installed; else Debian's headless shell.
 */
export function chromiumBinary(
  options: { shellPath?: string; debianPath?: string; playwrightPath?: string | undefined } = {},
): SystemBinary {
  const shellPath = options.shellPath ?? '/usr/bin/chromium-headless-shell';
  const debianPath = options.debianPath ?? '/usr/bin/chromium';
  const playwrightPath = 'playwrightPath' in options ? options.playwrightPath : playwrightChromium();
  return {
    label: 'Chromium',
    aptPackage: 'chromium-headless-shell',
    envVar: 'CHROMIUM_PATH',
    candidates: () => [shellPath, debianPath, ...(playwrightPath ? [playwrightPath] : [])],
  };
}

/**
 * One of PostgreSQL's server programs (initdb, pg_ctl, postgres): on PATH, else in the newest
 * /usr/lib/postgresql/<version>/bin, where Debian's package puts them without touching PATH.
 */
export function postgresqlBinary(name: string, options: { libDir?: string } = {}): SystemBinary {
  const libDir = options.libDir ?? '/usr/lib/postgresql';
  return {
    label: `PostgreSQL's ${name}`,
    aptPackage: 'postgresql',
    candidates: (env) => {
      const onPath = which.sync(name, { all: true, nothrow: true, path: env.PATH ?? '' }) ?? [];
      const versions = fs.existsSync(libDir) ? fs.readdirSync(libDir) : [];
      versions.sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
      return [...onPath, ...versions.map((version) => path.join(libDir, version, 'bin', name))];
    },
  };
}
