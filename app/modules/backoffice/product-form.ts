/**
 * The owner's product form: its fields, its limits and its checks, shared by the browser (quick feedback) and
 * the server (which checks again, then runs the catalogue's own schema). Messages are i18n keys under
 * `admin.productForm.errors`. Browser-safe: no server imports, no zod.
 */
import { type TaxClass, isTaxClass } from '~/modules/tax/vat';
import { isPlainLine, isPlainText } from '~/lib/plain-text';
import { categories, processes, roasts, type Category, type Process, type Roast } from '~/modules/catalog/catalog.types';
import { MAX_NET_WEIGHT_GRAMS } from '~/modules/catalog/unit-price';
import {
  type Grind,
  type OptionKind,
  type Variant,
  MAX_PACK_COUNT,
  MAX_VARIANTS,
  isGrind,
  optionValue,
  skuPattern,
  variantProblem,
} from '~/modules/catalog/variants';

/** At most this many pictures per product (kept and new together). */
export const MAX_IMAGES = 8;
/** At most this many bytes per uploaded picture. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** Pictures with more pixels than this are refused before they are decoded (decompression bombs). */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** A picture's longer side may be at most this many times its shorter one (a packshot, not a banner). */
export const MAX_IMAGE_RATIO = 10;
/** What the file picker offers; the server decides by the bytes, not by this. */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/avif';
/** The largest price the shop takes, in cents (999,999.99). */
export const MAX_PRICE_CENTS = 99_999_999;

export const productLimits = { name: 120, description: 5000, origin: 80, region: 120, notes: 12, note: 40 } as const;

/**
 * How a product is sold, as the form's `options` field says it: one way (the price, net weight and SKU fields) or
 * by the options in the value, each variant a row of the table (`variants.{key}.{field}`).
 */
export const sellingWays = ['none', 'size', 'grind', 'size,grind', 'pack'] as const;
export type SellingWay = (typeof sellingWays)[number];
export const isSellingWay = (value: unknown): value is SellingWay => sellingWays.includes(value as SellingWay);
export const optionsOf = (way: SellingWay): OptionKind[] => (way === 'none' ? [] : (way.split(',') as OptionKind[]));
export const sellingWayOf = (options: readonly OptionKind[]): SellingWay => (options.length === 0 ? 'none' : (options.join(',') as SellingWay));

/** One row of the variants table as typed. `key` is its number in the field names; `id` names a variant that exists. */
export type VariantRowValues = {
  key: number;
  id: string;
  sku: string;
  /** The size (or net weight) in grams. */
  weight: string;
  grind: string;
  /** Pieces in the pack. */
  pack: string;
  price: string;
  /** The złoty price; empty: proposed from the shop rate when saved. */
  pln: string;
  active: boolean;
  /** Ticked "Remove": the variant is deleted on saving. */
  remove: boolean;
};
export const variantFields = ['sku', 'weight', 'grind', 'pack', 'price', 'pln'] as const;
export type VariantField = (typeof variantFields)[number];
/** A row's field as the form names it: "variants.3.price". */
export const variantFieldName = (key: number, field: VariantField | 'id' | 'active' | 'remove') => `variants.${key}.${field}` as const;
/** Rows keyed beyond this are not read (a form has far fewer). */
const MAX_ROW_KEY = 999;

export type ProductFormValues = {
  name: string;
  /** A product sold one way: its price (and złoty price), net weight in grams and SKU. */
  price: string;
  pricePln: string;
  netWeight: string;
  sku: string;
  /** How it is sold (`sellingWays`; anything else is refused). */
  options: string;
  variants: VariantRowValues[];
  description: string;
  category: string;
  taxClass: string;
  namePl: string;
  descriptionPl: string;
  origin: string;
  region: string;
  originPl: string;
  regionPl: string;
  process: string;
  roast: string;
  altitudeMin: string;
  altitudeMax: string;
  notes: string;
  notesPl: string;
};
type TextField = Exclude<keyof ProductFormValues, 'variants'>;
/** A field that can be wrong: a text field, the pictures, the table as a whole, or one row's field ("variants.3.price"). */
export type ProductFormField = TextField | 'images' | 'variants' | ReturnType<typeof variantFieldName>;
export type ProductFormErrors = Partial<Record<ProductFormField, string>>;

