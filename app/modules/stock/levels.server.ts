/**
 * What a shopper can buy now (docs/decisions/0020). A product in batches mode sells grams of its roast batches,
 * oldest first, each bag drawing its variant's weight: a variant can sell ⌊grams available ÷ its weight⌋ bags.
 * A product in units mode sells each variant's count. Grams and units held by live reservations (going to
 * payment, not expired) are not available to anyone else. The stock module keeps its own copy of what it needs
 * of each variant (`stock_variants`: the weight, the counted units), which the catalogue keeps in step.
 */
import { sql } from 'kysely';
import { type Executor, databaseKind } from '~/db/database.server';
import { SHOP_TIME_ZONE } from '~/lib/format';
import { addDays, shopDayOf } from '~/lib/shop-days';
import { type ProductStock, type StockMode, isStockMode, stockState } from './stock.types';

/** The catalogue tells stock its variants whenever it writes them: their weights; counted units are kept. */
export async function syncStockVariants(trx: Executor, productId: string, variants: ReadonlyArray<{ id: string; netWeightGrams: number | null }>): Promise<void> {
  const ids = variants.map((v) => v.id);
  if (ids.length > 0) {
    await trx
      .insertInto('stock_variants')
      .values(variants.map((v) => ({ variant_id: v.id, product_id: productId, net_weight_grams: v.netWeightGrams, units: null })))
      .onConflict((oc) => oc.column('variant_id').doUpdateSet((eb) => ({ net_weight_grams: eb.ref('excluded.net_weight_grams') })))
      .execute();
  }
  await trx.deleteFrom('stock_variants').where('product_id', '=', productId).$if(ids.length > 0, (qb) => qb.where('variant_id', 'not in', ids)).execute();
}

/** Stock's rows for new variants, many at once (the catalogue's bulk import). */
export async function addStockVariants(trx: Executor, variants: ReadonlyArray<{ id: string; productId: string; netWeightGrams: number | null }>): Promise<void> {
  if (variants.length === 0) return;
  await trx.insertInto('stock_variants').values(variants.map((v) => ({ variant_id: v.id, product_id: v.productId, net_weight_grams: v.netWeightGrams, units: null }))).execute();
}

/** On PostgreSQL the products' rows are locked in one order, so two stock changes of a product take turns. */
export async function lockProducts(trx: Executor, productIds: readonly string[]): Promise<void> {
  const ids = [...new Set(productIds)].sort();
  if (ids.length === 0 || databaseKind(trx) !== 'postgres') return;
  await sql`select id from products where id in (${sql.join(ids)}) order by id for update`.execute(trx);
}

export type Batch = { id: string; productId: string; roastedOn: string; gramsLeft: number };

/** The first day a batch may have been roasted on and still count as stock, for a product that limits it. */
export const oldestSellableDay = (sellWithinDays: number | null, now: Date): string | null =>
  sellWithinDays === null ? null : addDays(shopDayOf(now, SHOP_TIME_ZONE), -sellWithinDays);

/**
 * Each product's stock now: each variant's bags or units to sell (null when not tracked), and the day the
 * coffee that ships next was roasted. Live reservations count against it, except those of `except.order` (an
 * order being paid draws on what it reserved) and of the orders of `except.cart` (a cart is not short of what
 * its own payment holds).
 */
