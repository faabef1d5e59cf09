import { type TaxClass, isTaxClass } from '~/modules/tax/vat';
import { type Executor, databaseKind, inTransaction, monotonicNow } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { productSearchFilter } from '~/db/search.server';
import type { Locale } from '~/modules/i18n/translate';
import { type ProductImage, type Storage, productImage } from '~/modules/storage/index.server';
import {
  type Category,
  type SortOrder,
  type Process,
  type ProductDetail,
  type ProductInput,
  type ProductSummary,
  type Roast,
  isCategory,
  processes,
  productInputSchema,
  roasts,
} from './catalog.schema';
import { bumpStoredCatalogVersion, markCatalogChanged } from './catalog-version.server';
import { productRows, productSearchText } from './product-rows.server';
import { searchTerms } from './search';
import { planSearch, recordSearchText } from './vocabulary.server';
import { LOW_STOCK, type ProductStock, stockOf, syncStockVariants } from '~/modules/stock/index.server';
import { parseOptions, variantsOf, writeVariants } from './variants.server';
import type { OptionKind, Variant } from './variants';
import type { Currency } from '~/modules/pricing/currencies';
import { applyCodeOffers } from '~/modules/promotions/index.server';

/** Product ids are random base64url strings; anything else cannot name a product. */
const productIdPattern = /^[A-Za-z0-9_-]{1,64}$/;
export const isProductId = (id: unknown): id is string => typeof id === 'string' && productIdPattern.test(id);

export type ListProductsOptions = {
  locale: Locale;
  q?: string;
  category?: Category;
  sort?: SortOrder;
  limit: number;
  offset: number;
  /** What the prices are in (and sorted by); euros unless said. */
  currency?: Currency;
};

/**
 * Newest first unless `sort` says otherwise; `hasMore` tells whether another page follows. Search, filter
 * and order all run in the database; ties fall back to newest first, then the id, so pages never overlap.
 * A search whose words occur nowhere in the catalogue is corrected (vocabulary.server.ts); when the corrected
 * words find products, `correctedQuery` says what was searched for instead ("czekloada" → "czekolada").
 */
export async function listProducts(
  db: Executor,
  storage: Storage,
  { locale, q, category, sort = 'newest', limit, offset, currency = 'EUR' }: ListProductsOptions,
): Promise<{ items: ProductSummary[]; hasMore: boolean; correctedQuery?: string }> {
  const plan = await planSearch(db, searchTerms(q ?? ''));
  if (plan === null) return { items: [], hasMore: false };
  const { terms, corrected } = plan;
  const rows = await summaryQuery(db, locale)
    .$if(category !== undefined, (qb) => qb.where('products.category', '=', category!))
    .$if(terms.length > 0, (qb) => qb.where(productSearchFilter(db, terms)))
    .$if(sort === 'price-asc', (qb) => qb.orderBy(currency === 'PLN' ? 'products.price_pln' : 'products.price_cents', 'asc'))
    .$if(sort === 'price-desc', (qb) => qb.orderBy(currency === 'PLN' ? 'products.price_pln' : 'products.price_cents', 'desc'))
    .$if(sort === 'rating', (qb) => qb.orderBy('products.rating', 'desc').orderBy('products.review_count', 'desc'))
    .orderBy('products.created_at', 'desc')
    .orderBy('products.id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  const page = rows.slice(0, limit);
  const result = { items: await toSummaries(db, storage, page, { currency }), hasMore: rows.length > limit };
  return corrected && page.length > 0 ? { ...result, correctedQuery: terms.join(' ') } : result;
}

/** The products that still exist among `ids`, keyed by id (unknown and malformed ids are left out). */
export async function getProductsByIds(
  db: Executor,
  storage: Storage,
  ids: readonly string[],
  locale: Locale,
  /** `stock: false`: the caller reads stock its own way (the cart), so the summaries leave it out (every variant's `left` is null). */
  { stock = true, currency = 'EUR' }: { stock?: boolean; currency?: Currency } = {},
): Promise<Map<string, ProductSummary>> {
  const wanted = [...new Set(ids.filter(isProductId))];
  if (wanted.length === 0) return new Map();
  const rows = await summaryQuery(db, locale).where('products.id', 'in', wanted).execute();
  return new Map((await toSummaries(db, storage, rows, { stock, currency })).map((p) => [p.id, p]));
}

export async function getProduct(db: Executor, storage: Storage, id: string, locale: Locale, currency: Currency = 'EUR'): Promise<ProductDetail | null> {
  if (!isProductId(id)) return null;
  const row = await summaryQuery(db, locale)
    .select([
      'products.altitude_min',
      'products.altitude_max',
      'products.created_at',
      'products.updated_at',
      'en.description as en_description',
      'loc.description as loc_description',
    ])
    .where('products.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const [rows, variants, stock] = await Promise.all([
    db.selectFrom('product_images').select(['path', 'width', 'height']).where('product_id', '=', id).orderBy('position').execute(),
    variantsOf(db, [id], { currency }),
    stockOf(db, [id]),
  ]);
  const images = rows.map((image) => productImage(storage, image.path, image));
  // The product page also shows a code advertised for it (an announced reduction, with its 30-day lowest price).
  const offered = await applyCodeOffers(db, variants.get(id) ?? [], { id, category: row.category }, currency);
  const withStock = withLeft(offered, stock.get(id));
  const summary = toSummary(row, images[0] ?? null, withStock, currency);
  if (!summary) return null;
  return {
    ...summary,
    variants: withStock,
    roastedOn: stock.get(id)?.roastedOn ?? null,
    description: row.loc_description || row.en_description || '',
    altitudeMin: row.altitude_min,
    altitudeMax: row.altitude_max,
    images,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function productExists(db: Executor, id: string): Promise<boolean> {
  if (!isProductId(id)) return false;
  const row = await db.selectFrom('products').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** Every product's id and when it last changed, oldest first (the sitemap). */
export async function listProductDates(db: Executor): Promise<Array<{ id: string; updatedAt: string }>> {
  const rows = await db.selectFrom('products').select(['id', 'updated_at']).orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, updatedAt: row.updated_at }));
}

