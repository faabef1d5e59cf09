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

export type VariantOptions = {
  /** libwebp effort 0–6: 4 (the default) packs best; 2 encodes about twice as fast for ~5% more bytes. */
  effort?: number;
};

/**
 * Renders `input` (any format sharp reads, SVG included) as 4:5 WebP at every width and stores them
 * under `${keyBase}-${width}.webp`. The input is decoded once.
 */
export async function storeImageVariants(
  storage: Storage,
  keyBase: string,
  input: Buffer,
  { effort = 4 }: VariantOptions = {},
): Promise<void> {
  const height = (largest * 5) / 4;
  // Decode and crop once to the largest size, then derive the smaller variants from those pixels.
  const { data, info } = await sharp(input)
    .rotate()
    .resize(largest, height, { fit: 'cover' })
    // Transparent uploads sit on the shop's cream paper rather than turning black.
    .flatten({ background: '#F7F1E8' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height, channels: info.channels };
  await Promise.all(
    imageWidths.map(async (width) => {
      const webp = await sharp(data, { raw })
        .resize(width, (width * 5) / 4, { fit: 'cover' })
        .webp({ quality: 80, effort })
        .toBuffer();
      await storage.put(variantKey(keyBase, width), webp, 'image/webp');
    }),
  );
}

/** The URLs and intrinsic size of a stored picture. */
export function productImage(storage: Storage, keyBase: string): ProductImage {
  return {
    src: storage.url(variantKey(keyBase, 640)),
    srcSet: imageWidths.map((width) => `${storage.url(variantKey(keyBase, width))} ${width}w`).join(', '),
    width: largest,
    height: (largest * 5) / 4,
  };
}

export async function deleteImageVariants(storage: Storage, keyBase: string): Promise<void> {
  await Promise.all(imageWidths.map((width) => storage.delete(variantKey(keyBase, width))));
}
