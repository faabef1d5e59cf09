import os from 'node:os';
import { packshotSvg, type PackshotView } from '~/demo/packshot.server';
import type { DemoProduct } from '~/demo/products';
import { type Storage, storeImageVariants, variantKey } from '~/modules/storage/index.server';

/** The storage key base of one demo packshot; the sized WebP files sit beside it (`…-640.webp`). */
export function demoImageKey(product: DemoProduct, productId: string, view: PackshotView): string {
  return `products/${productId}/${product.key}-${view}`;
}

/**
 * Draws the product's `imageCount` packshots and stores them as WebP variants. Returns the key bases in
 * view order (what `product_images.path` holds). Views already stored are not drawn again, so re-seeding is quick.
 * Safe to call for every product at once: drawings are rendered a few at a time, which keeps memory low
 * (each one is a 1200×1500 bitmap while it is encoded).
 */
export async function generateDemoImages(storage: Storage, product: DemoProduct, productId: string): Promise<string[]> {
  const views = ([0, 1, 2] as const).slice(0, product.imageCount);
  return Promise.all(
    views.map(async (view) => {
      const keyBase = demoImageKey(product, productId, view);
      if (!(await storage.exists(variantKey(keyBase, 1200)))) {
        await rendering(() =>
          // Effort 2 halves the encoding time of the whole catalogue; flat drawings compress well anyway.
          storeImageVariants(storage, keyBase, Buffer.from(packshotSvg(product, view)), { effort: 2 }),
        );
      }
      return keyBase;
    }),
  );
}

const slots = Math.max(1, Math.min(3, os.availableParallelism()));
let running = 0;
const waiting: (() => void)[] = [];

/** Runs `task` when one of a few rendering slots is free. */
async function rendering<T>(task: () => Promise<T>): Promise<T> {
  if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await task();
  } finally {
    running--;
    waiting.shift()?.();
  }
}
