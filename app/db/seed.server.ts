import type { Logger } from 'pino';
import { demoProducts } from '~/modules/catalog/demo/products';
import { generateDemoImages } from '~/modules/catalog/demo/demo-images.server';
import { countProducts, createProduct } from '~/modules/catalog/index.server';
import type { Storage } from '~/modules/storage/storage.server';
import type { DB } from './database.server';

/**
 * Fills an empty catalogue with the demo coffees and their generated packshots. Does nothing when any
 * product exists, so a shop's own catalogue is never touched.
 */
export async function seedDemoCatalogue(db: DB, storage: Storage, log: Pick<Logger, 'info'>): Promise<number> {
  if ((await countProducts(db)) > 0) return 0;
  const started = Date.now();
  const products = [...demoProducts].sort((a, b) => b.daysAgo - a.daysAgo);
  const images = await Promise.all(products.map((product) => generateDemoImages(storage, product, product.key)));
  await db.transaction().execute(async (trx) => {
    for (const [i, product] of products.entries()) {
      await createProduct(
        trx,
        {
          category: product.category,
          priceCents: product.priceCents,
          rating: product.rating,
          reviewCount: product.reviewCount,
          origin: product.origin,
          region: product.region,
          altitudeMin: product.altitudeMin,
          altitudeMax: product.altitudeMax,
          process: product.process,
          roast: product.roast,
          translations: { en: product.en, pl: product.pl },
          images: images[i],
        },
        { createdAt: new Date(Date.now() - product.daysAgo * 86_400_000).toISOString() },
      );
    }
  });
  if (await countProducts(db)) {
    log.info({ products: products.length, ms: Date.now() - started }, 'demo catalogue seeded');
  }
  return products.length;
}
