/**
 * Many products at once (a catalogue moved from another shop, a load test's), in batches of 500 rows inside
 * one transaction: the rows createProduct writes one product at a time, the search vocabulary, and one bump of
 * the catalogue version at the end.
 */
import { currencySettings, proposePrice } from '~/modules/pricing/index.server';
import type { Insertable } from 'kysely';
import { type Executor, inTransaction } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { refreshSearchStatistics } from '~/db/search.server';
import type { ProductImagesTable, ProductTranslationsTable, ProductsTable, VariantsTable } from '~/db/schema';
import { type ProductInput, productInputSchema } from './catalog.schema';
import { bumpStoredCatalogVersion, markCatalogChanged } from './catalog-version.server';
import { productRows } from './product-rows.server';
import { addStockVariants } from '~/modules/stock/index.server';
import { recordSearchText } from './vocabulary.server';

const BATCH = 500;

/** Stores the products (each with its creation moment) and returns their ids, in the same order. */
export async function importProducts(db: Executor, items: ReadonlyArray<{ input: ProductInput; createdAt: string }>): Promise<string[]> {
  const ids = items.map(() => newId());
  await inTransaction(db, async (trx) => {
    const settings = await currencySettings(trx);
    for (let from = 0; from < items.length; from += BATCH) {
      const products: Insertable<ProductsTable>[] = [];
      const translations: Insertable<ProductTranslationsTable>[] = [];
      const images: Insertable<ProductImagesTable>[] = [];
      const variants: Insertable<VariantsTable>[] = [];
      for (let i = from; i < Math.min(items.length, from + BATCH); i++) {
        const input = productInputSchema.parse(items[i].input);
        const rows = productRows(ids[i], input, items[i].createdAt);
        products.push(rows.product);
        translations.push(...rows.translations);
        images.push(...rows.images);
        input.variants.forEach((variant, position) =>
          variants.push({
            id: newId(),
            product_id: ids[i],
            // Given SKUs are the caller's to keep unique; made ones carry the product's id, so they are.
            sku: variant.sku || `KOPI-${ids[i]}-${position + 1}`,
            position,
            net_weight_grams: variant.netWeightGrams,
            grind: variant.grind,
            pack_count: variant.packCount,
            price_cents: variant.priceCents,
            price_pln: variant.pricePln ?? proposePrice(variant.priceCents, settings.rate, settings.rounding),
            active: variant.active ? 1 : 0,
            created_at: items[i].createdAt,
            updated_at: items[i].createdAt,
          }),
        );
        // The product's lowest złoty price among its active variants (the złoty pages' price sort), as writeVariants keeps it.
        const mine = variants.filter((v) => v.product_id === ids[i]);
        const onSale = mine.filter((v) => v.active === 1);
        rows.product.price_pln = Math.min(...(onSale.length ? onSale : mine).map((v) => v.price_pln));
      }
      await trx.insertInto('products').values(products).execute();
      await trx.insertInto('product_translations').values(translations).execute();
      if (images.length > 0) await trx.insertInto('product_images').values(images).execute();
      await trx.insertInto('variants').values(variants).execute();
      await addStockVariants(trx, variants.map((v) => ({ id: v.id, productId: v.product_id, netWeightGrams: v.net_weight_grams ?? null })));
      await recordSearchText(
        trx,
        products.map((product) => ({ after: product.search_text })),
      );
    }
    await bumpStoredCatalogVersion(trx);
  });
  await refreshSearchStatistics(db);
  markCatalogChanged();
  return ids;
}
