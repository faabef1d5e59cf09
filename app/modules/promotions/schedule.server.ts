/**
 * The sales as the shop's pages price them (docs/decisions/0025). Every sale of the last year and to come is
 * read once per catalogue version and resolved to the variants it covers (a category's or a product's, as they
 * are now), so pricing a page asks the database nothing more unless a sale runs; its Omnibus reference is then
 * read from the price history once per variant, currency and campaign. A sale starts and ends by the clock: the
 * catalogue version moves at its next start or end on every node (watchCatalogVersion), so cached pages follow
 * within a second without anyone writing anything.
 */
import type { Executor } from '~/db/database.server';
import { catalogVersion, changeCatalogAt } from '~/modules/catalog/catalog-version.server';
import type { Variant } from '~/modules/catalog/variants';
import { type Currency, currencies } from '~/modules/pricing/currencies';
import { recordSaleMomentRows, regularPoints } from './history.server';
import type { CodeRule } from './codes';
import { toRule } from './codes.server';
import { type Reduction, type SaleSpan, campaignStart, lowestBefore, percentBelow, salePrice } from './reductions';

/** How far back sales are kept in memory: a campaign and the 30 days before it. */
const LOOKBACK_MS = 400 * 86_400_000;

export type ScheduledSale = SaleSpan & { startsAt: string; endsAt: string; label: { en: string; pl: string } };
type AdvertisedCode = CodeRule & { since: number };
type Schedule = {
  byVariant: Map<string, ScheduledSale[]>;
  sales: ScheduledSale[];
  codes: AdvertisedCode[];
  /** Every start and end, ascending: the next one to come moves the catalogue version. */
  moments: number[];
  references: Map<string, Promise<number | null>>;
};

/** Per database (its `catalog_state.instance`): the schedule read at a promotions stamp. */
const byStamp = new Map<string, { stamp: number; schedule: Promise<Schedule> }>();
/** Per connection pool: the schedule seen at a catalogue version (no query at all while it holds). */
const byVersion = new WeakMap<Executor, { version: number; schedule: Promise<Schedule> }>();

/**
 * The sales and advertised codes, read again only when the promotions stamp moves (a sale, a code or a variant
 * written, on any node): the catalogue version moves with every bag sold, and then one small query confirms the
 * schedule still holds. Inside a transaction a schedule read afresh is not kept (the transaction may roll back).
 */
export async function saleSchedule(db: Executor): Promise<Schedule> {
  const version = catalogVersion();
  const seen = db.isTransaction ? undefined : byVersion.get(db);
  if (seen && seen.version === version) return seen.schedule;
  const row = await db.selectFrom('catalog_state').select(['instance', 'promotions']).where('id', '=', 1).executeTakeFirst();
  const key = row?.instance ?? '';
  const stamp = Number(row?.promotions ?? 0);
  const known = key ? byStamp.get(key) : undefined;
  let schedule: Promise<Schedule>;
  if (known && known.stamp === stamp) schedule = known.schedule;
  else {
    schedule = readSchedule(db);
    if (!db.isTransaction && key) {
      byStamp.set(key, { stamp, schedule });
      schedule.catch(() => byStamp.delete(key));
    }
  }
  if (!db.isTransaction) byVersion.set(db, { version, schedule });
  const resolved = await schedule;
  // The next start or end moves every node's catalogue version, so its cached pages follow.
  const now = Date.now();
  const next = resolved.moments.find((t) => t > now);
  if (next !== undefined) changeCatalogAt(next);
  return resolved;
}

/** Sales, codes or variants changed: every node reads its schedule again (call it in the writing transaction). */
export async function bumpPromotionsStamp(trx: Executor): Promise<void> {
  await trx.updateTable('catalog_state').set((eb) => ({ promotions: eb('promotions', '+', 1) })).where('id', '=', 1).execute();
}

