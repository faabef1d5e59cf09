/**
 * The demo shop's price history and its sale, so a fresh start shows a lawful reduction (docs/decisions/0025):
 * each coffee's prices date from its listing, the older coffees were listed a little cheaper and raised since,
 * and Mandheling had a three-day −10% flash sale 20 days ago and is now 20% off until the last minute of the twelfth day from now — so its
 * page shows the 30 days' lowest price (the flash sale's) and −11.1% from it, not the −20% from the regular
 * price the rule forbids; and the code KAWA10 (10% off the goods). The history is the demo's invented past: the shop itself never writes into the past.
 */
import type { Executor } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type Currency, currencies } from '~/modules/pricing/currencies';
import type { Variant } from '~/modules/catalog/variants';
import type { DemoProduct } from './products';
import { bumpPromotionsStamp, createCode, refreshFromPrices } from '~/modules/promotions/index.server';
import { DEMO_CODE, DEMO_CODE_PERCENT, DEMO_FLASH_PERCENT, DEMO_SALE, DEMO_SALE_LABEL, DEMO_SALE_PERCENT, percentOff } from './sale';

export { DEMO_SALE } from './sale';
import { SHOP_TIME_ZONE } from '~/lib/format';
import { addDays, shopDayOf, startOfShopDay } from '~/lib/shop-days';

const DAY = 86_400_000;

export async function seedDemoPromotions(
  trx: Executor,
  products: ReadonlyArray<{ demo: Pick<DemoProduct, 'key' | 'daysAgo'>; id: string; variants: Variant[] }>,
  now = new Date(),
): Promise<void> {
  const at = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
  const rows: Array<{ id: string; variant_id: string; currency: Currency; price_cents: number; regular_cents: number; at: string; reason: string; sale_id: string | null }> = [];
  const row = (variant: Variant, currency: Currency, price: number, regular: number, when: string, reason: string, saleId: string | null = null) =>
    rows.push({ id: newId(), variant_id: variant.id, currency, price_cents: price, regular_cents: regular, at: when, reason, sale_id: saleId });

  // The sale ends a minute before midnight in the shop's zone, twelve days from now.
  const saleEnds = new Date(startOfShopDay(addDays(shopDayOf(now, SHOP_TIME_ZONE), 13), SHOP_TIME_ZONE).getTime() - 60_000).toISOString();
  const flash = newId();
  const sale = newId();
  for (const { demo, id, variants } of products) {
    // The listing's rows were written as the seed ran; the demo's past replaces them.
    await trx.deleteFrom('price_history').where('variant_id', 'in', variants.map((v) => v.id)).execute();
    const raised = demo.daysAgo >= 20 && demo.key !== DEMO_SALE;
    for (const variant of variants) {
      for (const currency of currencies) {
        const price = variant.prices[currency];
        // Listed a euro (four złoty) cheaper, raised 18 days ago; or listed at today's price.
        const listed = raised ? price - (currency === 'EUR' ? 100 : 400) : price;
        row(variant, currency, listed, listed, at(demo.daysAgo), 'listed');
        if (raised) row(variant, currency, price, price, at(18), 'edited');
        if (demo.key === DEMO_SALE) {
          row(variant, currency, percentOff(price, DEMO_FLASH_PERCENT), price, at(20), 'sale-started', flash);
          row(variant, currency, price, price, at(17), 'sale-ended', flash);
          row(variant, currency, percentOff(price, DEMO_SALE_PERCENT), price, at(2), 'sale-started', sale);
        }
      }
    }
    if (demo.key === DEMO_SALE) {
      await trx
        .insertInto('sales')
        .values([
          { id: flash, kind: 'percent', percent: DEMO_FLASH_PERCENT, price_cents: null, price_pln: null, scope: 'products', starts_at: at(20), ends_at: at(17), label_en: 'Flash sale', label_pl: 'Błyskawiczna promocja', created_at: at(21), updated_at: at(21) },
          { id: sale, kind: 'percent', percent: DEMO_SALE_PERCENT, price_cents: null, price_pln: null, scope: 'products', starts_at: at(2), ends_at: saleEnds, label_en: DEMO_SALE_LABEL.en, label_pl: DEMO_SALE_LABEL.pl, created_at: at(3), updated_at: at(3) },
        ])
        .execute();
      await trx.insertInto('sale_targets').values([{ sale_id: flash, target: id }, { sale_id: sale, target: id }]).execute();
    }
  }
  for (let i = 0; i < rows.length; i += 200) await trx.insertInto('price_history').values(rows.slice(i, i + 200)).execute();
  await bumpPromotionsStamp(trx);
  // The sale's coffee sorts by its sale price.
  await refreshFromPrices(trx, products.filter((p) => p.demo.key === DEMO_SALE).map((p) => p.id), now.getTime());
  // The code the README names: 10% off the goods, no minimum, not on coffee already on sale.
  await createCode(trx, { id: null, email: 'Kopi demo' }, {
    code: DEMO_CODE,
    kind: 'percent',
    percent: DEMO_CODE_PERCENT,
    amountCents: null,
    amountPln: null,
    minimumCents: null,
    minimumPln: null,
    startsAt: null,
    endsAt: null,
    maxUses: null,
    maxPerCustomer: null,
    scope: 'all',
    targets: [],
    withSales: false,
    advertised: false,
  }, now);
}
