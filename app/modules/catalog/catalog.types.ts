/** Catalogue constants and view types, free of zod so any page can import them cheaply (browser-safe). */
import type { ProductImage } from '~/modules/storage/image';
import type { OptionKind, Variant } from './variants';
import type { Currency } from '~/modules/pricing/currencies';

/** The orders a shopper can list the catalogue in (`?sort=`); without one, newest first. */
export const sortOrders = ['newest', 'price-asc', 'price-desc', 'rating'] as const;
export type SortOrder = (typeof sortOrders)[number];

export const categories = ['wholeBean', 'groundCoffee', 'dripCoffeeBags', 'capsulesAndPods'] as const;
export type Category = (typeof categories)[number];
export const isCategory = (value: unknown): value is Category => categories.includes(value as Category);

export const processes = ['washed', 'natural', 'honey', 'wetHulled', 'anaerobic'] as const;
export type Process = (typeof processes)[number];
export const roasts = ['light', 'medium', 'mediumDark', 'dark'] as const;
export type Roast = (typeof roasts)[number];

/** Products per page of the storefront grid (spec §9). */
export const PAGE_SIZE = 12;
/** Deepest page a URL may ask for; deeper pages are what search and the category filter are for. */
export const MAX_PAGE = 50;
export const MAX_QUERY_LENGTH = 100;

export type ProductSummary = {
  id: string;
  /** '' when the product has no name; the UI shows its translated "Unnamed Product". */
  name: string;
  /** null = uncategorized. */
  category: Category | null;
  /** The lowest price of its variants on sale ("from €X" when they differ: `priceFrom`), in the page's currency. */
  priceCents: number;
  /** What its prices are in (the request's currency when it was read). */
  currency: Currency;
  priceFrom: boolean;
  /** The net weight of that cheapest variant, for the price per kilogram; null when not set. */
  netWeightGrams: number | null;
  /** What its variants vary by, and the variant a card's "Add to cart" adds (the cheapest that can be bought). */
  options: OptionKind[];
  defaultVariant: Variant;
  /** No variant can be bought now. */
  soldOut: boolean;
  rating: number;
  reviewCount: number;
  origin: string | null;
  region: string | null;
  process: Process | null;
  roast: Roast | null;
  notes: string[];
  /** The first image, or null for the default coffee picture. */
  image: ProductImage | null;
};

export type ProductDetail = ProductSummary & {
  /** Its variants on sale, in the owner's order, each with what is left of it. */
  variants: Variant[];
  /** The day the coffee that ships next was roasted (a product kept in roast batches); null otherwise. */
  roastedOn: string | null;
  description: string;
  altitudeMin: number | null;
  altitudeMax: number | null;
  images: ProductImage[];
  createdAt: string;
  updatedAt: string;
};
