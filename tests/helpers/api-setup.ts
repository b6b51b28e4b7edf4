// Vitest globalSetup for the api project: one real Auth emulator for every API test file.
import type { TestProject } from 'vitest/node';
import { startAuthEmulator } from './auth-emulator.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
  }
}

export default async function setup(project: TestProject) {
  const emulator = await startAuthEmulator();
  project.provide('authEmulatorHost', emulator.host);
  return () => emulator.stop();
}
