import { sql } from 'kysely';
import type { Logger } from 'pino';
import { demoOptions, demoPlace, demoProducts, demoVariants } from '~/demo/products';
import { generateDemoImages } from '~/demo/demo-images.server';
import { countProducts, createProduct, variantsOf } from '~/modules/catalog/index.server';
import { type DemoMade, seedDemoReviews } from '~/demo/reviews.server';
import type { Storage } from '~/modules/storage/index.server';
import { seedDemoStock } from '~/demo/stock.server';
import { seedDemoPromotions } from '~/demo/promotions.server';
import type { Variant } from '~/modules/catalog/variants';
import { type DB, databaseKind } from '~/db/database.server';

/** The advisory lock nodes take turns on while seeding (any constant the shop uses for nothing else). */
const SEED_LOCK = 7_401_926_001;

/**
 * Fills an empty catalogue with the demo coffees and their generated packshots. Does nothing when any
 * product exists, so a shop's own catalogue is never touched — also when several nodes start at once.
 */
export async function seedDemoCatalogue(db: DB, storage: Storage, log: Pick<Logger, 'info'>, catalogue = demoProducts): Promise<number> {
  if ((await countProducts(db)) > 0) return 0;
  const started = Date.now();
  const products = [...catalogue].sort((a, b) => b.daysAgo - a.daysAgo);
  const seeded = await db.transaction().execute(async (trx) => {
    // Nodes starting together on one PostgreSQL database take turns here; the first seeds, the others find
    // its catalogue when they get the lock (it is released when this transaction ends).
    if (databaseKind(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${SEED_LOCK})`.execute(trx);
    if ((await countProducts(trx)) > 0) return false;
    const images = await Promise.all(products.map((product) => generateDemoImages(storage, product, product.key)));
    const made: DemoMade = new Map();
    const stocked: Array<{ demo: (typeof products)[number]; id: string; variants: Variant[] }> = [];
    for (const [i, product] of products.entries()) {
      const id = await createProduct(
        trx,
        {
          category: product.category,
          options: demoOptions(product),
          variants: demoVariants(product),
          origin: product.origin,
          region: product.region,
          altitudeMin: product.altitudeMin,
          altitudeMax: product.altitudeMax,
          process: product.process,
          roast: product.roast,
          translations: {
            en: product.en,
            pl: { ...product.pl, origin: demoPlace(product.origin, 'pl'), region: demoPlace(product.region, 'pl') },
          },
          images: images[i],
        },
        { createdAt: new Date(Date.now() - product.daysAgo * 86_400_000).toISOString() },
      );
      const variants = (await variantsOf(trx, [id])).get(id) ?? [];
      const [variant] = variants;
      stocked.push({ demo: product, id, variants });
      made.set(product.key, { id, priceCents: product.priceCents, name: product.en.name, image: images[i]?.[0] ?? null, variant, options: demoOptions(product) });
    }
    // The demo customers' delivered orders and their reviews, through the path every review takes.
    await seedDemoReviews(trx, made);
    // Its stock: roast batches for beans and ground coffee, counted packs for the rest.
    await seedDemoStock(trx, stocked);
    // Its price history, and a sale running on one coffee.
    await seedDemoPromotions(trx, stocked);
    return true;
  });
  if (!seeded) return 0;
  log.info({ products: products.length, ms: Date.now() - started }, 'demo catalogue seeded');
  return products.length;
}
