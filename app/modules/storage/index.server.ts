import path from 'node:path';
import type { Config } from '~/config/env.server';
import { createLocalStorage } from '~/modules/storage/local.server';
import type { Storage } from '~/modules/storage/storage.server';

export type { Storage } from '~/modules/storage/storage.server';
export { createLocalStorage } from '~/modules/storage/local.server';
export {
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
 * The shop's file storage: local disk under DATA_DIR/uploads, served at /images.
 * S3-compatible storage (config.s3) arrives in a later issue; until then it also uses local disk.
 */
export function createStorage(config: Config): Storage {
  return createLocalStorage(path.join(config.dataDir, 'uploads'));
}
