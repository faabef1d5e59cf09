/**
 * Variants in the database (docs/decisions/0020): written with their product, read for the storefront, the
 * cart and the owner. The product row keeps its lowest active price and that variant's weight, so the grid,
 * its "from €X" and the price sort read one row per product.
 */
import { type Executor, now } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { currencySettings } from '~/modules/pricing/index.server';
import { type Currency, proposePrice } from '~/modules/pricing/currencies';
import { syncStockVariants } from '~/modules/stock/index.server';
import { applySales, bumpPromotionsStamp, recordPriceChanges, refreshFromPrices } from '~/modules/promotions/index.server';
import type { ParsedVariantInput } from './catalog.schema';
import { type Locale, getT } from '~/modules/i18n/index.server';
import { bumpStoredCatalogVersion } from './catalog-version.server';
import { type Grind, type OptionKind, type Variant, isGrind, isOptionKind, optionValue, variantLabel } from './variants';

/** A SKU the owner gave that another product's variant already has. */
export class SkuTakenError extends Error {
  constructor(public readonly sku: string) {
    super(`SKU ${sku} is taken`);
    this.name = 'SkuTakenError';
  }
}

type VariantRow = {
  id: string;
  product_id: string;
  sku: string;
  position: number;
  net_weight_grams: number | null;
  grind: string | null;
  pack_count: number | null;
  price_cents: number;
  price_pln: number;
  active: number;
};

export const toVariant = (row: VariantRow, currency: Currency = 'EUR'): Variant => ({
  id: row.id,
  sku: row.sku,
  netWeightGrams: row.net_weight_grams,
  grind: isGrind(row.grind) ? (row.grind as Grind) : null,
  packCount: row.pack_count,
  priceCents: currency === 'PLN' ? row.price_pln : row.price_cents,
  prices: { EUR: row.price_cents, PLN: row.price_pln },
  active: row.active === 1,
});

export const parseOptions = (text: string | null | undefined): OptionKind[] => (text ? text.split(',').filter(isOptionKind) : []);

const variantColumns = ['id', 'product_id', 'sku', 'position', 'net_weight_grams', 'grind', 'pack_count', 'price_cents', 'price_pln', 'active'] as const;

/**
 * The variants of these products in their order, keyed by product (only the active ones unless `all`), at their
 * regular prices in euros — or, given the shopper's `currency`, priced as a shopper is asked now (running sales).
 */
export async function variantsOf(db: Executor, productIds: readonly string[], { all = false, currency }: { all?: boolean; currency?: Currency } = {}): Promise<Map<string, Variant[]>> {
  const byProduct = new Map<string, Variant[]>();
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .selectFrom('variants')
    .select(variantColumns)
    .where('product_id', 'in', [...new Set(productIds)])
    .$if(!all, (qb) => qb.where('active', '=', 1))
    .orderBy('product_id')
    .orderBy('position')
    .execute();
  const variants = rows.map((row) => ({ ...toVariant(row, currency), productId: row.product_id }));
  for (const { productId, ...variant } of currency ? await applySales(db, variants, currency) : variants) byProduct.set(productId, [...(byProduct.get(productId) ?? []), variant]);
  return byProduct;
}

/**
 * Variants by id with their product's id (active or not: the cart decides what to do with a switched-off one), at
 * their regular euro prices — or, given the shopper's `currency`, as a shopper is asked now (running sales).
 */
