/** Catalogue types and schemas shared by the server and the UI (browser-safe: no server imports). */
import { TAX_CLASSES } from '~/modules/tax/vat';
import { z } from 'zod';
import { categories, isCategory, processes, roasts, sortOrders, PAGE_SIZE, MAX_PAGE, MAX_QUERY_LENGTH } from './catalog.types';
import type { Category } from './catalog.types';
import { MAX_NET_WEIGHT_GRAMS } from './unit-price';
import { MAX_PACK_COUNT, MAX_VARIANTS, grinds, optionKinds, optionSets, optionValue, skuPattern, variantProblem } from './variants';

export { categories, isCategory, processes, roasts, sortOrders, PAGE_SIZE, MAX_PAGE, MAX_QUERY_LENGTH } from './catalog.types';
export type { Category, Process, Roast, ProductSummary, ProductDetail, SortOrder } from './catalog.types';
export * from './variants';

/**
 * The storefront list's URL search params. Never fails: anything unusable falls back to "not given"
 * (or page 1), so a hand-edited URL still shows a page.
 *   productListQuerySchema.parse(Object.fromEntries(url.searchParams))
 */
export const productListQuerySchema = z.object({
  q: z
    .string()
    .optional()
    .catch(undefined)
    .transform((q) => q?.trim().slice(0, MAX_QUERY_LENGTH).trim() || undefined),
  category: z.enum(categories).optional().catch(undefined),
  /** Newest first when absent (or unknown); "newest" itself is dropped so the default has one URL. */
  sort: z
    .enum(sortOrders)
    .optional()
    .catch(undefined)
    .transform((sort) => (sort === 'newest' ? undefined : sort)),
  page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1).catch(1),
});
export type ProductListQuery = z.infer<typeof productListQuerySchema>;

const note = z
  .string()
  .trim()
  .min(1, 'productForm.errors.noteEmpty')
  .max(40, 'productForm.errors.noteTooLong')
  .refine((n) => !n.includes(','), 'productForm.errors.noteComma');

const translation = {
  description: z.string().trim().max(5000, 'productForm.errors.descriptionTooLong').default(''),
  notes: z.array(note).max(12, 'productForm.errors.tooManyNotes').default([]),
};

/** A storage key base of an uploaded image, e.g. "products/3fa1c2/9b7e" (variants sit beside it). */
const imageKey = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/, 'productForm.errors.image');
const dimension = z.number().int().min(1).max(20_000);
/** A picture: its key, and the size of its largest variant when known (older pictures are 4:5, 1200 × 1500). */
const imageRef = z
  .union([imageKey, z.object({ key: imageKey, width: dimension.nullable().default(null), height: dimension.nullable().default(null) })])
  .transform((image) => (typeof image === 'string' ? { key: image, width: null, height: null } : image));
const altitude = z.number().int().min(0).max(9000).nullable().default(null);
const price = z.number().int('productForm.errors.price').min(0, 'productForm.errors.price').max(99_999_999, 'productForm.errors.price');
const netWeight = z.number().int().min(1).max(MAX_NET_WEIGHT_GRAMS).nullable().default(null);

/** One variant as the owner's form (and the seed) gives it; `id` names a variant that exists already. */
export const variantInputSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
  /** Empty: one is made from the product's name and the variant's values. */
  sku: z
    .string()
    .trim()
    .transform((sku) => sku.toUpperCase())
    .refine((sku) => sku === '' || skuPattern.test(sku), 'productForm.errors.sku')
    .default(''),
  netWeightGrams: netWeight,
  grind: z.enum(grinds).nullable().default(null),
  packCount: z.number().int().min(1).max(MAX_PACK_COUNT).nullable().default(null),
  priceCents: price,
  /** The złoty price in grosze; null: proposed from the owner's rate when saved. */
  pricePln: price.nullable().default(null),
  active: z.boolean().default(true),
});
export type VariantInput = z.input<typeof variantInputSchema>;
export type ParsedVariantInput = z.output<typeof variantInputSchema>;

/** A product as the admin form (and the seed) creates or replaces it. Messages are i18n keys. */
export const productInputSchema = z
  .object({
    category: z.enum(categories).nullable().default('wholeBean'),
    /** What it is taxed as (docs/decisions/0027). */
    taxClass: z.enum(TAX_CLASSES).default('coffee'),
    /** What the variants vary by: none, a size, a grind, both, or a pack (variants.ts). */
    options: z
      .array(z.enum(optionKinds))
      .default([])
      .refine((options) => optionSets.some((set) => set.length === options.length && set.every((kind, i) => kind === options[i])), 'productForm.errors.options'),
    variants: z.array(variantInputSchema).max(MAX_VARIANTS, 'productForm.errors.tooManyVariants').optional(),
    /** A product sold one way may give its price and weight here instead of one variant. */
    priceCents: price.optional(),
    netWeightGrams: netWeight,
    origin: z.string().trim().max(80).nullable().default(null),
    region: z.string().trim().max(120).nullable().default(null),
    process: z.enum(processes).nullable().default(null),
    roast: z.enum(roasts).nullable().default(null),
    altitudeMin: altitude,
    altitudeMax: altitude,
    translations: z.object({
      en: z.object({
        name: z.string().trim().min(1, 'productForm.errors.nameRequired').max(120, 'productForm.errors.nameTooLong'),
        ...translation,
      }),
      /** Optional; every empty field falls back to English (the origin and region to the product's own). */
      pl: z
        .object({
          name: z.string().trim().max(120, 'productForm.errors.nameTooLong').default(''),
          ...translation,
          origin: z.string().trim().max(80).default(''),
          region: z.string().trim().max(120).default(''),
        })
        .optional(),
    }),
    /** Pictures in display order; the first is the card image. */
    images: z.array(imageRef).max(20, 'productForm.errors.tooManyImages').default([]),
  })
  .refine((p) => p.altitudeMin === null || p.altitudeMax === null || p.altitudeMin <= p.altitudeMax, {
    path: ['altitudeMax'],
    message: 'productForm.errors.altitudeRange',
  })
  .refine((p) => p.variants !== undefined || p.priceCents !== undefined, { path: ['priceCents'], message: 'productForm.errors.price' })
  .transform(({ priceCents, netWeightGrams, variants, ...product }) => ({
    ...product,
    variants: variants ?? [variantInputSchema.parse({ netWeightGrams, priceCents })],
  }))
  .superRefine((p, ctx) => {
    const problem = (message: string, path: (string | number)[] = ['variants']) => ctx.addIssue({ code: 'custom', path, message });
    if (p.variants.length === 0) problem('productForm.errors.noVariants');
    if (!p.variants.some((v) => v.active)) problem('productForm.errors.noActiveVariant');
    const combinations = new Set<string>();
    const skus = new Set<string>();
    p.variants.forEach((variant, i) => {
      const wrong = variantProblem(variant, p.options, p.category);
      if (wrong) problem(wrong, ['variants', i]);
      const combination = p.options.map((kind) => optionValue(variant, kind)).join('|');
      if (combinations.has(combination)) problem('productForm.errors.variantTwice', ['variants', i]);
      combinations.add(combination);
      if (variant.sku && skus.has(variant.sku)) problem('productForm.errors.skuTwice', ['variants', i]);
      if (variant.sku) skus.add(variant.sku);
    });
  });
/** What callers pass (defaults optional). */
export type ProductInput = z.input<typeof productInputSchema>;
/** After parsing: every default filled in. */
export type ParsedProductInput = z.output<typeof productInputSchema>;
