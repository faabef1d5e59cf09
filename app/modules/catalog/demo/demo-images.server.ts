import { packshotSvg, type PackshotView } from '~/modules/catalog/demo/packshot.server';
import type { DemoProduct } from '~/modules/catalog/demo/products';
import { storeImageVariants, variantKey } from '~/modules/storage/images.server';
import type { Storage } from '~/modules/storage/storage.server';

/** The storage key base of one demo packshot; the sized WebP files sit beside it (`…-640.webp`). */
export function demoImageKey(product: DemoProduct, productId: string, view: PackshotView): string {
  return `products/${productId}/${product.key}-${view}`;
}

/**
 * Draws the product's `imageCount` packshots and stores them as WebP variants. Returns the key bases in
 * view order (what `product_images.path` holds). Views already stored are not drawn again, so re-seeding is quick.
 */
export async function generateDemoImages(storage: Storage, product: DemoProduct, productId: string): Promise<string[]> {
  const views = ([0, 1, 2] as const).slice(0, product.imageCount);
  return Promise.all(
    views.map(async (view) => {
      const keyBase = demoImageKey(product, productId, view);
      if (!(await storage.exists(variantKey(keyBase, 1200)))) {
        // Effort 2 halves the encoding time of the whole demo catalogue; the drawings compress well anyway.
        await storeImageVariants(storage, keyBase, Buffer.from(packshotSvg(product, view)), { effort: 2 });
      }
      return keyBase;
    }),
  );
}
