// sharp (libvips, a native addon) is loaded with the first image it is given, not with the modules
// that use it: a server start or a command that handles no image never pays for it.
import { createRequire } from 'node:module';
import type Sharp from 'sharp';

let loaded: typeof Sharp | undefined;

/** sharp's constructor, `sharp(input, options)`; its first call loads sharp. */
export function sharp(...args: Parameters<typeof Sharp>): Sharp.Sharp {
  loaded ??= createRequire(import.meta.url)('sharp') as typeof Sharp;
  return loaded(...args);
}
