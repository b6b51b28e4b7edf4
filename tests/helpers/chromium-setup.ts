// Vitest globalSetup for the e2e project, listed before e2e-setup.ts so that a missing browser is
// installed, or reported, before any server is built. (A root-level globalSetup would run after
// the projects' own, in Vitest 4.)
import type { TestProject } from 'vitest/node';
import { chromiumBinary, findOrInstall, SystemDependencyError } from '../../scripts/lib/system-deps.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumPath: string;
  }
}

export default async function setup(project: TestProject) {
  try {
    project.provide('chromiumPath', await findOrInstall(chromiumBinary()));
  } catch (error) {
    if (!(error instanceof SystemDependencyError)) throw error;
    // The one line, without a stack trace of our helper around it.
    throw Object.assign(new Error(error.message), { stack: error.message });
  }
}