export async function stockOf(
  db: Executor,
  productIds: readonly string[],
  { now = new Date(), except = {} }: { now?: Date; except?: { order?: string; cart?: string } } = {},
): Promise<Map<string, ProductStock>> {
  const ids = [...new Set(productIds)];
  const out = new Map<string, ProductStock>();
  if (ids.length === 0) return out;
  // The tracked products with their variants, in one query.
  const rows = await db
    .selectFrom('stock_settings')
    .leftJoin('stock_variants', 'stock_variants.product_id', 'stock_settings.product_id')
    .select(['stock_settings.product_id', 'stock_settings.mode', 'stock_settings.sell_within_days', 'stock_variants.variant_id', 'stock_variants.net_weight_grams', 'stock_variants.units'])
    .where('stock_settings.product_id', 'in', ids)
    .where('stock_settings.mode', '<>', 'untracked')
    .execute();
  if (rows.length === 0) return out;
  const settings = [...new Map(rows.map((r) => [r.product_id, { product_id: r.product_id, mode: r.mode, sell_within_days: r.sell_within_days }])).values()];
  const variants = rows.flatMap((r) => (r.variant_id === null ? [] : [{ variant_id: r.variant_id, product_id: r.product_id, net_weight_grams: r.net_weight_grams, units: r.units }]));
  const tracked = settings.map((s) => s.product_id);
  const [batches, reserved] = await Promise.all([
    sellableBatches(db, settings, now),
    db
      .selectFrom('stock_reservations')
      .select((eb) => ['product_id', 'variant_id', eb.fn.sum<number>('grams').as('grams'), eb.fn.sum<number>('units').as('units')])
      .where('product_id', 'in', tracked)
      .where('status', '=', 'live')
      .where('expires_at', '>', now.toISOString())
      .$if(except.order !== undefined, (qb) => qb.where('order_id', '<>', except.order!))
      .$if(except.cart !== undefined, (qb) => qb.where('order_id', 'not in', (eb) => eb.selectFrom('orders').select('id').where('cart_id', '=', except.cart!)))
      .groupBy(['product_id', 'variant_id'])
      .execute(),
  ]);
  for (const setting of settings) {
    const mode: StockMode = isStockMode(setting.mode) ? setting.mode : 'untracked';
    const own = variants.filter((v) => v.product_id === setting.product_id);
    const holds = reserved.filter((r) => r.product_id === setting.product_id);
    const stock: ProductStock = { mode, variants: {}, roastedOn: null, grams: null, weights: Object.fromEntries(own.map((v) => [v.variant_id, v.net_weight_grams])) };
    if (mode === 'batches') {
      const ofProduct = batches.filter((b) => b.productId === setting.product_id);
      const reservedGrams = holds.reduce((sum, r) => sum + Number(r.grams ?? 0), 0);
      const grams = Math.max(0, ofProduct.reduce((sum, b) => sum + b.gramsLeft, 0) - reservedGrams);
      for (const v of own) stock.variants[v.variant_id] = v.net_weight_grams ? Math.floor(grams / v.net_weight_grams) : null;
      stock.grams = grams;
      stock.roastedOn = nextRoast(ofProduct, reservedGrams);
    } else {
      for (const v of own) {
        const held = holds.filter((r) => r.variant_id === v.variant_id).reduce((sum, r) => sum + Number(r.units ?? 0), 0);
        stock.variants[v.variant_id] = Math.max(0, (v.units ?? 0) - held);
      }
    }
    out.set(setting.product_id, stock);
  }
  return out;
}

/** The batches with coffee left that still count as stock, oldest first. */
export async function sellableBatches(db: Executor, settings: ReadonlyArray<{ product_id: string; mode: string; sell_within_days: number | null }>, now: Date): Promise<Batch[]> {
  const inBatches = settings.filter((s) => s.mode === 'batches');
  if (inBatches.length === 0) return [];
  const rows = await db
    .selectFrom('roast_batches')
    .select(['id', 'product_id', 'roasted_on', 'grams_left'])
    .where('product_id', 'in', inBatches.map((s) => s.product_id))
    .where('grams_left', '>', 0)
    .orderBy('roasted_on')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows
    .filter((row) => {
      const oldest = oldestSellableDay(inBatches.find((s) => s.product_id === row.product_id)?.sell_within_days ?? null, now);
      return oldest === null || row.roasted_on >= oldest;
    })
    .map((row) => ({ id: row.id, productId: row.product_id, roastedOn: row.roasted_on, gramsLeft: row.grams_left }));
}

/** The roast day of the oldest batch still holding coffee once `reserved` grams are set aside, oldest first. */
function nextRoast(batches: Batch[], reserved: number): string | null {
  let left = reserved;
  for (const batch of batches) {
    if (batch.gramsLeft > left) return batch.roastedOn;
    left -= batch.gramsLeft;
  }
  return null;
}

/**
 * What the pages show of these products' stock (each variant's state, "only N left", the roast day) is stored;
 * true when it changed for any of them, so the caller empties the page caches (the catalogue's version).
 */
export async function refreshShownStock(trx: Executor, productIds: readonly string[], now = new Date()): Promise<boolean> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return false;
  const [stock, stored] = await Promise.all([
    stockOf(trx, ids, { now }),
    trx.selectFrom('stock_settings').select(['product_id', 'shown']).where('product_id', 'in', ids).execute(),
  ]);
  let changed = false;
  for (const row of stored) {
    const shown = shownOf(stock.get(row.product_id));
    if (shown === row.shown) continue;
    await trx.updateTable('stock_settings').set({ shown }).where('product_id', '=', row.product_id).execute();
    changed = true;
  }
  return changed;
}

/**
 * Batches age out of stock by themselves (a product sold within N days of roasting): what the pages show of such
 * products is refreshed now and then (each node's sweep); true when it changed.
 */
export async function refreshAgingStock(db: Executor, now = new Date()): Promise<boolean> {
  const aging = await db.selectFrom('stock_settings').select('product_id').where('mode', '=', 'batches').where('sell_within_days', 'is not', null).execute();
  if (aging.length === 0) return false;
  return refreshShownStock(db, aging.map((row) => row.product_id), now);
}

/** A product's stock as its pages show it, as text: each variant's state (with the count when low) and the roast day. */
function shownOf(stock: ProductStock | undefined): string {
  if (!stock) return '';
  const variants = Object.entries(stock.variants)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([id, left]) => {
      const state = stockState(left);
      return `${id}:${state}${state === 'low' ? left : ''}`;
    });
  return `${variants.join(',')}|${stock.roastedOn ?? ''}`;
}