async function readSchedule(db: Executor): Promise<Schedule> {
  const now = Date.now();
  const rows = await db.selectFrom('sales').selectAll().where('ends_at', '>', new Date(now - LOOKBACK_MS).toISOString()).execute();
  const byVariant = new Map<string, ScheduledSale[]>();
  const sales: ScheduledSale[] = rows.map((row) => ({
    id: row.id,
    kind: row.kind === 'price' ? 'price' : 'percent',
    percent: row.percent === null ? null : Number(row.percent),
    prices: row.price_cents === null || row.price_pln === null ? null : { EUR: Number(row.price_cents), PLN: Number(row.price_pln) },
    start: Date.parse(row.starts_at),
    end: Date.parse(row.ends_at),
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    label: { en: row.label_en, pl: row.label_pl },
  }));
  if (sales.length > 0) {
    const covered = await coveredVariants(db, rows.map((r) => r.id));
    for (const sale of sales) for (const variantId of covered.get(sale.id) ?? []) byVariant.set(variantId, [...(byVariant.get(variantId) ?? []), sale]);
  }
  // Codes advertised on product pages, running or to come.
  const codeRows = await db.selectFrom('discount_codes').selectAll().where('advertised', '=', 1).where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', new Date(now).toISOString())])).execute();
  const codeTargets = codeRows.length ? await db.selectFrom('discount_code_targets').select(['code_id', 'target']).where('code_id', 'in', codeRows.map((c) => c.id)).execute() : [];
  const codes = codeRows.map((row) => ({ ...toRule(row, codeTargets.filter((t) => t.code_id === row.id).map((t) => t.target)), since: Date.parse(row.starts_at ?? row.created_at) }));
  const moments = [...sales.flatMap((s) => [s.start, s.end]), ...codes.flatMap((c) => [c.since, c.endsAt ? Date.parse(c.endsAt) : Infinity])]
    .filter((t) => Number.isFinite(t))
    .sort((a, b) => a - b);
  return { byVariant, sales, codes, moments, references: new Map() };
}

/** The variants each of these sales covers now: its variants, its products' or its category's. */
export async function coveredVariants(db: Executor, saleIds: readonly string[]): Promise<Map<string, string[]>> {
  const covered = new Map<string, string[]>();
  if (saleIds.length === 0) return covered;
  const rows = await db
    .selectFrom('sale_targets')
    .innerJoin('sales', 'sales.id', 'sale_targets.sale_id')
    .innerJoin('variants', (join) => join.on((eb) => eb.or([eb('sales.scope', '=', 'variants').and('variants.id', '=', eb.ref('sale_targets.target')), eb('sales.scope', '=', 'products').and('variants.product_id', '=', eb.ref('sale_targets.target'))])))
    .select(['sale_targets.sale_id', 'variants.id'])
    .where('sale_targets.sale_id', 'in', [...saleIds])
    .execute();
  const byCategory = await db
    .selectFrom('sale_targets')
    .innerJoin('sales', 'sales.id', 'sale_targets.sale_id')
    .innerJoin('products', 'products.category', 'sale_targets.target')
    .innerJoin('variants', 'variants.product_id', 'products.id')
    .select(['sale_targets.sale_id', 'variants.id'])
    .where('sales.scope', '=', 'category')
    .where('sale_targets.sale_id', 'in', [...saleIds])
    .execute();
  for (const row of [...rows, ...byCategory]) covered.set(row.sale_id, [...(covered.get(row.sale_id) ?? []), row.id]);
  return covered;
}

/** The sale running for a variant at `at` that asks least of `regularCents` (sales on one variant do not overlap; a category's may meet a product's). */
export function runningSale(schedule: Schedule, variantId: string, regularCents: number, currency: Currency, at: number): { sale: ScheduledSale; priceCents: number } | null {
  let best: { sale: ScheduledSale; priceCents: number } | null = null;
  for (const sale of schedule.byVariant.get(variantId) ?? []) {
    if (sale.start > at || at >= sale.end) continue;
    const priceCents = salePrice(sale, regularCents, currency);
    if (priceCents < regularCents && (!best || priceCents < best.priceCents)) best = { sale, priceCents };
  }
  return best;
}

