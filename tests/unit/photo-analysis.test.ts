// Listing photos made safe and analysed (api/screening/photos/): real photographs through the real
// models in the real worker pool, files that are not photos refused in words, faces blurred, and a
// worker that runs out of time replaced. No explicit image is shipped or used: nudity is tested on
// constructed scores, and the real model's scores for a clothed person stay below the thresholds.
//
// The photographs (tests/fixtures/photos/, re-encoded as JPEG from the PNGs that Debian's
// python3-skimage 0.19.3 ships in skimage/data/; see the README there):
// - astronaut.jpg: the astronaut Eileen Collins, NASA (NASA Great Images), public domain.
// - coffee.jpg: a cup of coffee, by Rachel Michetti, courtesy of Pikolo Espresso Bar, CC0.
import fs from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceBox } from '../../api/contract/screening.ts';
import { DAMAGED_IMAGE, NOT_AN_IMAGE, TOO_MANY_PIXELS } from '../../api/lib/images.ts';
import type { PhotoAnalysis } from '../../api/screening/photos/analyse.ts';
import {
  faceText,
  NUDITY_EXPLICIT_MIN,
  NUDITY_SUGGESTIVE_MIN,
  NUDITY_TEXT,
  photoFindings,
} from '../../api/screening/photos/outcome.ts';
import {
  ANALYSER_CLOSED,
  createPhotoAnalyser,
  PhotoAnalysisFailed,
  type PhotoAnalyser,
  timedOut,
} from '../../api/screening/photos/pool.ts';
import {
  ANALYSIS_MAX_SIDE,
  blurFaces,
  blurRegion,
  PHOTO_MAX_SIDE,
  preparePhoto,
} from '../../api/screening/photos/prepare.ts';
import { handMadePng } from '../helpers/png.ts';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/photos/${name}`, import.meta.url));
const astronaut = fixture('astronaut.jpg');
const coffee = fixture('coffee.jpg');

/** A worker's start (tsx, TensorFlow.js, both models) takes a few seconds on a busy machine. */
const MODEL_TIMEOUT = 120_000;

async function prepared(bytes: Buffer) {
  const result = await preparePhoto(bytes);
  if (!result.ok) throw new Error(result.reason);
  return result;
}

/**
 * A PNG of white pixels, one bit each, written out by hand: 51 megapixels of it take a deflate of
 * 6 MB, where sharp spent about 0.6 s of CPU making and encoding them.
 */
function whitePng(width: number, height: number): Buffer {
  // Grey, one bit a pixel; each row starts with its filter byte (none).
  const row = 1 + Math.ceil(width / 8);
  const rows = Buffer.alloc(row * height, 0xff);
  for (let y = 0; y < height; y++) rows[y * row] = 0;
  return handMadePng({ width, height, bitDepth: 1, colourType: 0 }, rows);
}

const analysis = (nsfw: Partial<PhotoAnalysis['nsfw']>, faces: FaceBox[] = []): PhotoAnalysis => ({
  nsfw: { porn: 0, hentai: 0, sexy: 0, neutral: 1, drawing: 0, ...nsfw },
  faces,
  people: faces.length > 0,
  ms: 1,
});

describe('preparePhoto', () => {
  it('re-encodes a photo as an upright JPEG with no metadata, and the pixels analysed', async () => {
    // 2000 × 1500 with EXIF (a camera, a place) and a "turn right" orientation.
    const camera = await sharp(astronaut)
      .resize(2000, 1500, { fit: 'fill' })
      .withExif({ IFD0: { Make: 'PhoneCo', Model: 'Cam 1' }, IFD3: { GPSLatitudeRef: 'N' } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    expect((await sharp(camera).metadata()).exif).toBeDefined();
    const photo = await prepared(camera);
    // Turned upright: 1500 × 2000, then at most 1600 on the longest side.
    expect([photo.width, photo.height]).toEqual([1200, PHOTO_MAX_SIDE]);
    const kept = await sharp(photo.jpeg).metadata();
    expect(kept).toMatchObject({ format: 'jpeg', width: 1200, height: 1600 });
    expect(kept.exif).toBeUndefined();
    expect(kept.icc).toBeUndefined();
    expect(kept.xmp).toBeUndefined();
    expect(kept.orientation).toBeUndefined();
    expect([photo.pixels.width, photo.pixels.height]).toEqual([480, ANALYSIS_MAX_SIDE]);
    expect(photo.pixels.data.length).toBe(480 * ANALYSIS_MAX_SIDE * 3);
  });

  it('keeps a small photo at its own size', async () => {
    const photo = await prepared(coffee);
    expect([photo.width, photo.height, photo.pixels.width, photo.pixels.height]).toEqual([
      600, 400, 600, 400,
    ]);
  });

  it('refuses a truncated JPEG in words', async () => {
    const truncated = astronaut.subarray(0, Math.floor(astronaut.byteLength / 2));
    expect(await preparePhoto(truncated)).toEqual({ ok: false, reason: DAMAGED_IMAGE });
  });

  it('refuses what is not an image in words', async () => {
    for (const bytes of [
      Buffer.from('<!doctype html><title>Not found</title>'),
      Buffer.alloc(0),
      Buffer.from([0xff, 0xd8]),
    ]) {
      const result = await preparePhoto(bytes);
      expect(result.ok).toBe(false);
      expect([NOT_AN_IMAGE, DAMAGED_IMAGE]).toContain(!result.ok && result.reason);
    }
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    expect(await preparePhoto(gif)).toEqual({ ok: false, reason: NOT_AN_IMAGE });
  });

  it('refuses a decompression bomb before decoding it', async () => {
    // 51.2 megapixels of white: 14 KB on disk, 150 MB once decoded.
    const bomb = whitePng(8000, 6400);
    expect(bomb.byteLength).toBeLessThan(200_000);
    expect(await preparePhoto(bomb)).toEqual({ ok: false, reason: TOO_MANY_PIXELS });
    // A real image, only a large one: the same PNG at a size that may be decoded is white pixels.
    const small = await sharp(whitePng(80, 64)).raw().toBuffer({ resolveWithObject: true });
    expect(small.info).toMatchObject({ width: 80, height: 64 });
    expect(small.data.every((value) => value === 255)).toBe(true);
    const wide = await sharp({ create: { width: 20_000, height: 8, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();
    expect(await preparePhoto(wide)).toEqual({ ok: false, reason: TOO_MANY_PIXELS });
  }, 20_000);
});

describe('photoFindings', () => {
  it('passes a photo with low scores and no face', () => {
    expect(photoFindings(analysis({ porn: 0.05, hentai: 0.05, sexy: 0.3 }))).toEqual({
      outcome: 'pass',
      reasons: [],
    });
  });

  it('holds possible nudity for a moderator, from explicit or suggestive scores', () => {
    const nudity = { outcome: 'flag', reasons: [{ rule: 'photo.nudity', text: NUDITY_TEXT, source: null }] };
    expect(photoFindings(analysis({ porn: NUDITY_EXPLICIT_MIN, neutral: 0.7 }))).toEqual(nudity);
    expect(photoFindings(analysis({ porn: 0.2, hentai: 0.1, neutral: 0.7 }))).toEqual(nudity);
    expect(photoFindings(analysis({ sexy: NUDITY_SUGGESTIVE_MIN, neutral: 0.4 }))).toEqual(nudity);
    expect(photoFindings(analysis({ porn: 0.29, sexy: 0.59 })).outcome).toBe('pass');
  });

  it('holds any face, saying how many', () => {
    const face = { x: 0.1, y: 0.1, width: 0.2, height: 0.2 };
    const two = photoFindings(analysis({}, [face, face]));
    expect(two).toEqual({
      outcome: 'flag',
      reasons: [{ rule: 'photo.face', text: faceText(2), source: null }],
    });
    expect(faceText(2)).toBe(
      "The photo shows a person's face (2 faces found); Nestling does not show people in listing photos unless their faces are blurred.",
    );
    expect(faceText(1)).toContain('(1 face found)');
    const both = photoFindings(analysis({ porn: 0.9 }, [face]));
    expect(both.reasons.map((r) => r.rule)).toEqual(['photo.nudity', 'photo.face']);
  });
});

describe('the photo analyser (real models in a worker thread)', () => {
  let analyser: PhotoAnalyser;
  let astronautPhoto: Awaited<ReturnType<typeof prepared>>;
  let coffeePhoto: Awaited<ReturnType<typeof prepared>>;

  beforeAll(async () => {
    analyser = createPhotoAnalyser({ workers: 1 });
    [astronautPhoto, coffeePhoto] = await Promise.all([prepared(astronaut), prepared(coffee)]);
  });
  afterAll(() => analyser.close());

  it(
    'finds the face in a photo of a person and holds it',
    async () => {
      const result = await analyser.analyse(astronautPhoto.jpeg);
      expect(result.faces.length).toBeGreaterThanOrEqual(1);
      expect(result.people).toBe(true);
      // Her face: about a third from the left, in the top third.
      const face = result.faces[0]!;
      expect(face.x).toBeGreaterThan(0.25);
      expect(face.x + face.width).toBeLessThan(0.65);
      expect(face.y).toBeLessThan(0.3);
      // A clothed person: well under both nudity thresholds.
      expect(result.nsfw.porn + result.nsfw.hentai).toBeLessThan(NUDITY_EXPLICIT_MIN / 3);
      expect(result.nsfw.sexy).toBeLessThan(NUDITY_SUGGESTIVE_MIN / 3);
      const findings = photoFindings(result);
      expect(findings.outcome).toBe('flag');
      expect(findings.reasons.map((r) => r.rule)).toEqual(['photo.face']);
    },
    MODEL_TIMEOUT,
  );

  it(
    'finds no one in a photo of a cup of coffee and passes it',
    async () => {
      const result = await analyser.analyse(coffeePhoto.jpeg);
      expect(result.faces).toEqual([]);
      expect(result.people).toBe(false);
      expect(result.nsfw.neutral + result.nsfw.drawing).toBeGreaterThan(0.9);
      expect(photoFindings(result)).toEqual({ outcome: 'pass', reasons: [] });
      expect(result.ms).toBeGreaterThan(0);
    },
    MODEL_TIMEOUT,
  );

  it(
    'blurs the faces found, and the blurred photo has no metadata',
    async () => {
      const { faces } = await analyser.analyse(astronautPhoto.jpeg);
      const blurred = await blurFaces(astronautPhoto.jpeg, faces);
      const meta = await sharp(blurred).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: 512, height: 512 });
      expect(meta.exif).toBeUndefined();
      // The face region changed a great deal; the rest only by a JPEG's re-encoding.
      const region = blurRegion(faces[0]!, 512, 512)!;
      const difference = async (area: sharp.Region) => {
        const a = await sharp(astronautPhoto.jpeg).extract(area).raw().toBuffer();
        const b = await sharp(blurred).extract(area).raw().toBuffer();
        let sum = 0;
        for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
        return sum / a.length;
      };
      expect(await difference(region)).toBeGreaterThan(15);
      expect(await difference({ left: 0, top: 400, width: 512, height: 112 })).toBeLessThan(3);
    },
    MODEL_TIMEOUT,
  );

  it(
    'answers a file that is no photo with words, and goes on',
    async () => {
      const failed = analyser.analyse(Buffer.from('not a photo'));
      await expect(failed).rejects.toBeInstanceOf(PhotoAnalysisFailed);
      await expect(failed).rejects.toThrow(DAMAGED_IMAGE);
      expect((await analyser.analyse(coffeePhoto.jpeg)).faces).toEqual([]);
    },
    MODEL_TIMEOUT,
  );

  it(
    'replaces a worker that runs out of time; the next photo is analysed',
    async () => {
      const late = analyser.analyse(astronautPhoto.jpeg, { timeoutMs: 1 });
      // Queued behind it: analysed by the worker that takes the place of the one ended.
      const next = analyser.analyse(astronautPhoto.jpeg);
      await expect(late).rejects.toBeInstanceOf(PhotoAnalysisFailed);
      await expect(late).rejects.toThrow(timedOut(1));
      expect((await next).faces.length).toBeGreaterThanOrEqual(1);
    },
    MODEL_TIMEOUT,
  );

  it('refuses photos once closed', async () => {
    const closing = createPhotoAnalyser();
    await closing.close();
    await expect(closing.analyse(coffeePhoto.jpeg)).rejects.toThrow(ANALYSER_CLOSED);
  });
});

describe('blurRegion', () => {
  it('adds a margin and keeps the region inside the photo', () => {
    expect(blurRegion({ x: 0.4, y: 0.4, width: 0.2, height: 0.2 }, 1000, 500)).toEqual({
      left: 330,
      top: 165,
      width: 340,
      height: 170,
    });
    expect(blurRegion({ x: 0.9, y: -0.1, width: 0.3, height: 0.3 }, 100, 100)).toEqual({
      left: 79,
      top: 0,
      width: 21,
      height: 31,
    });
    expect(blurRegion({ x: 2, y: 2, width: 0.1, height: 0.1 }, 100, 100)).toBeNull();
    expect(blurRegion({ x: Number.NaN, y: 0, width: 0.1, height: 0.1 }, 100, 100)).toBeNull();
  });
});
