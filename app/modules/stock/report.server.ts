/**
 * What runs low, for the owner's dashboard: each tracked variant on sale with its bags (or units) left and how
 * many days they last at the last 30 days' sales. A product in batches mode sells one pool of grams, so its
 * days come from the grams it sold; a counted variant's from its own units.
 */
import type { Executor } from '~/db/database.server';
import { LOW_STOCK } from './stock.types';
import { stockOf } from './levels.server';

/** A variant is listed when this few days' sales are left, or when it is at "only N left". */
export const LOW_STOCK_DAYS = 14;
const WINDOW_DAYS = 30;

export type LowStockRow = {
  productId: string;
  name: string;
  /** The product's options as stored ("size,grind"), to label the variant. */
  options: string;
  variantId: string;
  sku: string;
  netWeightGrams: number | null;
  grind: string | null;
  packCount: number | null;
  left: number;
  /** Days the stock lasts at the last 30 days' pace; null when nothing sold then. */
  days: number | null;
};

export async function lowStock(db: Executor, { locale, now = new Date(), limit = 10 }: { locale: string; now?: Date; limit?: number }): Promise<LowStockRow[]> {
  const tracked = await db.selectFrom('stock_settings').select(['product_id', 'mode']).where('mode', '<>', 'untracked').execute();
  if (tracked.length === 0) return [];
  const ids = tracked.map((t) => t.product_id);
  const since = new Date(now.getTime() - WINDOW_DAYS * 86_400_000).toISOString();
  const [stock, variants, sold] = await Promise.all([
    stockOf(db, ids, { now }),
    db
      .selectFrom('variants')
      .innerJoin('products', 'products.id', 'variants.product_id')
      .leftJoin('product_translations as pt', (join) => join.onRef('pt.product_id', '=', 'products.id').on('pt.locale', '=', locale))
      .innerJoin('product_translations as en', (join) => join.onRef('en.product_id', '=', 'products.id').on('en.locale', '=', 'en'))
      .select(['variants.id', 'variants.product_id', 'variants.sku', 'variants.net_weight_grams', 'variants.grind', 'variants.pack_count', 'products.options', 'pt.name as localName', 'en.name as enName'])
      .where('variants.product_id', 'in', ids)
      .where('variants.active', '=', 1)
      .execute(),
    db
      .selectFrom('stock_movements')
      .select((eb) => ['product_id', 'variant_id', eb.fn.sum<number>('grams').as('grams'), eb.fn.sum<number>('units').as('units')])
      .where('product_id', 'in', ids)
      .where('kind', '=', 'sold')
      .where('created_at', '>=', since)
      .groupBy(['product_id', 'variant_id'])
      .execute(),
  ]);
  const rows: LowStockRow[] = [];
  for (const v of variants) {
    const product = stock.get(v.product_id);
    const left = product?.variants[v.id];
    if (!product || left === null || left === undefined) continue;
    if (product.mode === 'batches') {
      const grams = -sold.filter((s) => s.product_id === v.product_id).reduce((sum, s) => sum + Number(s.grams ?? 0), 0);
      // The pool lasts as long for every variant: its grams at the product's pace.
      const days = grams > 0 ? Math.floor(((product.grams ?? 0) * WINDOW_DAYS) / grams) : null;
      if (left <= LOW_STOCK || (days !== null && days <= LOW_STOCK_DAYS)) rows.push(row(v, left, days));
    } else {
      const units = -sold.filter((s) => s.variant_id === v.id).reduce((sum, s) => sum + Number(s.units ?? 0), 0);
      const days = units > 0 ? Math.floor((left * WINDOW_DAYS) / units) : null;
      if (left <= LOW_STOCK || (days !== null && days <= LOW_STOCK_DAYS)) rows.push(row(v, left, days));
    }
  }
  return rows.sort((a, b) => (a.days ?? Infinity) - (b.days ?? Infinity) || a.left - b.left || a.sku.localeCompare(b.sku)).slice(0, limit);
}

function row(
  v: { id: string; product_id: string; sku: string; net_weight_grams: number | null; grind: string | null; pack_count: number | null; options: string; localName: string | null; enName: string },
  left: number,
  days: number | null,
): LowStockRow {
  return { productId: v.product_id, name: v.localName || v.enName, options: v.options, variantId: v.id, sku: v.sku, netWeightGrams: v.net_weight_grams, grind: v.grind, packCount: v.pack_count, left, days };
}