/**
 * These variants (priced regularly in `currency`) as a shopper is asked for them at `at`: a running sale's price,
 * with the reduction the page must show (its 30-day lowest price, and the percentage from it).
 */
export async function applySales<V extends Variant>(db: Executor, variants: readonly V[], currency: Currency, at = Date.now()): Promise<V[]> {
  if (variants.length === 0) return [...variants];
  const schedule = await saleSchedule(db);
  if (schedule.sales.length === 0) return [...variants];
  return Promise.all(
    variants.map(async (variant) => {
      const running = runningSale(schedule, variant.id, variant.priceCents, currency, at);
      if (!running) return variant;
      const spans = schedule.byVariant.get(variant.id) ?? [];
      const start = campaignStart(spans, running.sale, variant.priceCents, currency);
      const lowest = (await reference(db, schedule, variant.id, currency, spans, start)) ?? variant.priceCents;
      const reduction: Reduction = {
        saleId: running.sale.id,
        regularCents: variant.priceCents,
        lowestCents: lowest,
        percentOff: percentBelow(lowest, running.priceCents),
        label: running.sale.label,
        endsAt: running.sale.endsAt,
      };
      return { ...variant, priceCents: running.priceCents, reduction };
    }),
  );
}

/**
 * The product page's variants with the codes advertised for them (an announced reduction, docs/decisions/0025):
 * the price with the best such code, and the lowest price of the 30 days before the code started. A code that
 * makes the delivery free is not a price; one not for coffee on sale skips a reduced variant.
 */
export async function applyCodeOffers<V extends Variant>(db: Executor, variants: readonly V[], product: { id: string; category: string | null }, currency: Currency, at = Date.now()): Promise<V[]> {
  const schedule = await saleSchedule(db);
  const running = schedule.codes.filter(
    (c) => c.kind !== 'delivery' && c.since <= at && (!c.endsAt || Date.parse(c.endsAt) > at) && (c.maxUses === null || c.uses < c.maxUses) && (c.scope === 'all' || c.targets.includes(c.scope === 'categories' ? (product.category ?? '') : product.id)),
  );
  if (running.length === 0) return [...variants];
  return Promise.all(
    variants.map(async (variant) => {
      const offers = running
        .filter((c) => c.withSales || !variant.reduction)
        .map((c) => ({ code: c, priceCents: c.kind === 'percent' ? Math.round((variant.priceCents * (100 - (c.percent ?? 0))) / 100) : Math.max(0, variant.priceCents - (c.amounts?.[currency] ?? 0)) }))
        .filter((o) => o.priceCents < variant.priceCents)
        .sort((a, b) => a.priceCents - b.priceCents);
      const best = offers[0];
      if (!best) return variant;
      // The reduction shown began when the code did — or, on top of a sale, when the sale's campaign did if later.
      const spans = schedule.byVariant.get(variant.id) ?? [];
      const sale = variant.reduction ? schedule.sales.find((s) => s.id === variant.reduction!.saleId) : undefined;
      const regular = variant.reduction?.regularCents ?? variant.priceCents;
      const start = Math.max(best.code.since, sale ? campaignStart(spans, sale, regular, currency) : 0);
      const lowest = (await reference(db, schedule, variant.id, currency, spans, start)) ?? variant.priceCents;
      return { ...variant, codeOffer: { code: best.code.code, priceCents: best.priceCents, lowestCents: lowest, percentOff: percentBelow(lowest, best.priceCents), minimumCents: best.code.minimums?.[currency] ?? null } };
    }),
  );
}

function reference(db: Executor, schedule: Schedule, variantId: string, currency: Currency, spans: readonly SaleSpan[], start: number): Promise<number | null> {
  const key = `${variantId}:${currency}:${start}`;
  let found = schedule.references.get(key);
  if (!found) {
    found = regularPoints(db, variantId, currency, start).then((points) => lowestBefore(points, spans, start, currency));
    found.catch(() => schedule.references.delete(key));
    schedule.references.set(key, found);
  }
  return found;
}

