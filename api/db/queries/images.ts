import { type ImageFormat, imageUrl, imageWidths } from '../../contract/studio.ts';
import type { ProcessedImage } from '../../lib/images.ts';
import type { DB } from '../database.ts';

// Uploaded images and their re-encoded variants (docs/product.md, "The studio"), kept in the
// database so every instance serves the same bytes. An image never changes once stored: its id
// is the hash of its upload.

export interface StoredImage {
  id: string;
  width: number;
  height: number;
}

export async function findImage(db: DB, id: string): Promise<StoredImage | null> {
  const row = await db
    .selectFrom('images')
    .select(['image_id', 'width', 'height'])
    .where('image_id', '=', id)
    .executeTakeFirst();
  return row ? { id: row.image_id, width: row.width, height: row.height } : null;
}

/**
 * Stores an image and all its variants in one transaction, so a reader never finds an image with
 * some widths missing. An image already stored (the same upload again, perhaps at the same moment
 * from another instance) is kept as it is; answers whether this call stored it.
 */
export async function storeImage(
  db: DB,
  image: ProcessedImage,
  alt: string,
  uploadedBy: string,
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('images')
      .values({
        image_id: image.id,
        width: image.width,
        height: image.height,
        alt,
        uploaded_type: image.uploadedType,
        uploaded_bytes: image.uploadedBytes,
        created_at: now.toISOString(),
        created_by_uid: uploadedBy,
      })
      .onConflict((oc) => oc.column('image_id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await trx
      .insertInto('image_variants')
      .values(
        image.variants.map((v) => ({
          image_id: image.id,
          width: v.width,
          format: v.format,
          content_type: v.contentType,
          data: v.data,
        })),
      )
      .execute();
    return true;
  });
}

/** A stored image's address, in its widest WebP (the form uploadedImageSources reads), or null if it is gone. */
export async function imageAddress(db: DB, id: string): Promise<string | null> {
  const image = await findImage(db, id);
  if (!image) return null;
  const widths = imageWidths(image.width);
  return imageUrl(image.id, image.width, image.height, widths[widths.length - 1]!, 'webp');
}

export interface ServedVariant {
  contentType: string;
  data: Uint8Array<ArrayBuffer>;
}

/** One width and format of an image, when the address names the image's own size. */
export async function findVariant(
  db: DB,
  address: { id: string; width: number; height: number; w: number; format: ImageFormat },
): Promise<ServedVariant | null> {
  const row = await db
    .selectFrom('image_variants')
    .innerJoin('images', 'images.image_id', 'image_variants.image_id')
    .select(['image_variants.content_type', 'image_variants.data'])
    .where('image_variants.image_id', '=', address.id)
    .where('images.width', '=', address.width)
    .where('images.height', '=', address.height)
    .where('image_variants.width', '=', address.w)
    .where('image_variants.format', '=', address.format)
    .executeTakeFirst();
  // Both drivers give a Buffer (blob, bytea), whose memory may be a shared pool's: a copy of its own.
  return row ? { contentType: row.content_type, data: new Uint8Array(row.data) } : null;
}
