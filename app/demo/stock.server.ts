/**
 * The demo shop's stock, as a roaster keeps it: beans and ground coffee in roast batches (an older batch running
 * down, a fresher one roasted 2 to 8 days ago), drip bags and capsules counted per pack. One coffee has sold out
 * (its last batch went, notify-me shows) and one pack runs low ("Only 3 left"). Deterministic: the same shop
 * every time. The amounts are generous, so a demo shop (and the journeys run on it) keeps selling for a while.
 */
import type { Executor } from '~/db/database.server';
import { SHOP_TIME_ZONE } from '~/lib/format';
import { addDays, shopDayOf } from '~/lib/shop-days';
import { addBatch, correctStock, setStockMode } from '~/modules/stock/index.server';
import type { Variant } from '~/modules/catalog/variants';
import type { DemoProduct } from './products';

const demo = { id: null, email: 'Kopi demo' };

/** The coffee that has sold out, and the pack running low. */
export const DEMO_SOLD_OUT = 'mollo-timor-ground-aeropress';
export const DEMO_LOW = 'lintong-ese-pods';

export async function seedDemoStock(
  trx: Executor,
  products: ReadonlyArray<{ demo: Pick<DemoProduct, 'key' | 'category' | 'en'>; id: string; variants: Variant[] }>,
  now = new Date(),
): Promise<void> {
  const today = shopDayOf(now, SHOP_TIME_ZONE);
  for (const [i, { demo: product, id, variants }] of products.entries()) {
    const subject = { productId: id, label: product.en.name };
    if (product.category === 'wholeBean' || product.category === 'groundCoffee') {
      await setStockMode(trx, demo, subject, { mode: 'batches', sellWithinDays: null });
      if (product.key === DEMO_SOLD_OUT) {
        // Roasted 12 days ago and sold to the last gram (the ledger keeps it; the next roast is not in yet).
        const batch = await addBatch(trx, demo, subject, { roastedOn: addDays(today, -12), grams: 6000, note: 'Microlot' }, now);
        await correctStock(trx, demo, subject, { batchId: batch.id, gramsLeft: 0, reason: 'count', note: 'Sold through' }, now);
        continue;
      }
      await addBatch(trx, demo, subject, { roastedOn: addDays(today, -(12 + (i % 9))), grams: 6000 + (i % 4) * 1500 }, now);
      await addBatch(trx, demo, subject, { roastedOn: addDays(today, -(2 + (i % 7))), grams: 30000 + (i % 5) * 5000 }, now);
      continue;
    }
    await setStockMode(trx, demo, subject, { mode: 'units', sellWithinDays: null });
    for (const [j, variant] of variants.entries()) {
      const units = product.key === DEMO_LOW && j === 0 ? 3 : 150 + ((i * 37 + j * 53) % 150);
      await correctStock(trx, demo, subject, { variantId: variant.id, units, reason: 'count', note: 'Opening count' }, now);
    }
  }
}
