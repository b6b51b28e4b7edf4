// Uploaded images (docs/product.md, "The studio"): editors upload JPEG, PNG, WebP or AVIF with alt
// text; every variant the server serves is re-encoded with no metadata (a photo's GPS position is
// gone), in each width as AVIF and WebP, cached for a year; anything else is refused with nothing
// stored. And the Markdown pipeline turns an uploaded image into a <picture> the sanitizer keeps.
// Through the real app over a real database, with the Auth emulator's people.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  IMAGE_ALT_MAX,
  IMAGE_MAX_BYTES,
  type ImageFormat,
  imageUrl,
  imageWidths,
  type UploadedImage,
  uploadedImageSources,
} from '../../api/contract/studio.ts';
import { renderMarkdown, sanitizeHtml } from '../../api/lib/html.ts';
import { NOT_AN_IMAGE, TOO_MANY_PIXELS } from '../../api/lib/images.ts';
import { liveReleaseSource } from '../../api/lib/live-release.ts';
import { readCache } from '../../api/middleware/read-cache.ts';
import { IMAGE_UPLOADS_PER_MINUTE } from '../../api/middleware/rate-limit.ts';
import type { ReadCache } from '../../api/types.ts';
import {
  emulatorAccounts,
  emulatorVerifier,
  expectJson,
  newParent,
  type Parent,
} from '../helpers/parents.ts';
import { handMadePng } from '../helpers/png.ts';
import { createTestApp } from '../helpers/test-db.ts';
import ResponsiveImage, { IMAGE_SIZES } from '../../src/components/ResponsiveImage.tsx';

type Setup = Awaited<ReturnType<typeof createTestApp>>;
let app: Setup['app'];
let db: Setup['db'];
let cache: ReadCache;
let release: ReturnType<typeof liveReleaseSource>;
let editor: Parent;
let admin: Parent;
let author: Parent;
let moderator: Parent;
let parent: Parent;

beforeAll(async () => {
  cache = readCache({ ttlMs: 60_000 });
  ({ app, db } = await createTestApp((database) => {
    release = liveReleaseSource(database);
    return { verifyToken: emulatorVerifier(), accounts: emulatorAccounts(), readCache: cache, release };
  }));
  [editor, admin, author, moderator, parent] = await Promise.all([
    newParent(app, db, 'Eda Editor', 'editor'),
    newParent(app, db, 'Ari Admin', 'admin'),
    newParent(app, db, 'Abe Author', 'author'),
    newParent(app, db, 'Mo Moderator', 'moderator'),
    newParent(app, db, 'Pat Parent'),
  ]);
});

// ---- Making images ---------------------------------------------------------------------------

/** Pixels like a photo's: gradients, texture and noise (a flat image would prove little). */
function photoPixels(width: number, height: number, seed = 1): Buffer {
  const pixels = new Uint8ClampedArray(width * height * 3);
  let state = seed;
  const noise = () => ((state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff - 0.5) * 30;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const texture = 20 * Math.sin(x / 7 + 3 * Math.sin(y / 13));
      pixels[i] = (x / width) * 200 + texture + noise();
      pixels[i + 1] = (y / height) * 180 - texture + noise();
      pixels[i + 2] = 128 + 60 * Math.sin((x + y) / 200) + noise();
    }
  }
  return Buffer.from(pixels.buffer);
}

const photo = (width: number, height: number, seed?: number) =>
  sharp(photoPixels(width, height, seed), { raw: { width, height, channels: 3 } });

const XMP = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>A parent at home</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

/** A camera's JPEG: EXIF with where it was taken (GPS), XMP naming who took it, a P3 ICC profile. */
const cameraJpeg = (width: number, height: number, seed?: number) =>
  photo(width, height, seed)
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'PhoneCo', Model: 'Phone 12', Software: 'Camera 1.0' },
      IFD2: { DateTimeOriginal: '2026:11:01 09:30:00' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 2649/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 3969/100',
      },
    })
    .withXmp(XMP)
    .withIccProfile('p3')
    .toBuffer();

