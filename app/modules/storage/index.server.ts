import path from 'node:path';
import type { Config } from '~/config/env.server';
import { createLocalStorage } from '~/modules/storage/local.server';
import { createS3Storage } from '~/modules/storage/s3.server';
import type { Storage } from '~/modules/storage/storage.server';

export type { Storage, StoredFile } from '~/modules/storage/storage.server';
export { createLocalStorage } from '~/modules/storage/local.server';
export { createS3Storage, IMMUTABLE } from '~/modules/storage/s3.server';
export {
  ImageDecodeError,
  deleteImageVariants,
  imageWidths,
  productImage,
  storeImageVariants,
  variantKey,
  type ImageWidth,
  type ProductImage,
  type VariantOptions,
} from '~/modules/storage/images.server';

/**
 * The shop's file storage: the S3-compatible bucket when S3_BUCKET is set, else local disk under
 * DATA_DIR/uploads. Either way pictures are served at /images/… unless S3_PUBLIC_URL says where.
 */
export function createStorage(config: Config): Storage {
  if (config.s3) return createS3Storage(config.s3);
  return createLocalStorage(path.join(config.dataDir, 'uploads'));
}