export async function findVariants(db: Executor, ids: readonly string[], currency?: Currency): Promise<Map<string, Variant & { productId: string }>> {
  const wanted = [...new Set(ids.filter((id) => /^[A-Za-z0-9_-]{1,64}$/.test(id)))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('variants').select(variantColumns).where('id', 'in', wanted).execute();
  const variants = rows.map((row) => ({ ...toVariant(row, currency), productId: row.product_id }));
  return new Map((currency ? await applySales(db, variants, currency) : variants).map((v) => [v.id, v]));
}

/**
 * Replaces a product's variants with `given` (in their order): a given `id` of one of its variants keeps that
 * variant (and the carts holding it), the others are new; variants left out are deleted. Empty SKUs are made from the product's name and the values; a SKU another product uses
 * throws SkuTakenError. Then the product's "from" price and weight follow its cheapest active variant.
 */
export async function writeVariants(trx: Executor, productId: string, name: string, options: readonly OptionKind[], given: readonly ParsedVariantInput[]): Promise<Variant[]> {
  const at = now();
  const existing = await trx.selectFrom('variants').select(['id', 'sku', 'created_at']).where('product_id', '=', productId).execute();
  // A product sold one way keeps its one variant (and its SKU) when it is given again without its id.
  const inputs =
    options.length === 0 && given.length === 1 && !given[0].id && existing.length === 1
      ? [{ ...given[0], id: existing[0].id, sku: given[0].sku || existing[0].sku }]
      : given;
  const kept = new Set(existing.map((v) => v.id));
  const skus = await resolveSkus(trx, productId, name, options, inputs);
  const proposal = inputs.some((input) => input.pricePln === null) ? await currencySettings(trx) : null;
  const rows = inputs.map((input, position) => ({
    id: input.id && kept.has(input.id) ? input.id : newId(),
    product_id: productId,
    sku: skus[position],
    position,
    net_weight_grams: input.netWeightGrams,
    grind: input.grind,
    pack_count: input.packCount,
    price_cents: input.priceCents,
    price_pln: input.pricePln ?? proposePrice(input.priceCents, proposal!.rate, proposal!.rounding),
    active: input.active ? 1 : 0,
    created_at: existing.find((v) => v.id === input.id)?.created_at ?? at,
    updated_at: at,
  }));
  const gone = existing.map((v) => v.id).filter((id) => !rows.some((row) => row.id === id));
  // Carts holding a deleted variant keep the line until read: the shopper is then told (getCart).
  if (gone.length > 0) await trx.deleteFrom('variants').where('id', 'in', gone).execute();
  // SKUs move between kept variants (a swap): free them first, so the unique index never sees two at once.
  const keptRows = rows.filter((row) => kept.has(row.id));
  for (const row of keptRows) await trx.updateTable('variants').set({ sku: `~${row.id}` }).where('id', '=', row.id).execute();
  for (const { id, created_at: _created, product_id: _product, ...row } of keptRows) await trx.updateTable('variants').set(row).where('id', '=', id).execute();
  const added = rows.filter((row) => !kept.has(row.id));
  if (added.length > 0) await trx.insertInto('variants').values(added).execute();
  // What sales and codes cover may have changed (variants added or removed, the category with them).
  await bumpPromotionsStamp(trx);
  await refreshFromPrice(trx, productId);
  await recordPriceChanges(trx, rows, 'edited');
  await syncStockVariants(trx, productId, rows.map((row) => ({ id: row.id, netWeightGrams: row.net_weight_grams })));
  return rows.map((row) => toVariant(row));
}

/** The product's "from" price and its weight: those of its cheapest active variant as shoppers are asked now (a running sale's price); and its lowest złoty price. */
export async function refreshFromPrice(trx: Executor, productId: string): Promise<void> {
  await refreshFromPrices(trx, [productId]);
}

/** The SKUs to store: the given ones (refused if another product has one), and made ones that are free. */
async function resolveSkus(trx: Executor, productId: string, name: string, options: readonly OptionKind[], inputs: readonly ParsedVariantInput[]): Promise<string[]> {
  const given = inputs.map((v) => v.sku).filter(Boolean);
  if (given.length > 0) {
    const clash = await trx.selectFrom('variants').select('sku').where('sku', 'in', given).where('product_id', '<>', productId).executeTakeFirst();
    if (clash) throw new SkuTakenError(clash.sku);
  }
  const taken = new Set(given);
  const made = inputs.map((v) => (v.sku ? null : skuFor(name, options.map((kind) => optionValue(v, kind)).concat(options.length === 0 && v.netWeightGrams ? [String(v.netWeightGrams)] : []))));
  const candidates = made.filter((sku): sku is string => sku !== null);
  const used = candidates.length
    ? new Set((await trx.selectFrom('variants').select('sku').where('sku', 'like', `${commonPrefix(candidates)}%`).where('product_id', '<>', productId).execute()).map((r) => r.sku))
    : new Set<string>();
  return inputs.map((v, i) => {
    if (v.sku) return v.sku;
    const base = made[i]!;
    let sku = base;
    for (let n = 2; taken.has(sku) || used.has(sku); n++) sku = `${base}-${n}`;
    taken.add(sku);
    return sku;
  });
}

/** "JAVA-FRINSA-1000-ESPRESSO": a product's name and a variant's values as a SKU. */
export function skuFor(name: string, values: readonly string[]): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ł/gi, 'L')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 24)
    .replace(/-$/, '');
  const tail = values.map((value) => value.toUpperCase().replace(/[^A-Z0-9]+/g, '')).filter(Boolean);
  return [words || 'KOPI', ...tail].join('-').slice(0, 40);
}