export async function countProducts(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Creates a product and returns its id. The input is validated here too (a ZodError means a caller bug).
 * `createdAt` (ISO) backdates it, for the demo catalogue.
 * When `db` is a transaction, the catalogue version is bumped before that transaction commits; call
 * markCatalogChanged() again after committing if a page cache may be filled meanwhile.
 */
export async function createProduct(db: Executor, input: ProductInput, options: { createdAt?: string; id?: string } = {}): Promise<string> {
  const parsed = productInputSchema.parse(input);
  const id = options.id ?? newId();
  const rows = productRows(id, parsed, options.createdAt ?? monotonicNow());
  await inTransaction(db, async (trx) => {
    await trx.insertInto('products').values(rows.product).execute();
    await trx.insertInto('product_translations').values(rows.translations).execute();
    if (rows.images.length > 0) await trx.insertInto('product_images').values(rows.images).execute();
    await writeVariants(trx, id, parsed.translations.en.name, parsed.options, parsed.variants);
    await recordSearchText(trx, [{ after: rows.product.search_text }]);
    await bumpStoredCatalogVersion(trx);
  });
  markCatalogChanged();
  return id;
}

/** Replaces a product's fields, translations and images; `removedImages` are the keys no longer used (delete their files). */
export async function updateProduct(
  db: Executor,
  id: string,
  input: ProductInput,
): Promise<{ ok: true; removedImages: string[] } | { ok: false; reason: 'not_found' }> {
  const parsed = productInputSchema.parse(input);
  if (!isProductId(id)) return { ok: false, reason: 'not_found' };
  const result = await inTransaction(db, async (trx) => {
    // PostgreSQL: the row stays locked, so a concurrent edit cannot count the same old words away twice.
    const existing = await trx
      .selectFrom('products')
      .select(['created_at', 'search_text'])
      .where('id', '=', id)
      .$if(databaseKind(trx) === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (!existing) return null;
    const oldImages = await trx.selectFrom('product_images').select('path').where('product_id', '=', id).execute();
    const { product, translations, images } = productRows(id, parsed, existing.created_at, monotonicNow());
    const { id: _id, created_at: _created, ...changes } = product;
    await trx.updateTable('products').set(changes).where('id', '=', id).execute();
    await trx.deleteFrom('product_translations').where('product_id', '=', id).execute();
    await trx.insertInto('product_translations').values(translations).execute();
    await trx.deleteFrom('product_images').where('product_id', '=', id).execute();
    if (images.length > 0) await trx.insertInto('product_images').values(images).execute();
    await writeVariants(trx, id, parsed.translations.en.name, parsed.options, parsed.variants);
    await recordSearchText(trx, [{ before: existing.search_text, after: product.search_text }]);
    await bumpStoredCatalogVersion(trx);
    const kept = new Set(parsed.images.map((image) => image.key));
    return oldImages.map((i) => i.path).filter((path) => !kept.has(path));
  });
  if (result === null) return { ok: false, reason: 'not_found' };
  markCatalogChanged();
  return { ok: true, removedImages: result };
}

/** Deletes a product; `images` are its image keys, for the caller to delete from storage. */
export async function deleteProduct(
  db: Executor,
  id: string,
): Promise<{ ok: true; images: string[] } | { ok: false; reason: 'not_found' }> {
  if (!isProductId(id)) return { ok: false, reason: 'not_found' };
  const images = await inTransaction(db, async (trx) => {
    const paths = await trx
      .selectFrom('product_images')
      .select('path')
      .where('product_id', '=', id)
      .orderBy('position')
      .execute();
    await trx.deleteFrom('product_images').where('product_id', '=', id).execute();
    await trx.deleteFrom('product_translations').where('product_id', '=', id).execute();
    // Carts holding its variants keep their lines until read: the shopper is then told (getCart).
    await trx.deleteFrom('variants').where('product_id', '=', id).execute();
    await syncStockVariants(trx, id, []);
    const deleted = await trx.deleteFrom('products').where('id', '=', id).returning('search_text').executeTakeFirst();
    if (deleted) await recordSearchText(trx, [{ before: deleted.search_text }]);
    await bumpStoredCatalogVersion(trx);
    return deleted ? paths.map((p) => p.path) : null;
  });
  if (images === null) return { ok: false, reason: 'not_found' };
  markCatalogChanged();
  return { ok: true, images };
}

/**
 * Recomputes every product's search text, e.g. after the category labels changed in the catalogues
 * (the text is computed when a product is written). Returns how many products changed.
 */
export async function rebuildSearchText(db: Executor): Promise<number> {
  let changed = 0;
  let after = '';
  for (;;) {
    const products = await db
      .selectFrom('products')
      .select(['id', 'category', 'origin', 'region', 'process', 'roast', 'search_text'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute();
    if (products.length === 0) break;
    after = products[products.length - 1].id;
    const translations = await db
      .selectFrom('product_translations')
      .selectAll()
      .where(
        'product_id',
        'in',
        products.map((p) => p.id),
      )
      .execute();
    const changes: Array<{ id: string; before: string; after: string }> = [];
    for (const product of products) {
      const text = (locale: string) => {
        const t = translations.find((row) => row.product_id === product.id && row.locale === locale);
        return t && { name: t.name, description: t.description, notes: splitNotes(t.tasting_notes), origin: t.origin ?? '', region: t.region ?? '' };
      };
      const searchText = productSearchText({
        category: isCategory(product.category) ? product.category : null,
        origin: product.origin,
        region: product.region,
        process: processes.find((p) => p === product.process) ?? null,
        roast: roasts.find((r) => r === product.roast) ?? null,
        translations: { en: text('en') ?? { name: '', description: '', notes: [] }, pl: text('pl') },
      });
      if (searchText !== product.search_text) changes.push({ id: product.id, before: product.search_text, after: searchText });
    }
    if (changes.length > 0) changed += await saveSearchText(db, changes);
  }
  if (changed > 0) {
    await bumpStoredCatalogVersion(db);
    markCatalogChanged();
  }
  return changed;
}

/** Writes new search texts and their words in one transaction; a text edited meanwhile is left to its editor. */
async function saveSearchText(db: Executor, changes: Array<{ id: string; before: string; after: string }>): Promise<number> {
  return inTransaction(db, async (trx) => {
    const saved: typeof changes = [];
    for (const change of changes) {
      const result = await trx
        .updateTable('products')
        .set({ search_text: change.after })
        .where('id', '=', change.id)
        .where('search_text', '=', change.before)
        .executeTakeFirst();
      if (result.numUpdatedRows > 0n) saved.push(change);
    }
    await recordSearchText(trx, saved);
    return saved.length;
  });
}

// ---------------------------------------------------------------------------------------------------

/** Products with their English and their `locale` translation (Polish fields fall back to English). */
function summaryQuery(db: Executor, locale: Locale) {
  return db
    .selectFrom('products')
    .leftJoin('product_translations as en', (join) => join.onRef('en.product_id', '=', 'products.id').on('en.locale', '=', 'en'))
    .leftJoin('product_translations as loc', (join) =>
      join.onRef('loc.product_id', '=', 'products.id').on('loc.locale', '=', locale),
    )
    .select([
      'products.id',
      'products.category',
      'products.price_cents',
      'products.net_weight_grams',
      'products.options',
      'products.rating',
      'products.review_count',
      'products.origin',
      'products.region',
      'products.process',
      'products.roast',
      'en.name as en_name',
      'en.tasting_notes as en_notes',
      'loc.name as loc_name',
      'loc.tasting_notes as loc_notes',
      'loc.origin as loc_origin',
      'loc.region as loc_region',
    ]);
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryQuery>['executeTakeFirstOrThrow']>>;

/** The storage key of each product's first image, in one query (products without images are absent). */
export async function firstImageKeys(db: Executor, productIds: string[]): Promise<Map<string, string>> {
  return new Map([...(await firstImages(db, productIds))].map(([id, image]) => [id, image.path]));
}

/** What each product is taxed as (coffee unless the owner said otherwise), in one query. */
export async function productTaxClasses(db: Executor, productIds: string[]): Promise<Map<string, TaxClass>> {
  if (productIds.length === 0) return new Map();
  const rows = await db.selectFrom('products').select(['id', 'tax_class']).where('id', 'in', [...new Set(productIds)]).execute();
  return new Map(rows.map((r) => [r.id, isTaxClass(r.tax_class) ? r.tax_class : 'coffee']));
}

/** Each product's first picture (key and size), in one query. */
async function firstImages(db: Executor, productIds: string[]): Promise<Map<string, { path: string; width: number | null; height: number | null }>> {
  if (productIds.length === 0) return new Map();
  const images = await db
    .selectFrom('product_images')
    .select(['product_id', 'path', 'width', 'height'])
    .where('product_id', 'in', productIds)
    .where('position', '=', 0)
    .execute();
  return new Map(images.map((image) => [image.product_id, image]));
}

async function toSummaries(
  db: Executor,
  storage: Storage,
  rows: SummaryRow[],
  { stock: withStock = true, currency = 'EUR' }: { stock?: boolean; currency?: Currency } = {},
): Promise<ProductSummary[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [first, variants, stock] = await Promise.all([firstImages(db, ids), variantsOf(db, ids, { currency }), withStock ? stockOf(db, ids) : new Map<string, ProductStock>()]);
  return rows.flatMap((row) => {
    const image = first.get(row.id);
    const summary = toSummary(row, image === undefined ? null : productImage(storage, image.path, image), withLeft(variants.get(row.id) ?? [], stock.get(row.id)), currency);
    return summary ? [summary] : [];
  });
}

/**
 * Each variant with what can be bought of it now (null: not tracked), as far as the pages say it: a count above
 * the "only N left" threshold is LOW_STOCK + 1 (a shop does not show its stock to everyone, and a cached page then
 * changes only when what it says changes).
 */
const withLeft = (variants: Variant[], stock: ProductStock | undefined): Variant[] =>
  variants.map((v) => {
    const left = stock?.variants[v.id] ?? null;
    return { ...v, left: left === null ? null : Math.min(left, LOW_STOCK + 1) };
  });

/** The product as a card shows it; null for one without a variant on sale (the owner switched them all off). */
function toSummary(row: SummaryRow, image: ProductImage | null, variants: Variant[], currency: Currency): ProductSummary | null {
  const byPrice = [...variants].sort((a, b) => a.priceCents - b.priceCents);
  // The card adds the cheapest that can be bought; a coffee sold out shows its cheapest.
  const cheapest = byPrice.find((v) => v.left !== 0) ?? byPrice[0];
  if (!cheapest) return null;
  const notes = splitNotes(row.loc_notes);
  return {
    id: row.id,
    name: row.loc_name || row.en_name || '',
    category: isCategory(row.category) ? row.category : null,
    priceCents: cheapest.priceCents,
    currency,
    priceFrom: new Set(variants.map((v) => v.priceCents)).size > 1,
    netWeightGrams: cheapest.netWeightGrams,
    options: parseOptions(row.options),
    defaultVariant: cheapest,
    soldOut: variants.every((v) => v.left === 0),
    rating: Number(row.rating),
    reviewCount: row.review_count,
    origin: row.loc_origin || row.origin,
    region: row.loc_region || row.region,
    process: processes.find((p) => p === row.process) ?? null,
    roast: roasts.find((r) => r === row.roast) ?? null,
    notes: notes.length > 0 ? notes : splitNotes(row.en_notes),
    image,
  };
}

const splitNotes = (text: string | null) =>
  text
    ? text
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)
    : [];



/** Everything the owner edits about a product: both languages as stored (no fallback) and each picture's key. */
export type ProductRecord = {
  id: string;
  category: Category | null;
  taxClass: TaxClass;
  priceCents: number;
  netWeightGrams: number | null;
  origin: string | null;
  region: string | null;
  process: Process | null;
  roast: Roast | null;
  altitudeMin: number | null;
  altitudeMax: number | null;
  rating: number;
  reviewCount: number;
  options: OptionKind[];
  /** Every variant, on sale or switched off, in the owner's order. */
  variants: Variant[];
  translations: {
    en: { name: string; description: string; notes: string[] };
    pl: { name: string; description: string; notes: string[]; origin: string; region: string } | null;
  };
  images: { key: string; width: number | null; height: number | null; image: ProductImage }[];
  createdAt: string;
  updatedAt: string;
};

export async function getProductRecord(db: Executor, storage: Storage, id: string): Promise<ProductRecord | null> {
  if (!isProductId(id)) return null;
  const product = await db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
  if (!product) return null;
  const [translations, images, variants] = await Promise.all([
    db.selectFrom('product_translations').selectAll().where('product_id', '=', id).execute(),
    db.selectFrom('product_images').select(['path', 'width', 'height']).where('product_id', '=', id).orderBy('position').execute(),
    variantsOf(db, [id], { all: true }),
  ]);
  const text = (locale: string) => {
    const row = translations.find((t) => t.locale === locale);
    return row ? { name: row.name, description: row.description, notes: splitNotes(row.tasting_notes), origin: row.origin ?? '', region: row.region ?? '' } : null;
  };
  return {
    id,
    category: isCategory(product.category) ? product.category : null,
    taxClass: isTaxClass(product.tax_class) ? product.tax_class : 'coffee',
    priceCents: product.price_cents,
    netWeightGrams: product.net_weight_grams,
    origin: product.origin,
    region: product.region,
    process: processes.find((p) => p === product.process) ?? null,
    roast: roasts.find((r) => r === product.roast) ?? null,
    altitudeMin: product.altitude_min,
    altitudeMax: product.altitude_max,
    rating: product.rating,
    reviewCount: product.review_count,
    options: parseOptions(product.options),
    variants: variants.get(id) ?? [],
    translations: { en: text('en') ?? { name: '', description: '', notes: [], origin: '', region: '' }, pl: text('pl') },
    images: images.map((row) => ({ key: row.path, width: row.width, height: row.height, image: productImage(storage, row.path, row) })),
    createdAt: product.created_at,
    updatedAt: product.updated_at,
  };
}

/** A product on the owner's list: its card's data, when it last changed, and how many variants it has (and how many are switched off). */
export type OwnerProductRow = ProductSummary & { updatedAt: string; variantCount: number; offSaleCount: number };

/** The owner's product list: newest first, searchable like the storefront, with the total for paging. */
export async function listOwnerProducts(
  db: Executor,
  storage: Storage,
  { locale, q, limit, offset }: { locale: Locale; q?: string; limit: number; offset: number },
): Promise<{ items: OwnerProductRow[]; total: number }> {
  const terms = searchTerms(q ?? '');
  const [rows, count] = await Promise.all([
    summaryQuery(db, locale)
      .select('products.updated_at')
      .$if(terms.length > 0, (qb) => qb.where(productSearchFilter(db, terms)))
      .orderBy('products.created_at', 'desc')
      .orderBy('products.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('products')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .$if(terms.length > 0, (qb) => qb.where(productSearchFilter(db, terms)))
      .executeTakeFirstOrThrow(),
  ]);
  const [summaries, counts] = await Promise.all([toSummaries(db, storage, rows), variantCounts(db, rows.map((row) => row.id))]);
  const updatedAt = new Map(rows.map((row) => [row.id, row.updated_at]));
  return {
    items: summaries.map((summary) => ({ ...summary, updatedAt: updatedAt.get(summary.id)!, variantCount: counts.get(summary.id)?.all ?? 0, offSaleCount: counts.get(summary.id)?.off ?? 0 })),
    total: Number(count.n),
  };
}

/** How many variants each product has, and how many of them are switched off, in one query. */
async function variantCounts(db: Executor, productIds: string[]): Promise<Map<string, { all: number; off: number }>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('variants')
    .select(['product_id', 'active', (eb) => eb.fn.countAll<number | string | bigint>().as('n')])
    .where('product_id', 'in', productIds)
    .groupBy(['product_id', 'active'])
    .execute();
  const counts = new Map<string, { all: number; off: number }>();
  for (const row of rows) {
    const count = counts.get(row.product_id) ?? { all: 0, off: 0 };
    count.all += Number(row.n);
    if (row.active !== 1) count.off += Number(row.n);
    counts.set(row.product_id, count);
  }
  return counts;
}
