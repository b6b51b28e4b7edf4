// sharp (libvips, a native addon) is loaded with the first image it is given, not with the modules
// that use it: a server start or a command that handles no image never pays for it.
import type Sharp from 'sharp';
import { lazyModule } from './lazy-module.ts';

const loadSharp = lazyModule<typeof Sharp>('sharp');

/** sharp's constructor, `sharp(input, options)`; its first call loads sharp. */
export function sharp(...args: Parameters<typeof Sharp>): Sharp.Sharp {
  return loadSharp()(...args);
}