/** A PNG whose header claims width × height (RGB, 8 bits) and whose data is one blank row. */
function pngClaiming(width: number, height: number): Buffer {
  return handMadePng({ width, height, bitDepth: 8, colourType: 2 }, Buffer.alloc(1 + width * 3));
}

/** The tags of the EXIF GPS directory, read from the EXIF block as a TIFF structure. */
function gpsTags(exif: Buffer | undefined): number[] {
  if (!exif) return [];
  const tiff = exif.subarray(exif.toString('latin1', 0, 6) === 'Exif\0\0' ? 6 : 0);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const entries = (ifd: number) =>
    Array.from({ length: u16(ifd) }, (_, i) => ifd + 2 + i * 12).map((at) => ({
      tag: u16(at),
      value: u32(at + 8),
    }));
  const gps = entries(u32(4)).find((entry) => entry.tag === 0x8825);
  return gps ? entries(gps.value).map((entry) => entry.tag) : [];
}

// ---- Requests ----------------------------------------------------------------------------------

function upload(
  as: Parent | null,
  file: { bytes: Uint8Array; name?: string; type?: string } | null,
  alt: string | null = 'A child stacking blocks',
) {
  const form = new FormData();
  if (file) {
    const bytes = new Uint8Array(file.bytes);
    form.set('file', new File([bytes], file.name ?? 'photo.jpg', { type: file.type ?? 'image/jpeg' }));
  }
  if (alt !== null) form.set('alt', alt);
  const headers: Record<string, string> = as ? { Authorization: `Bearer ${as.token}` } : {};
  return app.request('/api/studio/images', { method: 'POST', body: form, headers });
}

const countImages = async () => {
  const images = await db
    .selectFrom('images')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const variants = await db
    .selectFrom('image_variants')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { images: Number(images.n), variants: Number(variants.n) };
};

/** An uploaded image's id: 16 to 64 lowercase hex digits, the start of its address. */
function idOf(uploaded: UploadedImage): string {
  const match = /^\/api\/images\/([a-f0-9]{16,64})-\d+x\d+\//.exec(uploaded.url);
  if (!match?.[1]) throw new Error(`not an uploaded image's address: ${uploaded.url}`);
  return match[1];
}

/** Every address an uploaded image is served at, from its answer's url. */
function variantsOf(uploaded: UploadedImage): { url: string; w: number; format: ImageFormat }[] {
  const id = idOf(uploaded);
  return imageWidths(uploaded.width).flatMap((w) =>
    (['avif', 'webp'] as const).map((format) => ({
      url: imageUrl(id, uploaded.width, uploaded.height, w, format),
      w,
      format,
    })),
  );
}

// ---- Tests -------------------------------------------------------------------------------------

