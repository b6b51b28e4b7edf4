import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import {
  canPublishPosts,
  IMAGE_ALT_MAX,
  IMAGE_MAX_BYTES,
  type ImageFormat,
  imageUrl,
  imageWidths,
  type UploadedImage,
} from '../contract/studio.ts';
import { findImage, findVariant, storeImage } from '../db/queries/images.ts';
import { ImageRefusedError, imageId, processImage } from '../lib/images.ts';
import { requireUser } from '../middleware/auth.ts';
import { rateLimit, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv, UserEnv } from '../types.ts';

// Uploaded images (docs/product.md, "The studio"): editors upload, everyone reads.

/** After requireUser: editors and admins only. */
const requireUploader = createMiddleware<UserEnv>(async (c, next) => {
  if (!canPublishPosts(c.get('profile').role)) {
    return c.json(
      { error: 'Only editors and admins may upload images. Ask an admin if you should be one.' },
      403,
    );
  }
  await next();
});

const ALT_REQUIRED = 'alt text is required: say what the image shows, for readers who cannot see it';

/** The upload's form: one file and the alt text that describes it. */
const uploadForm = z.object({
  file: z.instanceof(File, { error: 'attach one image file as the form field `file`' }),
  alt: z
    .string({ error: ALT_REQUIRED })
    .trim()
    .min(1, ALT_REQUIRED)
    .max(IMAGE_ALT_MAX, `must be at most ${IMAGE_ALT_MAX} characters`),
});

/** Uploads (mounted under /api/studio/images). */
export const imageUploadRoutes = new Hono<AppEnv>().post(
  '/',
  requireUser,
  requireUploader,
  rateLimit<UserEnv>({
    limiter: (deps) => deps.imageLimiter,
    key: (c) => `image:${c.get('user').uid}`,
    message: tooQuickly('image uploads'),
  }),
  validate('form', uploadForm),
  async (c) => {
    const { db, now } = c.get('deps');
    const { file, alt } = c.req.valid('form');
    if (file.size > IMAGE_MAX_BYTES) {
      return c.json({ error: `That image is too large: at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB.` }, 413);
    }
    if (file.size === 0) return c.json({ error: 'file: the file is empty' }, 400);
    const upload = new Uint8Array(await file.arrayBuffer());
    const id = imageId(upload);
    // The same upload again is the image already stored: nothing to decode.
    let image = await findImage(db, id);
    if (!image) {
      try {
        const processed = await processImage(upload);
        await storeImage(db, processed, alt, c.get('user').uid, now());
        image = processed;
      } catch (error) {
        if (error instanceof ImageRefusedError) return c.json({ error: error.message }, error.status);
        throw error;
      }
    }
    const { width, height } = image;
    // An address that answered 404 a moment ago (the read cache keeps 404s) answers now.
    c.set('changed', [`/api/images/${id}-${width}x${height}/*`]);
    const widest = imageWidths(width).at(-1)!;
    return c.json<UploadedImage>(
      { url: imageUrl(id, width, height, widest, 'webp'), width, height, alt },
      201,
    );
  },
);

// The parts of an address made by imageUrl(): /api/images/<id>-<W>x<H>/<w>.<format>.
const IMAGE_KEY = /^([a-z0-9]{8,64})-(\d{1,5})x(\d{1,5})$/;
const VARIANT_FILE = /^(\d{1,5})\.(avif|webp)$/;

/** An address never changes what it answers (the id is the upload's hash): cached for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const noSuchImage =
  'No such image: an image address is /api/images/<id>-<width>x<height>/<width>.<avif|webp>';

/** Serving uploaded images (mounted under /api/images). */
export const imageRoutes = new Hono<AppEnv>()
  .get('/:key/:file', async (c) => {
    const key = IMAGE_KEY.exec(c.req.param('key'));
    const file = VARIANT_FILE.exec(c.req.param('file'));
    if (!key || !file) return c.json({ error: noSuchImage }, 404);
    const [, id = '', width = '', height = ''] = key;
    const [, w = '', extension = ''] = file;
    const format: ImageFormat = extension === 'avif' ? 'avif' : 'webp';
    const etag = `"${id}-${w}.${format}"`;
    const variant = await findVariant(c.get('deps').db, {
      id,
      width: Number(width),
      height: Number(height),
      w: Number(w),
      format,
    });
    if (!variant) return c.json({ error: noSuchImage }, 404);
    c.header('Cache-Control', IMMUTABLE);
    c.header('ETag', etag);
    if (
      c.req
        .header('If-None-Match')
        ?.split(/\s*,\s*/)
        .includes(etag)
    )
      return c.body(null, 304);
    c.header('Content-Type', variant.contentType);
    c.header('Content-Length', String(variant.data.byteLength));
    return c.body(variant.data, 200);
  })
  .all('*', (c) => c.json({ error: noSuchImage }, 404));
