/**
 * The owner's product form: its fields, its limits and its checks, shared by the browser (quick feedback) and
 * the server (which checks again, then runs the catalogue's own schema). Messages are i18n keys under
 * `admin.productForm.errors`. Browser-safe: no server imports, no zod.
 */
import { isPlainLine, isPlainText } from '~/lib/plain-text';
import { categories, processes, roasts, type Category, type Process, type Roast } from '~/modules/catalog/catalog.types';
import { MAX_NET_WEIGHT_GRAMS } from '~/modules/catalog/unit-price';

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

export type ProductFormValues = {
  name: string;
  price: string;
  /** Net weight in grams. */
  netWeight: string;
  description: string;
  category: string;
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
export type ProductFormField = keyof ProductFormValues | 'images';
export type ProductFormErrors = Partial<Record<ProductFormField, string>>;

const textFields = ['name', 'price', 'netWeight', 'description', 'category', 'namePl', 'descriptionPl', 'origin', 'region', 'originPl', 'regionPl', 'process', 'roast', 'altitudeMin', 'altitudeMax', 'notes', 'notesPl'] as const;

export const emptyProductForm: ProductFormValues = Object.fromEntries(textFields.map((f) => [f, ''])) as ProductFormValues;

type Translation = { name: string; description: string; notes: string[] };

/** What the catalogue stores, before pictures are added. */
export type ProductFields = {
  category: Category;
  priceCents: number;
  netWeightGrams: number;
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

/** Reads and checks the form's text fields; the first problem per field. */
export function parseProductForm(form: FormData): ProductFormResult {
  const values = { ...emptyProductForm };
  for (const field of textFields) {
    const value = form.get(field);
    values[field] = typeof value === 'string' ? value : '';
  }
  const errors: ProductFormErrors = {};
  const check = (field: keyof ProductFormValues, ok: boolean, message: string) => {
    if (!ok) errors[field] ??= message;
  };
  const t = (field: keyof ProductFormValues) => values[field].trim();

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
  check('netWeight', t('netWeight') !== '', 'netWeightRequired');
  const netWeightGrams = /^\d{1,6}$/.test(t('netWeight')) ? Number(t('netWeight')) : NaN;
  check('netWeight', netWeightGrams >= 1 && netWeightGrams <= MAX_NET_WEIGHT_GRAMS, 'netWeight');
  check('price', t('price') !== '', 'priceRequired');
  const priceCents = parsePrice(values.price);
  check('price', priceCents !== null && priceCents <= MAX_PRICE_CENTS, 'price');

  const category = t('category') || 'wholeBean';
  check('category', (categories as readonly string[]).includes(category), 'category');
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
  const optional = (field: keyof ProductFormValues) => t(field) || null;
  return {
    ok: true,
    values,
    fields: {
      category: category as Category,
      priceCents: priceCents!,
      netWeightGrams,
      origin: optional('origin'),
      region: optional('region'),
      process: (optional('process') as Process | null),
      roast: (optional('roast') as Roast | null),
      altitudeMin,
      altitudeMax,
      translations: {
        en: { name: t('name'), description: t('description'), notes: notesOf(values.notes) },
        pl: { name: t('namePl'), description: t('descriptionPl'), notes: notesOf(values.notesPl), origin: t('originPl'), region: t('regionPl') },
      },
    },
  };
}

/** The form's values for an existing product (what the edit page starts from). */
export function productFormValues(
  product: Omit<ProductFields, 'category' | 'translations' | 'netWeightGrams'> & {
    netWeightGrams: number | null;
    category: Category | null;
    translations: { en: Translation; pl: (Translation & { origin: string; region: string }) | null };
  },
): ProductFormValues {
  const { en, pl } = product.translations;
  return {
    name: en.name,
    price: priceText(product.priceCents),
    netWeight: product.netWeightGrams === null ? '' : String(product.netWeightGrams),
    description: en.description,
    category: product.category ?? 'wholeBean',
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