describe('POST /api/studio/images', () => {
  it('takes uploads from editors and admins only: anonymous 401; a parent, moderator or author 403', async () => {
    const bytes = await photo(40, 30).jpeg().toBuffer();
    const before = await countImages();
    const anonymous = await upload(null, { bytes });
    expect(anonymous.status).toBe(401);
    for (const someone of [parent, moderator, author]) {
      const answer = await expectJson<{ error: string }>(upload(someone, { bytes }), 403);
      expect(answer.error).toMatch(/Only editors and admins may upload images/);
    }
    expect(await countImages()).toEqual(before);
    await expectJson<UploadedImage>(upload(admin, { bytes }), 201);
  });

  it('serves a camera JPEG with GPS, EXIF, XMP and ICC in every width, as AVIF and WebP, with no metadata', async () => {
    // Wider than the widest variant (1600), so every width is made, and no wider: each pixel costs.
    const original = await cameraJpeg(1700, 1275);
    // The upload really carries them, GPS position included.
    const carried = await sharp(original).metadata();
    expect(carried.exif).toBeDefined();
    expect(gpsTags(carried.exif)).toEqual(expect.arrayContaining([0x0001, 0x0002, 0x0003, 0x0004]));
    expect(carried.xmp?.toString()).toContain('A parent at home');
    expect(carried.icc).toBeDefined();

    const uploaded = await expectJson<UploadedImage>(upload(editor, { bytes: original }), 201);
    expect(uploaded).toMatchObject({ width: 1700, height: 1275, alt: 'A child stacking blocks' });
    expect(uploaded.url).toMatch(/^\/api\/images\/[a-f0-9]{16,64}-1700x1275\/1600\.webp$/);
    expect(uploadedImageSources(uploaded.url)?.src).toBe(uploaded.url);

    const variants = variantsOf(uploaded);
    expect(variants.map((v) => `${v.w}.${v.format}`).sort()).toEqual(
      [
        '1200.avif',
        '1200.webp',
        '1600.avif',
        '1600.webp',
        '400.avif',
        '400.webp',
        '800.avif',
        '800.webp',
      ].sort(),
    );
    for (const { url, w, format } of variants) {
      const res = await app.request(url);
      expect(res.status, url).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get('content-type')).toBe(`image/${format}`);
      expect(res.headers.get('content-length')).toBe(String(bytes.byteLength));
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
      // The API's security headers stay.
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");

      const served = await sharp(bytes).metadata();
      expect(served.format).toBe(format === 'avif' ? 'heif' : 'webp');
      if (format === 'avif') expect(served.compression).toBe('av1');
      expect(served.width).toBe(w);
      expect(served.height).toBe(Math.round((w * 1275) / 1700));
      expect(served.exif, url).toBeUndefined();
      expect(gpsTags(served.exif)).toEqual([]);
      expect(served.xmp, url).toBeUndefined();
      expect(served.icc, url).toBeUndefined();
      expect(served.iptc, url).toBeUndefined();
      expect(served.orientation, url).toBeUndefined();
      // Nor anywhere in the bytes: the camera's name, the XMP's text.
      expect(bytes.includes('PhoneCo')).toBe(false);
      expect(bytes.includes('A parent at home')).toBe(false);
    }

    const row = await db
      .selectFrom('images')
      .selectAll()
      .where('image_id', '=', idOf(uploaded))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      width: 1700,
      height: 1275,
      uploaded_type: 'image/jpeg',
      created_by_uid: editor.uid,
    });
    expect(row.uploaded_bytes).toBe(original.byteLength);
  });

  it('turns a photo upright (EXIF orientation) before the orientation is dropped', async () => {
    // Stored sideways, as phones store portrait photos: 600 × 400 pixels, to be turned a quarter.
    const sideways = await photo(600, 400, 7).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect((await sharp(sideways).metadata()).orientation).toBe(6);
    const uploaded = await expectJson<UploadedImage>(upload(editor, { bytes: sideways }), 201);
    expect(uploaded).toMatchObject({ width: 400, height: 600 });
    for (const { url, w } of variantsOf(uploaded)) {
      const served = await sharp(Buffer.from(await (await app.request(url)).arrayBuffer())).metadata();
      expect([served.width, served.height, served.orientation]).toEqual([w, (w * 600) / 400, undefined]);
    }
  });

  it('keeps the same upload twice as one image', async () => {
    const bytes = await photo(500, 300, 3).jpeg().toBuffer();
    const first = await expectJson<UploadedImage>(upload(editor, { bytes }, 'Blocks'), 201);
    const before = await countImages();
    const second = await expectJson<UploadedImage>(upload(admin, { bytes }, 'Blocks again'), 201);
    expect(second.url).toBe(first.url);
    expect(second.alt).toBe('Blocks again');
    expect(await countImages()).toEqual(before);
  });

  it('accepts PNG (with transparency), WebP and AVIF, judged by their bytes', async () => {
    // Each a little wider than the narrowest variant, so each is served in two widths.
    const png = await sharp({
      create: { width: 480, height: 320, channels: 4, background: { r: 200, g: 80, b: 40, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const webp = await photo(460, 330, 4).webp().toBuffer();
    const avif = await photo(440, 330, 5).avif({ effort: 0 }).toBuffer();
    for (const [bytes, type, name] of [
      [png, 'image/png', 'drawing.png'],
      [webp, 'image/webp', 'photo.webp'],
      // Named and declared as something else: the bytes decide.
      [avif, 'image/avif', 'photo.jpg'],
    ] as const) {
      const uploaded = await expectJson<UploadedImage>(
        upload(editor, { bytes, name, type: 'image/jpeg' }),
        201,
      );
      const row = await db
        .selectFrom('images')
        .select('uploaded_type')
        .where('image_id', '=', idOf(uploaded))
        .executeTakeFirstOrThrow();
      expect(row.uploaded_type).toBe(type);
      for (const { url, format } of variantsOf(uploaded)) {
        const res = await app.request(url);
        expect(res.headers.get('content-type'), url).toBe(`image/${format}`);
      }
    }
    // The PNG's transparency survives the re-encode.
    const pngUpload = await expectJson<UploadedImage>(upload(editor, { bytes: png, type: 'image/png' }), 201);
    const served = await sharp(
      Buffer.from(await (await app.request(pngUpload.url)).arrayBuffer()),
    ).metadata();
    expect(served.hasAlpha).toBe(true);
  });

  it('refuses what is not a JPEG, PNG, WebP or AVIF with 415, storing nothing', async () => {
    const before = await countImages();
    const text = new TextEncoder().encode('This is a note, not a photo.\n'.repeat(50));
    const gif = await photo(64, 48).gif().toBuffer();
    const tiff = await photo(64, 48).tiff().toBuffer();
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><script>alert(1)</script><rect width="40" height="40"/></svg>',
    );
    const truncated = (await photo(400, 300).jpeg().toBuffer()).subarray(0, 300);
    for (const [bytes, name] of [
      [text, 'photo.jpg'],
      [gif, 'animation.gif'],
      [tiff, 'scan.tiff'],
      [svg, 'drawing.png'],
      [truncated, 'broken.jpg'],
    ] as const) {
      const answer = await expectJson<{ error: string }>(upload(editor, { bytes, name }), 415);
      expect(answer.error, name).toMatch(/not a JPEG, PNG, WebP or AVIF image|could not be read/);
    }
    const answer = await expectJson<{ error: string }>(
      upload(editor, { bytes: text, name: 'photo.jpg' }),
      415,
    );
    expect(answer.error).toBe(NOT_AN_IMAGE);
    expect(await countImages()).toEqual(before);
  });

  it('refuses a file over 10 MB with 413, and an image of too many pixels (a decompression bomb)', async () => {
    const before = await countImages();
    const big = new Uint8Array(IMAGE_MAX_BYTES + 1);
    big.set(await photo(64, 48).jpeg().toBuffer());
    const tooBig = await expectJson<{ error: string }>(upload(editor, { bytes: big }), 413);
    expect(tooBig.error).toMatch(/too large: at most 10 MB/);
    // Far over the limit, the body limit answers before the form is read.
    await expectJson(upload(editor, { bytes: new Uint8Array(IMAGE_MAX_BYTES * 2) }), 413);

    // A few hundred bytes that say they are 100,000 × 100,000 pixels (30 GB decoded).
    const bomb = pngClaiming(100_000, 100_000);
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(100_000);
    const refused = await expectJson<{ error: string }>(upload(editor, { bytes: bomb, name: 'x.png' }), 413);
    expect(refused.error).toBe(TOO_MANY_PIXELS);
    // Just over the limit, and a side longer than WebP can hold.
    await expectJson(upload(editor, { bytes: pngClaiming(10_000, 5_001), name: 'big.png' }), 413);
    await expectJson(upload(editor, { bytes: pngClaiming(20_000, 8), name: 'strip.png' }), 413);
    expect(await countImages()).toEqual(before);
  });

  it('says what is missing: no file, no alt text, alt too long or with NUL', async () => {
    const bytes = await photo(64, 48, 9).jpeg().toBuffer();
    const before = await countImages();
    const noFile = await expectJson<{ error: string }>(upload(editor, null), 400);
    expect(noFile.error).toMatch(/^file: /);
    for (const alt of [null, '', '   ']) {
      const answer = await expectJson<{ error: string }>(upload(editor, { bytes }, alt), 400);
      expect(answer.error).toMatch(/^alt: alt text is required/);
    }
    const long = await expectJson<{ error: string }>(
      upload(editor, { bytes }, 'x'.repeat(IMAGE_ALT_MAX + 1)),
      400,
    );
    expect(long.error).toMatch(/^alt: must be at most 300 characters/);
    const nul = await expectJson<{ error: string }>(upload(editor, { bytes }, 'a\u0000b'), 400);
    expect(nul.error).toMatch(/^alt: /);
    const empty = await expectJson<{ error: string }>(upload(editor, { bytes: new Uint8Array(0) }), 400);
    expect(empty.error).toMatch(/empty/);
    expect(await countImages()).toEqual(before);
  });

  it('limits how many uploads an editor makes in a minute', async () => {
    const uploader = await newParent(app, db, 'Quick Editor', 'editor');
    const bytes = await photo(32, 24, 11).jpeg().toBuffer();
    for (let i = 0; i < IMAGE_UPLOADS_PER_MINUTE; i++) await expectJson(upload(uploader, { bytes }), 201);
    const limited = await upload(uploader, { bytes });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('GET /api/images/…', () => {
  let uploaded: UploadedImage;
  beforeAll(async () => {
    uploaded = await expectJson<UploadedImage>(
      upload(editor, { bytes: await photo(600, 450, 21).jpeg().toBuffer() }, 'A pram in the park'),
      201,
    );
  });

  it('answers 404 JSON for an unknown or malformed address', async () => {
    const id = idOf(uploaded);
    for (const url of [
      imageUrl('0123456789abcdef0123456789abcdef', 600, 450, 400, 'webp'),
      // The right image under another size, a width it is not served in, a format it is not.
      imageUrl(id, 601, 450, 400, 'webp'),
      imageUrl(id, 600, 450, 800, 'webp'),
      `/api/images/${id}-600x450/400.png`,
      `/api/images/${id}-600x450/400.avif/more`,
      `/api/images/${id}/400.webp`,
      '/api/images/../studio/images',
      '/api/images',
    ]) {
      const res = await app.request(url);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-type'), url).toMatch(/^application\/json/);
      expect(((await res.json()) as { error: string }).error, url).toMatch(/^No such/);
    }
  });

  it('answers 304 to a browser that has the image, and HEAD with the length', async () => {
    const first = await app.request(uploaded.url);
    const etag = first.headers.get('etag')!;
    const again = await app.request(uploaded.url, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    const head = await app.request(uploaded.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(first.headers.get('content-length'));
  });

  it('is never kept in the read cache (megabytes of images), while JSON answers are', async () => {
    const known = async (url: string) => {
      await app.request(url);
      return cache.answer(new Request(`http://localhost${url}`), release.known());
    };
    // The cache is on: a small JSON answer (a 404) is kept...
    expect(await known('/api/images/0123456789abcdef0123456789abcdef-10x10/10.webp')).toBeDefined();
    // ...and an image is not.
    for (const { url } of variantsOf(uploaded)) expect(await known(url), url).toBeUndefined();
  });
});

describe('renderMarkdown and uploaded images', () => {
  it('makes an uploaded image a <picture> with AVIF and WebP srcsets, sizes, width, height and alt', async () => {
    const uploaded = await expectJson<UploadedImage>(
      upload(editor, { bytes: await photo(600, 400, 31).jpeg().toBuffer() }, 'A cot'),
      201,
    );
    const html = renderMarkdown(`Our cot:\n\n![A cot by the window](${uploaded.url} "The cot")\n`);
    const sources = uploadedImageSources(uploaded.url)!;
    const pictures = html.match(/<picture>.*?<\/picture>/g) ?? [];
    expect(pictures).toHaveLength(1);
    expect(pictures[0]).toBe(
      '<picture>' +
        `<source type="image/avif" srcset="${sources.avifSrcset}" sizes="(min-width: 48rem) 48rem, 100vw">` +
        `<img src="${sources.src}" srcset="${sources.webpSrcset}" sizes="(min-width: 48rem) 48rem, 100vw"` +
        ' width="600" height="400" alt="A cot by the window" title="The cot" loading="lazy" decoding="async">' +
        '</picture>',
    );
    // Served as stored and sanitized again on the way out: unchanged.
    expect(sanitizeHtml(html)).toBe(html);
    // Every address it names is served.
    const addresses = [...html.matchAll(/\/api\/images\/[^\s",]+/g)].map((m) => m[0]);
    expect(new Set(addresses).size).toBe(imageWidths(600).length * 2);
    for (const address of new Set(addresses)) expect((await app.request(address)).status, address).toBe(200);
  });

  it('still removes scripts, event handlers and javascript: addresses next to a picture', () => {
    const url = imageUrl('0123456789abcdef0123456789abcdef', 800, 600, 800, 'webp');
    const html = renderMarkdown(
      [
        `![A high chair](${url})`,
        '<img src="x" onerror="alert(1)"><script>alert(2)</script>',
        `<img src="${url}" onload="alert(3)" alt="hand-written">`,
        '<picture><source type="text/html" srcset="javascript:alert(4) 1x"><source srcset="https://tracker.example/p.gif 400w" type="image/webp">' +
          `<img src="${url}" srcset="${url} 400w, javascript:alert(5) 800w" loading="soon" decoding="x" width="9px" alt="mixed"></picture>`,
        '[a link](javascript:alert(6)) <a href="javascript:alert(7)">b</a>',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/script|onerror|onload|javascript:|alert|tracker\.example|text\/html|soon|9px/);
    // Both uploaded images became pictures; the hand-written one kept its alt.
    expect(html.match(/<picture><source type="image\/avif" srcset="\/api\/images\//g)).toHaveLength(2);
    expect(html).toContain('alt="hand-written"');
    // The mixed srcset went whole; the rest of that picture stayed.
    expect(html).toContain(`<img src="${url}" alt="mixed">`);
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('keeps width, height, colspan and start, which the address rule used to drop', () => {
    expect(sanitizeHtml('<img src="/a.png" width="800" height="450" alt="">')).toBe(
      '<img src="/a.png" width="800" height="450" alt="">',
    );
    expect(renderMarkdown('3. three\n4. four')).toContain('<ol start="3">');
  });
});

describe('a featured image on the pages (ResponsiveImage)', () => {
  it('is a <picture> with AVIF and WebP srcsets, width, height and the editor’s alt for an upload', () => {
    const url = imageUrl('0123456789abcdef0123456789abcdef', 4000, 3000, 1600, 'webp');
    const html = renderToStaticMarkup(
      createElement(ResponsiveImage, { url, alt: 'A cot by the window', sizes: IMAGE_SIZES.post }),
    );
    const sources = uploadedImageSources(url)!;
    expect(html).toMatch(/^<picture class="contents"><source type="image\/avif" /);
    expect(html).toContain(`srcSet="${sources.avifSrcset}"`);
    expect(html).toContain(`srcSet="${sources.webpSrcset}"`);
    expect(html).toContain(`src="${sources.src}"`);
    expect(html).toContain('width="4000" height="3000" alt="A cot by the window"');
    expect(html).toContain(`sizes="${IMAGE_SIZES.post}"`);
  });

  it('stays a plain <img> for a file in public/, with an empty alt when there is none', () => {
    const html = renderToStaticMarkup(
      createElement(ResponsiveImage, { url: '/images/blog/cot.jpg', alt: null, sizes: IMAGE_SIZES.card }),
    );
    expect(html).toBe(
      '<img src="/images/blog/cot.jpg" width="800" height="450" alt="" loading="lazy" decoding="async"/>',
    );
  });
});
