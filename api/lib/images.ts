// Uploaded images (docs/product.md, "The studio"): every upload is decoded and encoded anew, so
// nothing of the file but its pixels survives. Photos of children carry where and when they were
// taken (EXIF, GPS, XMP); a re-encode that writes no metadata at all is the only sure way to drop
// every kind of it, including kinds no one thought to list.
import { createHash } from 'node:crypto';
import type { Metadata, OutputInfo } from 'sharp';
import { type ImageFormat, IMAGE_TYPES, imageWidths } from '../contract/studio.ts';
import { sharp } from './sharp.ts';

/**
 * The most pixels an upload may have: a 48-megapixel phone photo fits; a "decompression bomb" (a
 * small file that decodes to a gigantic image) is refused before it is decoded.
 */
export const IMAGE_MAX_PIXELS = 50_000_000;
/** The longest side an image may have: WebP cannot hold more, and a variant keeps the height. */
export const IMAGE_MAX_SIDE = 16_383;

/** How each format is encoded: tuned so that a 12-megapixel photo takes well under 2 s (docs/benchmarks.md). */
export const ENCODING = {
  // AVIF, which nearly every browser takes: effort 4 (the default) took four times as long for 2 %
  // smaller files; effort 1 was five times quicker but needed twice the bytes for the same quality.
  // Colour at half resolution (4:2:0, as in camera JPEGs): a third less work and smaller files.
  avif: { quality: 50, effort: 3, chromaSubsampling: '4:2:0' },
  // WebP is the fallback for the few browsers without AVIF: speed before the last 5 % of size.
  webp: { quality: 80, effort: 2 },
} as const;

export const CONTENT_TYPES: Record<ImageFormat, string> = { avif: 'image/avif', webp: 'image/webp' };

export type UploadType = (typeof IMAGE_TYPES)[number];

export const NOT_AN_IMAGE = 'That file is not a JPEG, PNG, WebP or AVIF image.';
export const DAMAGED_IMAGE = 'That image could not be read: the file may be damaged or incomplete.';
export const TOO_MANY_PIXELS = `That image is too large: at most ${IMAGE_MAX_PIXELS / 1_000_000} megapixels and ${IMAGE_MAX_SIDE.toLocaleString('en')} pixels on a side.`;

/** An upload refused for what it is (not a supported image, too many pixels); nothing is stored. */
export class ImageRefusedError extends Error {
  constructor(
    message: string,
    readonly status: 413 | 415,
  ) {
    super(message);
    this.name = 'ImageRefusedError';
  }
}

export interface ImageVariant {
  width: number;
  format: ImageFormat;
  contentType: string;
  data: Buffer;
}

export interface ProcessedImage {
  id: string;
  /** The upload's size once turned upright. */
  width: number;
  height: number;
  /** The format it came in, as decoded (never what the file's name or the request said). */
  uploadedType: UploadType;
  uploadedBytes: number;
  variants: ImageVariant[];
}

/**
 * An image's id: the start of the upload's SHA-256, so the same upload twice is one image and its
 * addresses never change (they are cached for a year). 32 hex digits: no collision in practice.
 */
export function imageId(upload: Uint8Array): string {
  return createHash('sha256').update(upload).digest('hex').slice(0, 32);
}

/** What the upload is, from its own bytes; refuses anything but JPEG, PNG, WebP and AVIF. */
async function inspect(upload: Uint8Array): Promise<{ type: UploadType; width: number; height: number }> {
  let metadata: Metadata;
  try {
    metadata = await sharp(upload, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRefusedError(NOT_AN_IMAGE, 415);
  }
  const type = uploadType(metadata);
  if (!type) throw new ImageRefusedError(NOT_AN_IMAGE, 415);
  // The size as the photo is meant to be seen (a phone's portrait photo is stored sideways).
  const { width, height } = metadata.autoOrient;
  if (!width || !height) throw new ImageRefusedError(DAMAGED_IMAGE, 415);
  if (width * height > IMAGE_MAX_PIXELS || Math.max(width, height) > IMAGE_MAX_SIDE) {
    throw new ImageRefusedError(TOO_MANY_PIXELS, 413);
  }
  return { type, width, height };
}

function uploadType(metadata: Metadata): UploadType | null {
  switch (metadata.format) {
    case 'jpeg':
      return 'image/jpeg';
    case 'png':
      return 'image/png';
    case 'webp':
      return 'image/webp';
    case 'heif':
      // HEIF holds AVIF (AV1) and HEIC (HEVC); only AVIF is accepted.
      return metadata.compression === 'av1' ? 'image/avif' : null;
    default:
      return null;
  }
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Decodes an upload, turns it upright and encodes it at each width of imageWidths() as AVIF and
 * WebP, with no metadata at all. The upload is decoded once, at the widest width served; the
 * variants are made from those pixels side by side on sharp's threads.
 */
export function processImage(upload: Uint8Array): Promise<ProcessedImage> {
  // One image at a time in a process: each already keeps every core busy, and a second one at
  // the same moment would only add its memory.
  const processing = queue.then(() => encode(upload));
  queue = processing.catch(() => undefined);
  return processing;
}

async function encode(upload: Uint8Array): Promise<ProcessedImage> {
  const { type, width, height } = await inspect(upload);
  const widths = imageWidths(width);
  const widest = widths[widths.length - 1]!;
  let base: { data: Buffer; info: OutputInfo };
  try {
    base = await sharp(upload, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error' })
      // Upright first: the orientation lives in the metadata that is about to go.
      .rotate()
      .resize({ width: widest })
      // sRGB, 8 bits a channel: what browsers show the same everywhere once the profile is gone.
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new ImageRefusedError(DAMAGED_IMAGE, 415);
  }
  const { channels } = base.info;
  if (channels !== 3 && channels !== 4) throw new ImageRefusedError(DAMAGED_IMAGE, 415);
  const raw = { width: base.info.width, height: base.info.height, channels };
  const variant = async (w: number, format: ImageFormat): Promise<ImageVariant> => {
    let pipeline = sharp(base.data, { raw });
    if (w !== raw.width) pipeline = pipeline.resize({ width: w });
    const data = await (
      format === 'avif' ? pipeline.avif(ENCODING.avif) : pipeline.webp(ENCODING.webp)
    ).toBuffer();
    return { width: w, format, contentType: CONTENT_TYPES[format], data };
  };
  // The slowest (the widest AVIF) first, so it is never the one left running alone at the end.
  const widestFirst = [...widths].reverse();
  const variants = await Promise.all([
    ...widestFirst.map((w) => variant(w, 'avif')),
    ...widestFirst.map((w) => variant(w, 'webp')),
  ]);
  return {
    id: imageId(upload),
    width,
    height,
    uploadedType: type,
    uploadedBytes: upload.byteLength,
    variants,
  };
}