const textFields = ['name', 'price', 'pricePln', 'netWeight', 'sku', 'options', 'description', 'category', 'taxClass', 'namePl', 'descriptionPl', 'origin', 'region', 'originPl', 'regionPl', 'process', 'roast', 'altitudeMin', 'altitudeMax', 'notes', 'notesPl'] as const;

export const emptyProductForm: ProductFormValues = { ...(Object.fromEntries(textFields.map((f) => [f, ''])) as Omit<ProductFormValues, 'variants'>), options: 'none', variants: [] };

type Translation = { name: string; description: string; notes: string[] };

/** A variant as the form gives it to the catalogue. */
export type FormVariant = {
  id?: string;
  sku: string;
  netWeightGrams: number;
  grind: Grind | null;
  packCount: number | null;
  priceCents: number;
  /** null: proposed from the shop rate when saved. */
  pricePln: number | null;
  active: boolean;
};

/** What the catalogue stores, before pictures are added. */
export type ProductFields = {
  category: Category;
  taxClass: TaxClass;
  options: OptionKind[];
  /** For a product sold one way, its one variant (without an id: the server knows which it is). */
  variants: FormVariant[];
  /** Each variant's row key in the form, in order; null for a product sold one way (its fields are price, netWeight, sku). */
  rowKeys: number[] | null;
  origin: string | null;
  region: string | null;
  process: Process | null;
  roast: Roast | null;
  altitudeMin: number | null;
  altitudeMax: number | null;
  translations: { en: Translation; pl: Translation & { origin: string; region: string } };
};

export type ProductFormResult =
  | { ok: true; values: ProductFormValues; fields: ProductFields }
  | { ok: false; values: ProductFormValues; errors: ProductFormErrors };

/**
 * The price as cents: digits with a dot or a comma and at most two decimals ("12", "12.5", "12,50"); spaces
 * between thousands are allowed. null when it is not such a number.
 */
