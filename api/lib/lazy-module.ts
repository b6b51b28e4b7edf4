// A package some paths of a process use is loaded when one of them first needs it, not when a module
// that names it is imported: jsdom, firebase-admin, sharp, pg and gray-matter are most of a start-up
// that never renders, verifies, resizes or reads a post file (a restart, a command, a demo server).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The package `name` (of type T), required on the first call and kept. */
export function lazyModule<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
