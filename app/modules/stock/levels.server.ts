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

/** What a product's stock is computed from: its settings, its variants as stock keeps them, sellable batches and live holds. */
export type StockFacts = {
  /** The tracked products' settings, with what their pages show of their stock now (`refreshShownStock`). */
  settings: { product_id: string; mode: string; sell_within_days: number | null; shown: string }[];
  variants: { variant_id: string; product_id: string; net_weight_grams: number | null; units: number | null }[];
  batches: Batch[];
  /** Live holds, summed per variant (several rows of one variant add up). */
  reserved: { product_id: string; variant_id: string; grams: number | null; units: number | null }[];
};

/**
 * Each product's stock now: each variant's bags or units to sell (null when not tracked), and the day the
 * coffee that ships next was roasted. Live reservations count against it, except those of `except.order` (an
 * order being paid draws on what it reserved) and of the orders of `except.cart` (a cart is not short of what
 * its own payment holds).
 */
export async function stockOf(
  db: Executor,
  productIds: readonly string[],
  options: { now?: Date; except?: { order?: string; cart?: string } } = {},
): Promise<Map<string, ProductStock>> {
  return stockFrom(await stockFacts(db, productIds, options));
}

/** One row of the facts query: a tracked product's variant (`s`), a batch with coffee left (`b`) or live holds (`r`). */
type FactRow = { kind: 's' | 'b' | 'r'; product_id: string; t1: string | null; t2: string | null; t3: string | null; n1: number | string | null; n2: number | string | null; n3: number | string | null };

const num = (value: number | string | null): number | null => (value === null ? null : Number(value));

/**
 * The rows `stockOf` reads, in one query (a stock change is read inside the transaction that locked the
 * products, so one round trip matters on PostgreSQL), for a caller that reuses them.
 */
export async function stockFacts(
  db: Executor,
  productIds: readonly string[],
  { now = new Date(), except = {} }: { now?: Date; except?: { order?: string; cart?: string } } = {},
): Promise<StockFacts> {
  const ids = [...new Set(productIds)];
  const facts: StockFacts = { settings: [], variants: [], batches: [], reserved: [] };
  if (ids.length === 0) return facts;
  const list = sql.join(ids);
  const notOrder = except.order !== undefined ? sql`and order_id <> ${except.order}` : sql``;
  const notCart = except.cart !== undefined ? sql`and order_id not in (select id from orders where cart_id = ${except.cart})` : sql``;
  const { rows } = await sql<FactRow>`
    select 's' as kind, s.product_id, s.mode as t1, v.variant_id as t2, s.shown as t3, s.sell_within_days as n1, v.net_weight_grams as n2, v.units as n3
      from stock_settings s left join stock_variants v on v.product_id = s.product_id
     where s.product_id in (${list}) and s.mode <> 'untracked'
    union all
    select 'b', product_id, id, roasted_on, created_at, grams_left, null, null
      from roast_batches where product_id in (${list}) and grams_left > 0
    union all
    select 'r', product_id, variant_id, null, null, sum(grams), sum(units), null
      from stock_reservations where product_id in (${list}) and status = 'live' and expires_at > ${now.toISOString()} ${notOrder} ${notCart}
     group by product_id, variant_id`.execute(db);

  const settings = new Map<string, StockFacts['settings'][number]>();
  for (const row of rows.filter((r) => r.kind === 's')) {
    settings.set(row.product_id, { product_id: row.product_id, mode: row.t1 ?? 'untracked', sell_within_days: num(row.n1), shown: row.t3 ?? '' });
    if (row.t2 !== null) facts.variants.push({ variant_id: row.t2, product_id: row.product_id, net_weight_grams: num(row.n2), units: num(row.n3) });
  }
  facts.settings = [...settings.values()];
  // Batches count for a product kept in batches, oldest first, and only as long as the product sells them.
  const batches = rows.filter((r) => r.kind === 'b' && settings.get(r.product_id)?.mode === 'batches');
  batches.sort((a, b) => compare(a.t2, b.t2) || compare(a.t3, b.t3) || compare(a.t1, b.t1));
  for (const row of batches) {
    const oldest = oldestSellableDay(settings.get(row.product_id)!.sell_within_days, now);
    if (oldest !== null && row.t2! < oldest) continue;
    facts.batches.push({ id: row.t1!, productId: row.product_id, roastedOn: row.t2!, gramsLeft: num(row.n1)! });
  }
  facts.reserved = rows
    .filter((r) => r.kind === 'r' && settings.has(r.product_id))
    .map((r) => ({ product_id: r.product_id, variant_id: r.t1!, grams: num(r.n1), units: num(r.n2) }));
  return facts;
}

const compare = (a: string | null, b: string | null) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0);

/** Each product's stock from its facts (no query): what `stockOf` answers. */
export function stockFrom({ settings, variants, batches, reserved }: StockFacts): Map<string, ProductStock> {
  const out = new Map<string, ProductStock>();
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
export async function refreshShownStock(trx: Executor, productIds: readonly string[], now = new Date(), known?: StockFacts): Promise<boolean> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return false;
  // `known`: the caller read these products' facts in this transaction (every live hold counted): the tracked
  // ones are compared; an untracked one shows nothing, which its settings were given when it stopped being tracked.
  const [stock, stored] = known
    ? [stockFrom(known), known.settings]
    : await Promise.all([stockOf(trx, ids, { now }), trx.selectFrom('stock_settings').select(['product_id', 'shown']).where('product_id', 'in', ids).execute()]);
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