/**
 * The products' "from" prices as the grid sorts them: each product's cheapest active variant as a shopper is
 * asked for it at `at` (a running sale's price), that variant's weight, and its lowest złoty price. Called when
 * variants are written and when a sale starts or ends, so "price, low to high" follows the prices shown.
 */
export async function refreshFromPrices(trx: Executor, productIds: readonly string[], at = Date.now()): Promise<void> {
  if (productIds.length === 0) return;
  const schedule = await saleSchedule(trx);
  const rows = await trx
    .selectFrom('variants')
    .select(['product_id', 'id', 'price_cents', 'price_pln', 'net_weight_grams'])
    .where('product_id', 'in', [...new Set(productIds)])
    .where('active', '=', 1)
    .orderBy('product_id')
    .orderBy('position')
    .execute();
  const asked = (id: string, regular: number, currency: Currency) => runningSale(schedule, id, regular, currency, at)?.priceCents ?? regular;
  const byProduct = new Map<string, typeof rows>();
  for (const row of rows) byProduct.set(row.product_id, [...(byProduct.get(row.product_id) ?? []), row]);
  for (const [productId, variants] of byProduct) {
    const priced = variants.map((v) => ({ eur: asked(v.id, Number(v.price_cents), 'EUR'), pln: asked(v.id, Number(v.price_pln), 'PLN'), grams: v.net_weight_grams }));
    // The first of the cheapest, in the owner's order.
    const cheapest = priced.reduce((low, v) => (v.eur < low.eur ? v : low));
    await trx.updateTable('products').set({ price_cents: cheapest.eur, price_pln: Math.min(...priced.map((v) => v.pln)), net_weight_grams: cheapest.grams }).where('id', '=', productId).execute();
  }
}

/**
 * Writes the starts and ends that have come (each once, whichever node is first) into the price history, with
 * the price the sale asked and the regular price then. Each node's sweep calls it; cheap when nothing is due.
 */
export async function recordSaleMoments(db: Executor, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - 2 * 86_400_000).toISOString();
  const until = now.toISOString();
  const due = await db
    .selectFrom('sales')
    .select(['id', 'starts_at', 'ends_at'])
    .where((eb) => eb.or([eb.and([eb('starts_at', '>', since), eb('starts_at', '<=', until)]), eb.and([eb('ends_at', '>', since), eb('ends_at', '<=', until)])]))
    .execute();
  if (due.length === 0) return 0;
  const recorded = await db.selectFrom('price_history').select(['sale_id', 'reason']).distinct().where('sale_id', 'in', due.map((s) => s.id)).execute();
  const done = new Set(recorded.map((r) => `${r.sale_id}:${r.reason}`));
  const schedule = await readSchedule(db);
  const covered = await coveredVariants(db, due.map((s) => s.id));
  const rows: Parameters<typeof recordSaleMomentRows>[1][number][] = [];
  const touched = new Set<string>();
  for (const sale of due) {
    for (const [reason, at] of [['sale-started', sale.starts_at], ['sale-ended', sale.ends_at]] as const) {
      if (at > until || at <= since || done.has(`${sale.id}:${reason}`)) continue;
      const variants = covered.get(sale.id) ?? [];
      const regular = variants.length ? await db.selectFrom('variants').select(['id', 'product_id', 'price_cents', 'price_pln']).where('id', 'in', variants).execute() : [];
      for (const v of regular) {
        touched.add(v.product_id);
        for (const currency of currencies) {
          const regularCents = Number(currency === 'EUR' ? v.price_cents : v.price_pln);
          const priceCents = runningSale(schedule, v.id, regularCents, currency, Date.parse(at))?.priceCents ?? regularCents;
          rows.push({ variantId: v.id, currency, priceCents, regularCents, at, reason, saleId: sale.id });
        }
      }
    }
  }
  await recordSaleMomentRows(db, rows);
  // The grid's price sort follows from now on.
  await refreshFromPrices(db, [...touched], now.getTime());
  return rows.length;
}
