import sharp from 'sharp';
import type { ProductImage } from '~/modules/storage/image';
import type { Storage } from '~/modules/storage/storage.server';

export type { ProductImage } from '~/modules/storage/image';

/** Product pictures are portrait 4:5; these are the widths stored for each picture. */
export const imageWidths = [320, 640, 1200] as const;
export type ImageWidth = (typeof imageWidths)[number];

const largest = imageWidths[imageWidths.length - 1];

export function variantKey(keyBase: string, width: ImageWidth): string {
  return `${keyBase}-${width}.webp`;
}

/** The input could not be decoded (damaged, truncated, or over `maxPixels`): the picture's fault, not the storage's. */
export class ImageDecodeError extends Error {
  constructor(cause: unknown) {
    super(`The picture could not be decoded: ${(cause as Error)?.message ?? cause}`, { cause });
    this.name = 'ImageDecodeError';
  }
}

export type VariantOptions = {
  /** libwebp effort 0–6: 4 (the default) packs best; 2 encodes about twice as fast for ~5% more bytes. */
  effort?: number;
  /** Crop to the shop's 4:5 packshot format (the demo's drawings); uploads keep their own proportions. */
  crop?: boolean;
  /** Refuse inputs with more pixels than this (decompression bombs); sharp's own default otherwise. */
  maxPixels?: number;
};

/**
 * Renders `input` (any format sharp reads, SVG included) as WebP at every width, EXIF rotation applied and
 * metadata left behind, and stores them under `${keyBase}-${width}.webp`. The input is decoded once.
 * Returns the size of the largest variant. If storing fails half-way, the variants already stored are
 * deleted again.
 */
export async function storeImageVariants(
  storage: Storage,
  keyBase: string,
  input: Buffer,
  { effort = 4, crop = true, maxPixels }: VariantOptions = {},
): Promise<{ width: number; height: number }> {
  // Decode (and crop) once to the largest size, then derive the smaller variants from those pixels.
  const decoded = await sharp(input, maxPixels ? { limitInputPixels: maxPixels } : {})
    .rotate()
    // Uploads keep their proportions and are never enlarged; the demo's drawings are cropped to 4:5.
    .resize(largest, crop ? (largest * 5) / 4 : undefined, { fit: 'cover', withoutEnlargement: !crop })
    // Transparent pictures sit on the shop's cream paper rather than turning black.
    .flatten({ background: '#F7F1E8' })
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch((error: unknown) => {
      throw new ImageDecodeError(error);
    });
  const { data, info } = decoded;
  const raw = { width: info.width, height: info.height, channels: info.channels };
  const heightAt = (width: number) => Math.max(1, Math.round((info.height * width) / info.width));
  // Every variant is waited for, failed or not, so none is still being written when the others are cleaned up.
  const results = await Promise.allSettled(
    imageWidths.map(async (width) => {
      // A picture narrower than a variant is stored at its own size under that variant's name.
      const w = Math.min(width, info.width);
      const webp = await sharp(data, { raw }).resize(w, heightAt(w), { fit: 'fill' }).webp({ quality: 80, effort }).toBuffer();
      await storage.put(variantKey(keyBase, width), webp, 'image/webp');
    }),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await Promise.allSettled(imageWidths.map((width, i) => (results[i].status === 'fulfilled' ? storage.delete(variantKey(keyBase, width)) : null)));
    throw failed.reason;
  }
  return { width: info.width, height: info.height };
}

/** The URLs and intrinsic size of a stored picture (pictures stored without a size are the demo's 4:5). */
export function productImage(storage: Storage, keyBase: string, size?: { width: number | null; height: number | null }): ProductImage {
  return {
    src: storage.url(variantKey(keyBase, 640)),
    srcSet: imageWidths.map((width) => `${storage.url(variantKey(keyBase, width))} ${width}w`).join(', '),
    width: size?.width ?? largest,
    height: size?.height ?? (largest * 5) / 4,
  };
}

export async function deleteImageVariants(storage: Storage, keyBase: string): Promise<void> {
  await Promise.all(imageWidths.map((width) => storage.delete(variantKey(keyBase, width))));
}