export function parsePrice(text: string): number | null {
  const compact = text.trim().replace(/[\s\u00a0\u202f]/g, '');
  const match = /^(\d{1,6})(?:[.,](\d{1,2}))?$/.exec(compact);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Cents as the form shows them again ("12.50"). */
export const priceText = (cents: number) => (cents / 100).toFixed(2);

const notesOf = (text: string) => text.split(',').map((note) => note.trim()).filter(Boolean);

/** A row with nothing typed in it (the form offers a few for new variants): ignored. */
const isBlankRow = (row: VariantRowValues) => !row.id && [row.sku, row.weight, row.grind, row.pack, row.price, row.pln].every((v) => v.trim() === '');

/**
 * The variants table's rows as typed, in the order of their keys, without blank ones. A value given twice counts
 * once (the first), a malformed id or an id given twice is dropped (that row becomes a new variant).
 */
export function readVariantRows(form: FormData): VariantRowValues[] {
  const rows = new Map<number, VariantRowValues>();
  const seen = new Set<string>();
  for (const [name, value] of form.entries()) {
    const match = /^variants\.(\d{1,3})\.(id|sku|weight|grind|pack|price|pln|active|remove)$/.exec(name);
    if (!match || typeof value !== 'string' || seen.has(name)) continue;
    seen.add(name);
    const key = Number(match[1]);
    if (key > MAX_ROW_KEY) continue;
    const row = rows.get(key) ?? { key, id: '', sku: '', weight: '', grind: '', pack: '', price: '', pln: '', active: false, remove: false };
    const field = match[2] as keyof VariantRowValues;
    if (field === 'active' || field === 'remove') row[field] = true;
    else if (field !== 'key') row[field] = value;
    rows.set(key, row);
  }
  const ids = new Set<string>();
  return [...rows.values()]
    .sort((a, b) => a.key - b.key)
    .map((row) => {
      const id = /^[A-Za-z0-9_-]{1,64}$/.test(row.id) && !ids.has(row.id) ? row.id : '';
      if (id) ids.add(id);
      return { ...row, id };
    })
    .filter((row) => !isBlankRow(row));
}

/** A price that may be left empty: null when empty, undefined when it is not a price the shop takes. */
const optionalPrice = (text: string): number | null | undefined => {
  if (text.trim() === '') return null;
  const cents = parsePrice(text);
  return cents !== null && cents <= MAX_PRICE_CENTS ? cents : undefined;
};

/** Whole grams from 1 to the largest net weight; NaN when it is not such a number. */
const grams = (text: string) => (/^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : NaN);
const validGrams = (value: number) => value >= 1 && value <= MAX_NET_WEIGHT_GRAMS;

/** The field of a row a problem with the variant's values belongs to. */
export function variantProblemField(problem: string, options: readonly OptionKind[]): VariantField {
  const key = problem.replace(/^productForm\.errors\./, '');
  if (key === 'variantSize' || key === 'netWeight' || key === 'netWeightRequired') return 'weight';
  if (key === 'variantGrind' || key === 'groundWholeBean') return 'grind';
  if (key === 'variantPack') return 'pack';
  if (key === 'sku' || key === 'skuTwice' || key === 'skuTaken') return 'sku';
  if (key === 'price' || key === 'priceRequired') return 'price';
  if (key === 'pricePln') return 'pln';
  // Two variants with the same values: the first value that tells them apart.
  return options[0] === 'grind' ? 'grind' : options[0] === 'pack' ? 'pack' : 'weight';
}

/** Reads and checks the variants table for a product sold by `options`: the variants, or the errors per row and field. */
function parseVariantRows(rows: VariantRowValues[], options: OptionKind[], category: string, errors: ProductFormErrors): { variants: FormVariant[]; rowKeys: number[] } {
  const variants: FormVariant[] = [];
  const rowKeys: number[] = [];
  const kept = rows.filter((row) => !row.remove);
  for (const row of kept) {
    const check = (field: VariantField, ok: boolean, message: string) => {
      if (!ok) errors[variantFieldName(row.key, field)] ??= message;
    };
    const sku = row.sku.trim().toUpperCase();
    check('sku', sku === '' || skuPattern.test(sku), 'sku');
    const weight = grams(row.weight);
    check('weight', row.weight.trim() !== '', 'netWeightRequired');
    check('weight', validGrams(weight), 'netWeight');
    const grind = options.includes('grind') ? (isGrind(row.grind) ? row.grind : null) : null;
    check('grind', !options.includes('grind') || grind !== null, 'variantGrind');
    const pack = options.includes('pack') ? (/^\d{1,4}$/.test(row.pack.trim()) ? Number(row.pack.trim()) : NaN) : null;
    check('pack', pack === null || (pack >= 1 && pack <= MAX_PACK_COUNT), 'variantPack');
    check('price', row.price.trim() !== '', 'priceRequired');
    const price = parsePrice(row.price);
    check('price', price !== null && price <= MAX_PRICE_CENTS, 'price');
    const pln = optionalPrice(row.pln);
    check('pln', pln !== undefined, 'price');
    variants.push({
      ...(row.id ? { id: row.id } : {}),
      sku,
      netWeightGrams: weight,
      grind: grind as Grind | null,
      packCount: pack !== null && Number.isNaN(pack) ? null : pack,
      priceCents: price ?? 0,
      pricePln: pln ?? null,
      active: row.active,
    });
    rowKeys.push(row.key);
  }
  if (kept.length === 0) errors.variants ??= 'noVariants';
  else if (kept.length > MAX_VARIANTS) errors.variants ??= 'tooManyVariants';
  else if (!kept.some((row) => row.active)) errors.variants ??= 'noActiveVariant';
  // The catalogue's own rules (values the options need, no two alike, no SKU twice), on rows that are otherwise right.
  const combinations = new Set<string>();
  const skus = new Set<string>();
  variants.forEach((variant, i) => {
    const key = rowKeys[i];
    const field = (name: VariantField) => variantFieldName(key, name);
    if (variantFields.some((name) => errors[field(name)])) return;
    const problem = variantProblem(variant, options, category);
    if (problem) errors[field(variantProblemField(problem, options))] ??= problem.replace(/^productForm\.errors\./, '');
    const combination = options.map((kind) => optionValue(variant, kind)).join('|');
    if (combinations.has(combination)) errors[field(variantProblemField('variantTwice', options))] ??= 'variantTwice';
    combinations.add(combination);
    if (variant.sku && skus.has(variant.sku)) errors[field('sku')] ??= 'skuTwice';
    if (variant.sku) skus.add(variant.sku);
  });
  return { variants, rowKeys };
}

/** Reads and checks the form; the first problem per field (and per row's field). */
export function parseProductForm(form: FormData): ProductFormResult {
  const values: ProductFormValues = { ...emptyProductForm, variants: readVariantRows(form) };
  for (const field of textFields) {
    const value = form.get(field);
    values[field] = typeof value === 'string' ? value : '';
  }
  // A form without the choice (an older page, a script) sells the product one way.
  values.options ||= 'none';
  const errors: ProductFormErrors = {};
  const check = (field: TextField, ok: boolean, message: string) => {
    if (!ok) errors[field] ??= message;
  };
  const t = (field: TextField) => values[field].trim();

  check('name', t('name') !== '', 'nameRequired');
  for (const field of ['name', 'namePl'] as const) {
    check(field, t(field).length <= productLimits.name, 'nameTooLong');
    check(field, isPlainLine(t(field)), 'invalidCharacters');
  }
  for (const field of ['description', 'descriptionPl'] as const) {
    check(field, t(field).length <= productLimits.description, 'descriptionTooLong');
    check(field, isPlainText(t(field)), 'invalidCharacters');
  }
  for (const field of ['origin', 'region', 'originPl', 'regionPl'] as const) {
    check(field, t(field).length <= productLimits[field === 'originPl' ? 'origin' : field === 'regionPl' ? 'region' : field], 'tooLong');
    check(field, isPlainLine(t(field)), 'invalidCharacters');
  }

  const way = isSellingWay(t('options')) ? (t('options') as SellingWay) : null;
  check('options', way !== null, 'options');
  const options = way ? optionsOf(way) : [];
  const category = t('category') || 'wholeBean';
  let sold: { variants: FormVariant[]; rowKeys: number[] | null } = { variants: [], rowKeys: null };
  if (way === 'none') {
    // One way: the price, net weight and SKU fields (the table is not read).
    check('netWeight', t('netWeight') !== '', 'netWeightRequired');
    const netWeightGrams = grams(t('netWeight'));
    check('netWeight', validGrams(netWeightGrams), 'netWeight');
    check('price', t('price') !== '', 'priceRequired');
    const priceCents = parsePrice(values.price);
    check('price', priceCents !== null && priceCents <= MAX_PRICE_CENTS, 'price');
    const pricePln = optionalPrice(values.pricePln);
    check('pricePln', pricePln !== undefined, 'price');
    const sku = t('sku').toUpperCase();
    check('sku', sku === '' || skuPattern.test(sku), 'sku');
    sold = { variants: [{ sku, netWeightGrams, grind: null, packCount: null, priceCents: priceCents ?? 0, pricePln: pricePln ?? null, active: true }], rowKeys: null };
  } else if (way) {
    sold = parseVariantRows(values.variants, options, category, errors);
  }

  check('category', (categories as readonly string[]).includes(category), 'category');
  const taxClass = t('taxClass') || 'coffee';
  check('taxClass', isTaxClass(taxClass), 'choice');
  check('process', t('process') === '' || (processes as readonly string[]).includes(t('process')), 'choice');
  check('roast', t('roast') === '' || (roasts as readonly string[]).includes(t('roast')), 'choice');

  const altitude = (field: 'altitudeMin' | 'altitudeMax') => {
    if (t(field) === '') return null;
    const value = /^\d{1,4}$/.test(t(field)) ? Number(t(field)) : NaN;
    check(field, value >= 0 && value <= 9000, 'altitude');
    return Number.isNaN(value) ? null : value;
  };
  const altitudeMin = altitude('altitudeMin');
  const altitudeMax = altitude('altitudeMax');
  check('altitudeMax', altitudeMin === null || altitudeMax === null || altitudeMin <= altitudeMax, 'altitudeRange');

  for (const field of ['notes', 'notesPl'] as const) {
    const notes = notesOf(values[field]);
    check(field, notes.length <= productLimits.notes, 'tooManyNotes');
    check(field, notes.every((note) => note.length <= productLimits.note), 'noteTooLong');
    check(field, isPlainLine(values[field]), 'invalidCharacters');
  }

  if (Object.keys(errors).length > 0) return { ok: false, values, errors };
  const optional = (field: TextField) => t(field) || null;
  return {
    ok: true,
    values,
    fields: {
      category: category as Category,
      taxClass: taxClass as TaxClass,
      options,
      variants: sold.variants,
      rowKeys: sold.rowKeys,
      origin: optional('origin'),
      region: optional('region'),
      process: optional('process') as Process | null,
      roast: optional('roast') as Roast | null,
      altitudeMin,
      altitudeMax,
      translations: {
        en: { name: t('name'), description: t('description'), notes: notesOf(values.notes) },
        pl: { name: t('namePl'), description: t('descriptionPl'), notes: notesOf(values.notesPl), origin: t('originPl'), region: t('regionPl') },
      },
    },
  };
}

/** The field a problem with a product's `index`-th variant belongs to: a row's field, or the one-way fields. */
export function variantErrorField(fields: Pick<ProductFields, 'rowKeys' | 'options'>, index: number, field: VariantField): ProductFormField {
  const key = fields.rowKeys?.[index];
  if (key !== undefined) return variantFieldName(key, field);
  return field === 'weight' ? 'netWeight' : field === 'sku' ? 'sku' : field === 'pln' ? 'pricePln' : 'price';
}

/** The variant a product shows first (its cheapest on sale): the one a product sold one way is, and the one that stays when a product with options becomes one. */
export function shownVariant<V extends Pick<Variant, 'active' | 'priceCents'>>(variants: readonly V[]): V | undefined {
  return [...variants].sort((a, b) => Number(b.active) - Number(a.active) || a.priceCents - b.priceCents)[0];
}

/** The form's values for an existing product (what the edit page starts from). */
export function productFormValues(product: {
  category: Category | null;
  taxClass: TaxClass;
  origin: string | null;
  region: string | null;
  process: Process | null;
  roast: Roast | null;
  altitudeMin: number | null;
  altitudeMax: number | null;
  options: OptionKind[];
  variants: Variant[];
  translations: { en: Translation; pl: (Translation & { origin: string; region: string }) | null };
}): ProductFormValues {
  const { en, pl } = product.translations;
  // The one-way fields start from the variant the shop shows first: switching to one way keeps it.
  const first = shownVariant(product.variants);
  return {
    name: en.name,
    price: first ? priceText(first.prices.EUR) : '',
    pricePln: first ? priceText(first.prices.PLN) : '',
    netWeight: first?.netWeightGrams == null ? '' : String(first.netWeightGrams),
    sku: first?.sku ?? '',
    options: sellingWayOf(product.options),
    variants: product.variants.map((variant, key) => ({
      key,
      id: variant.id,
      sku: variant.sku,
      weight: variant.netWeightGrams === null ? '' : String(variant.netWeightGrams),
      grind: variant.grind ?? '',
      pack: variant.packCount === null ? '' : String(variant.packCount),
      price: priceText(variant.prices.EUR),
      pln: priceText(variant.prices.PLN),
      active: variant.active,
      remove: false,
    })),
    description: en.description,
    category: product.category ?? 'wholeBean',
    taxClass: product.taxClass,
    namePl: pl?.name ?? '',
    descriptionPl: pl?.description ?? '',
    origin: product.origin ?? '',
    region: product.region ?? '',
    originPl: pl?.origin ?? '',
    regionPl: pl?.region ?? '',
    process: product.process ?? '',
    roast: product.roast ?? '',
    altitudeMin: product.altitudeMin === null ? '' : String(product.altitudeMin),
    altitudeMax: product.altitudeMax === null ? '' : String(product.altitudeMax),
    notes: en.notes.join(', '),
    notesPl: pl?.notes.join(', ') ?? '',
  };
}
