/**
 * The price history (docs/decisions/0025): every price each variant has had in each currency, from when, and
 * why — appended by every change (an edit, złoty prices applied at a new rate, a sale starting or ending) and
 * never rewritten. The Omnibus reference is computed from it, and the owner reads it on the product's page.
 */
import type { Executor } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type Currency, currencies } from '~/modules/pricing/currencies';
import type { PricePoint } from './reductions';

export const historyReasons = ['listed', 'edited', 'rate', 'sale-started', 'sale-ended'] as const;
export type HistoryReason = (typeof historyReasons)[number];

type VariantPrices = { id: string; price_cents: number; price_pln: number };

/**
 * Records the regular prices of these variants where they differ from the last recorded ones (a new variant:
 * 'listed'); `effective` gives the price a running sale makes of each, when one runs.
 */
export async function recordRegularPrices(
  trx: Executor,
  variants: readonly VariantPrices[],
  { reason, at, effective }: { reason: 'edited' | 'rate'; at: string; effective?: (variantId: string, currency: Currency, regularCents: number) => number },
): Promise<number> {
  if (variants.length === 0) return 0;
  const last = await latestRows(trx, variants.map((v) => v.id));
  const rows = variants.flatMap((v) =>
    currencies.flatMap((currency) => {
      const regular = currency === 'EUR' ? v.price_cents : v.price_pln;
      const before = last.get(`${v.id}:${currency}`);
      if (before && before.regular_cents === regular) return [];
      const price = effective ? effective(v.id, currency, regular) : regular;
      return [{ id: newId(), variant_id: v.id, currency, price_cents: price, regular_cents: regular, at, reason: before ? reason : 'listed', sale_id: null }];
    }),
  );
  for (let i = 0; i < rows.length; i += 200) await trx.insertInto('price_history').values(rows.slice(i, i + 200)).execute();
  return rows.length;
}

/** The last recorded row of each variant in each currency, keyed "variantId:currency". */
async function latestRows(db: Executor, variantIds: readonly string[]): Promise<Map<string, { regular_cents: number; price_cents: number }>> {
  const rows = await db
    .selectFrom('price_history')
    .select(['variant_id', 'currency', 'regular_cents', 'price_cents', 'at'])
    .where('variant_id', 'in', [...new Set(variantIds)])
    .orderBy('at')
    .orderBy('id')
    .execute();
  const latest = new Map<string, { regular_cents: number; price_cents: number }>();
  for (const row of rows) latest.set(`${row.variant_id}:${row.currency}`, row);
  return latest;
}

/** Sales' starts and ends for variants in a currency, each written once whichever node sees it first. */
export async function recordSaleMomentRows(
  db: Executor,
  rows: ReadonlyArray<{ variantId: string; currency: Currency; priceCents: number; regularCents: number; at: string; reason: 'sale-started' | 'sale-ended'; saleId: string }>,
): Promise<void> {
  const values = rows.map((row) => ({ id: newId(), variant_id: row.variantId, currency: row.currency, price_cents: row.priceCents, regular_cents: row.regularCents, at: row.at, reason: row.reason, sale_id: row.saleId }));
  for (let i = 0; i < values.length; i += 200) await db.insertInto('price_history').values(values.slice(i, i + 200)).onConflict((oc) => oc.doNothing()).execute();
}

/** The regular prices of a variant in a currency before `before` (ms), ascending: what the reference is computed from. */
export async function regularPoints(db: Executor, variantId: string, currency: Currency, before: number): Promise<PricePoint[]> {
  const rows = await db
    .selectFrom('price_history')
    .select(['at', 'regular_cents'])
    .where('variant_id', '=', variantId)
    .where('currency', '=', currency)
    .where('at', '<', new Date(before).toISOString())
    .orderBy('at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ at: Date.parse(row.at), cents: Number(row.regular_cents) }));
}

export type HistoryEntry = { variantId: string; sku: string; currency: Currency; priceCents: number; regularCents: number; at: string; reason: HistoryReason; saleId: string | null };

/** A product's price history, newest first (one moment's rows by variant, euros first), for the owner. */
export async function productPriceHistory(db: Executor, productId: string, limit = 300): Promise<HistoryEntry[]> {
  const rows = await db
    .selectFrom('price_history')
    .innerJoin('variants', 'variants.id', 'price_history.variant_id')
    .select(['variants.sku', 'price_history.variant_id', 'price_history.currency', 'price_history.price_cents', 'price_history.regular_cents', 'price_history.at', 'price_history.reason', 'price_history.sale_id'])
    .where('variants.product_id', '=', productId)
    .orderBy('price_history.at', 'desc')
    // One moment's rows in the owner's order of the variants, euros first.
    .orderBy('variants.position')
    .orderBy('price_history.currency')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    variantId: row.variant_id,
    sku: row.sku,
    currency: row.currency === 'PLN' ? 'PLN' : 'EUR',
    priceCents: Number(row.price_cents),
    regularCents: Number(row.regular_cents),
    at: row.at,
    reason: (historyReasons as readonly string[]).includes(row.reason) ? (row.reason as HistoryReason) : 'edited',
    saleId: row.sale_id,
  }));
}
