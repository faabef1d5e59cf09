/**
 * What a shopper buys: a variant of a product. A roaster's options are few and known — a size (the net weight:
 * 250 g, 1 kg), a grind (whole bean, espresso …) and a pack (10 drip bags, 50 capsules) — so a product names up
 * to two of them and every variant carries their values; labels come from the catalogues in both languages.
 * Browser-safe (no server imports).
 */
import type { T } from '~/modules/i18n/translate';
import type { Locale } from '~/modules/i18n/translate';
import { formatWeight } from './unit-price';
import type { Prices } from '~/modules/pricing/currencies';
import type { CodeOffer, Reduction } from '~/modules/promotions/reductions';

export const optionKinds = ['size', 'grind', 'pack'] as const;
export type OptionKind = (typeof optionKinds)[number];
export const isOptionKind = (value: unknown): value is OptionKind => optionKinds.includes(value as OptionKind);

/** Grinds in the order a shopper reads them: beans first, then from fine to coarse. */
export const grinds = ['wholeBean', 'espresso', 'mokaPot', 'aeropress', 'filter', 'frenchPress'] as const;
export type Grind = (typeof grinds)[number];
export const isGrind = (value: unknown): value is Grind => grinds.includes(value as Grind);

/** The options a product may be sold by: none (one way), a size, a size and a grind, or a pack. */
export const optionSets = [[], ['size'], ['grind'], ['size', 'grind'], ['pack']] as const satisfies ReadonlyArray<readonly OptionKind[]>;

/** A variant as the storefront and the cart see it. */
export type Variant = {
  id: string;
  sku: string;
  /** Net weight in grams (the size, and what the price per kilogram is worked out from); null when not set. */
  netWeightGrams: number | null;
  grind: Grind | null;
  /** How many pieces (drip bags, capsules) a pack holds; null when not sold by the pack. */
  packCount: number | null;
  /** The price in the currency it was read in (the page's: a running sale's price on the shop's pages), and its regular price in each currency. */
  priceCents: number;
  prices: Prices;
  /** The sale it is reduced by on the shop's pages, with its Omnibus reference; absent when not reduced. */
  reduction?: Reduction;
  /** On its product page: a code advertised for it, with its Omnibus reference; absent without one. */
  codeOffer?: CodeOffer;
  active: boolean;
  /** On the shop's pages: how many can be bought now (bags or units); null when its stock is not tracked. */
  left?: number | null;
};

export type VariantValues = Pick<Variant, 'netWeightGrams' | 'grind' | 'packCount'>;

/** A SKU: letters, digits, dots, hyphens and underscores, up to 40 (stored upper-case). */
export const skuPattern = /^[A-Z0-9][A-Z0-9._-]{0,39}$/;
export const MAX_VARIANTS = 60;
export const MAX_PACK_COUNT = 1000;

/**
 * Which values a variant must (and must not) have for the product's options and category (ground coffee has no
 * whole bean); the first problem's key, or null.
 */
export function variantProblem(variant: VariantValues, options: readonly OptionKind[], category?: string | null): string | null {
  if (options.includes('size') && variant.netWeightGrams === null) return 'productForm.errors.variantSize';
  if (options.includes('grind') !== (variant.grind !== null)) return 'productForm.errors.variantGrind';
  if (category === 'groundCoffee' && variant.grind === 'wholeBean') return 'productForm.errors.groundWholeBean';
  if (options.includes('pack') !== (variant.packCount !== null)) return 'productForm.errors.variantPack';
  return null;
}

/** A variant's value for one option, as the URL and the form say it ("1000", "espresso", "30"); '' when unset. */
export function optionValue(variant: VariantValues, kind: OptionKind): string {
  if (kind === 'size') return variant.netWeightGrams === null ? '' : String(variant.netWeightGrams);
  if (kind === 'grind') return variant.grind ?? '';
  return variant.packCount === null ? '' : String(variant.packCount);
}

/** One option value as a shopper reads it: "1 kg", "espresso" / "do ekspresu", "30 pcs" / "30 szt.". */
export function optionValueLabel(kind: OptionKind, value: string, t: T, locale: Locale): string {
  if (kind === 'size') return formatWeight(Number(value), locale);
  if (kind === 'grind') return t(`grind.${value}`);
  return t('variant.pieces', { count: Number(value) });
}

/** The name of an option: "Size", "Grind", "Pack" (and in Polish). */
export const optionLabel = (kind: OptionKind, t: T): string => t(`variant.option.${kind}`);

/** "1 kg, espresso", "30 pcs"; '' for a product sold one way. */
export function variantLabel(variant: VariantValues, options: readonly OptionKind[], t: T, locale: Locale): string {
  return options
    .map((kind) => optionValue(variant, kind))
    .map((value, i) => (value ? optionValueLabel(options[i], value, t, locale) : ''))
    .filter(Boolean)
    .join(', ');
}

/** The product's name with the variant's label: "Java Frinsa — 1 kg, espresso" (just the name without a label). */
export const lineName = (name: string, label: string): string => (label ? `${name} — ${label}` : name);

/** The values each option takes among `variants`, in the order a shopper reads them (sizes small to large). */
export function optionValues(variants: readonly VariantValues[], kind: OptionKind): string[] {
  const values = [...new Set(variants.map((v) => optionValue(v, kind)).filter(Boolean))];
  if (kind === 'grind') return grinds.filter((g) => values.includes(g));
  return values.sort((a, b) => Number(a) - Number(b));
}

/** A variant's choice as its product page's URL says it: "size=1000&grind=espresso" ('' when there is nothing to choose). */
export const choiceQuery = (variant: VariantValues, options: readonly OptionKind[]): string =>
  new URLSearchParams(options.map((kind) => [kind, optionValue(variant, kind)])).toString();

/** The variant with exactly these option values, if the product offers it. */
export function findVariant<V extends VariantValues>(variants: readonly V[], options: readonly OptionKind[], chosen: Partial<Record<OptionKind, string>>): V | undefined {
  return variants.find((v) => options.every((kind) => optionValue(v, kind) === chosen[kind]));
}

/**
 * The kind of coffee a choice is, as its line and its page name it: a coffee sold whole and ground to order is
 * "Ground coffee" once a grind is chosen and "Whole bean" when whole beans are, so the category never contradicts
 * the grind ("250 g, filter" is not whole bean). Anything else keeps its product's category.
 */
export function categoryOfChoice<C extends string>(category: C | null, grind: string | null | undefined): C | 'wholeBean' | 'groundCoffee' | null {
  if ((category !== 'wholeBean' && category !== 'groundCoffee') || !grind) return category;
  return grind === 'wholeBean' ? 'wholeBean' : 'groundCoffee';
}