const commonPrefix = (values: string[]): string => values.reduce((prefix, value) => {
  let i = 0;
  while (i < prefix.length && prefix[i] === value[i]) i++;
  return prefix.slice(0, i);
}).replace(/[%_\\]/g, '');

/**
 * The labels of these variants in each of `locales` ("1 kg, whole bean" / "1 kg, ziarnista"), for a reader in
 * another language than the one an order line keeps its label in (the owner); variants that are gone are left out.
 */
export async function variantLabelsIn(db: Executor, ids: readonly string[], locales: readonly Locale[]): Promise<Map<string, Partial<Record<Locale, string>>>> {
  const wanted = [...new Set(ids.filter((id) => /^[A-Za-z0-9_-]{1,64}$/.test(id)))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('variants')
    .innerJoin('products', 'products.id', 'variants.product_id')
    .select([...variantColumns.map((c) => `variants.${c}` as const), 'products.options'])
    .where('variants.id', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.id, Object.fromEntries(locales.map((locale) => [locale, variantLabel(toVariant(row), parseOptions(row.options), getT(locale), locale)]))]));
}

/** A variant on the owner's price lists: its product's name, its label, its SKU and its prices. */
export type VariantPriceRow = { id: string; productId: string; name: string; label: string; sku: string; active: boolean; prices: { EUR: number; PLN: number } };

/** Every variant, by product name then the owner's order, with its name in `locale` (else English). */
export async function listVariantPrices(db: Executor, locale: Locale): Promise<VariantPriceRow[]> {
  const rows = await db
    .selectFrom('variants')
    .innerJoin('products', 'products.id', 'variants.product_id')
    .leftJoin('product_translations as en', (join) => join.onRef('en.product_id', '=', 'products.id').on('en.locale', '=', 'en'))
    .leftJoin('product_translations as loc', (join) => join.onRef('loc.product_id', '=', 'products.id').on('loc.locale', '=', locale))
    .select([...variantColumns.map((c) => `variants.${c}` as const), 'products.options', 'en.name as en_name', 'loc.name as loc_name'])
    .orderBy('variants.product_id')
    .orderBy('variants.position')
    .execute();
  const t = getT(locale);
  return rows
    .map((row) => {
      const variant = toVariant(row);
      return { id: row.id, productId: row.product_id, name: row.loc_name || row.en_name || '', label: variantLabel(variant, parseOptions(row.options), t, locale), sku: row.sku, active: variant.active, prices: variant.prices };
    })
    // A stable sort: each product's variants stay in the owner's order.
    .sort((a, b) => a.name.localeCompare(b.name, locale) || (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));
}

/** Sets variants' złoty prices (the owner applied proposed ones) and their products' lowest złoty price; pages everywhere follow. */
export async function setZlotyPrices(trx: Executor, changes: ReadonlyArray<{ variantId: string; pricePln: number }>): Promise<void> {
  if (changes.length === 0) return;
  const at = now();
  for (const change of changes) await trx.updateTable('variants').set({ price_pln: change.pricePln, updated_at: at }).where('id', '=', change.variantId).execute();
  const products = await trx.selectFrom('variants').select('product_id').distinct().where('id', 'in', changes.map((c) => c.variantId)).execute();
  for (const { product_id } of products) await refreshFromPrice(trx, product_id);
  const written = await trx.selectFrom('variants').select(['id', 'price_cents', 'price_pln']).where('id', 'in', changes.map((c) => c.variantId)).execute();
  await recordPriceChanges(trx, written, 'rate');
  await bumpStoredCatalogVersion(trx);
}
