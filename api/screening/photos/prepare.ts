// A fetched listing photo, made safe to keep and ready to analyse. Like the studio's uploads
// (api/lib/images.ts), it is decoded and encoded anew with no metadata at all: a phone photo of a
// cot still carries where and when it was taken. The decode is bounded (megapixels, damaged data)
// before any pixel is touched, and every way a file can be wrong answers in words, never a throw.
import type { Metadata, OutputInfo, Sharp } from 'sharp';
import type { FaceBox } from '../../contract/screening.ts';
import { sharp } from '../../lib/sharp.ts';
import {
  DAMAGED_IMAGE,
  IMAGE_MAX_PIXELS,
  IMAGE_MAX_SIDE,
  NOT_AN_IMAGE,
  TOO_MANY_PIXELS,
} from '../../lib/images.ts';

/** The longest side of the photo kept: enough for a listing page and a moderator's look. */
export const PHOTO_MAX_SIDE = 1600;
/**
 * The longest side the models see. nsfwjs scales to 224 × 224 and the face detector to 512 × 512
 * on their own; 640 keeps small faces in a wide photo without decoding more than needed.
 */
export const ANALYSIS_MAX_SIDE = 640;
/** The JPEG kept: what a phone's own camera app writes, a third the size of its files. */
export const PHOTO_JPEG_QUALITY = 82;

/** RGB pixels, 3 bytes each, row by row. */
export interface AnalysisPixels {
  data: Uint8Array;
  width: number;
  height: number;
}

export type PreparedPhoto =
  | { ok: true; jpeg: Buffer; width: number; height: number; pixels: AnalysisPixels }
  | { ok: false; reason: string };

/** Decoding options for every photo: bounded, and damaged data is an error, not grey pixels. */
const DECODE = { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error' } as const;

const FORMATS = new Set(['jpeg', 'png', 'webp']);

/** Why a file is not decoded, or null when it may be: from its header alone, before its pixels. */
async function refusal(bytes: Uint8Array): Promise<string | null> {
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return NOT_AN_IMAGE;
  }
  const avif = metadata.format === 'heif' && metadata.compression === 'av1';
  if (!FORMATS.has(metadata.format ?? '') && !avif) return NOT_AN_IMAGE;
  const { width, height } = metadata.autoOrient;
  if (!width || !height) return DAMAGED_IMAGE;
  if (width * height > IMAGE_MAX_PIXELS || Math.max(width, height) > IMAGE_MAX_SIDE) return TOO_MANY_PIXELS;
  return null;
}

/**
 * Turns fetched bytes into the photo kept (an upright sRGB JPEG with no metadata, longest side at
 * most PHOTO_MAX_SIDE) and the pixels analysed (longest side at most ANALYSIS_MAX_SIDE).
 */
export async function preparePhoto(bytes: Uint8Array): Promise<PreparedPhoto> {
  try {
    const refused = await refusal(bytes);
    if (refused) return { ok: false, reason: refused };
    let decoded: { data: Buffer; info: OutputInfo };
    try {
      decoded = await sharp(bytes, DECODE)
        // Upright first: the orientation lives in the metadata that is about to go.
        .rotate()
        .resize({ width: PHOTO_MAX_SIDE, height: PHOTO_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
        // Transparency over white, as a listing page shows it; then plain RGB.
        .flatten({ background: '#ffffff' })
        .toColourspace('srgb')
        .raw({ depth: 'uchar' })
        .toBuffer({ resolveWithObject: true });
    } catch (error) {
      return { ok: false, reason: pixelLimit(error) ? TOO_MANY_PIXELS : DAMAGED_IMAGE };
    }
    const { width, height, channels } = decoded.info;
    if (channels !== 3) return { ok: false, reason: DAMAGED_IMAGE };
    const raw = { raw: { width, height, channels } } as const;
    const [jpeg, pixels] = await Promise.all([
      sharp(decoded.data, raw).jpeg({ quality: PHOTO_JPEG_QUALITY }).toBuffer(),
      analysisPixels(sharp(decoded.data, raw)),
    ]);
    return { ok: true, jpeg, width, height, pixels };
  } catch {
    return { ok: false, reason: DAMAGED_IMAGE };
  }
}

/** The pixels analysed, from a photo kept by preparePhoto (the worker decodes there, off the main thread). */
export async function pixelsForAnalysis(jpeg: Uint8Array): Promise<AnalysisPixels> {
  try {
    return await analysisPixels(
      sharp(jpeg, DECODE).rotate().flatten({ background: '#ffffff' }).toColourspace('srgb'),
    );
  } catch (error) {
    throw new Error(pixelLimit(error) ? TOO_MANY_PIXELS : DAMAGED_IMAGE, { cause: error });
  }
}

async function analysisPixels(image: Sharp): Promise<AnalysisPixels> {
  const { data, info } = await image
    .resize({ width: ANALYSIS_MAX_SIDE, height: ANALYSIS_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(DAMAGED_IMAGE);
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
}

function pixelLimit(error: unknown): boolean {
  return error instanceof Error && /pixel limit/i.test(error.message);
}

/** Room around a face box blurred too, as a share of its size: hair, ears and chin. */
export const BLUR_MARGIN = 0.35;

/**
 * The photo with every face blurred past recognition (a box with its margin, blurred by a fifth of
 * its size), encoded anew with no metadata. The boxes are fractions of the photo's upright size.
 */
export async function blurFaces(jpeg: Buffer, faces: FaceBox[]): Promise<Buffer> {
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(jpeg, DECODE)
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new Error(pixelLimit(error) ? TOO_MANY_PIXELS : DAMAGED_IMAGE, { cause: error });
  }
  const { width, height, channels } = decoded.info;
  const raw = { raw: { width, height, channels } } as const;
  const patches = await Promise.all(
    faces.map(async (face) => {
      const region = blurRegion(face, width, height);
      if (!region) return null;
      const sigma = Math.max(8, Math.max(region.width, region.height) / 5);
      const input = await sharp(decoded.data, raw).extract(region).blur(sigma).raw().toBuffer();
      return {
        input,
        raw: { width: region.width, height: region.height, channels },
        left: region.left,
        top: region.top,
      };
    }),
  );
  const overlays = patches.filter((patch) => patch !== null);
  return sharp(decoded.data, raw).composite(overlays).jpeg({ quality: PHOTO_JPEG_QUALITY }).toBuffer();
}

/** A face box with its margin, in pixels, inside the photo; null for a box that is not in it. */
export function blurRegion(
  face: FaceBox,
  width: number,
  height: number,
): { left: number; top: number; width: number; height: number } | null {
  const values = [face.x, face.y, face.width, face.height];
  if (!values.every(Number.isFinite) || face.width <= 0 || face.height <= 0) return null;
  const x0 = Math.max(0, Math.floor((face.x - face.width * BLUR_MARGIN) * width));
  const y0 = Math.max(0, Math.floor((face.y - face.height * BLUR_MARGIN) * height));
  const x1 = Math.min(width, Math.ceil((face.x + face.width * (1 + BLUR_MARGIN)) * width));
  const y1 = Math.min(height, Math.ceil((face.y + face.height * (1 + BLUR_MARGIN)) * height));
  if (x1 - x0 < 1 || y1 - y0 < 1) return null;
  return { left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
}
