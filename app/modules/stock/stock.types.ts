/** Stock constants and view types, free of server imports (browser-safe). docs/decisions/0020. */

/** How a product's stock is kept: grams of roast batches, counted units per variant, or not at all. */
export const stockModes = ['batches', 'units', 'untracked'] as const;
export type StockMode = (typeof stockModes)[number];
export const isStockMode = (value: unknown): value is StockMode => stockModes.includes(value as StockMode);

/** At or below this many, a variant says "Only N left". */
export const LOW_STOCK = 5;

/** Why the owner corrects stock by hand. */
export const correctionReasons = ['count', 'damaged', 'sample', 'other'] as const;
export type CorrectionReason = (typeof correctionReasons)[number];

/** The largest batch the shop takes, in grams (a tonne). */
export const MAX_BATCH_GRAMS = 1_000_000;
/** The largest count of units for one variant. */
export const MAX_UNITS = 100_000;

/** What a shopper can buy of a variant now: null when its stock is not tracked. */
export type VariantStock = { left: number | null };

export type StockState = 'inStock' | 'low' | 'soldOut';
export const stockState = (left: number | null): StockState => (left === null ? 'inStock' : left <= 0 ? 'soldOut' : left <= LOW_STOCK ? 'low' : 'inStock');

/** A product's stock as its pages show it: each variant's, and the day the coffee that ships was roasted. */
export type ProductStock = {
  mode: StockMode;
  variants: Record<string, number | null>;
  roastedOn: string | null;
  /** Batches mode: the grams available (a pool every variant draws on); null otherwise. */
  grams: number | null;
  /** Each variant's net weight in grams, as stock keeps it (what a bag draws from the batches). */
  weights: Record<string, number | null>;
};

/**
 * Why an order's coffee is not held while it is paid (docs/decisions/0031): held too long already (`time`), more
 * than one shopper may hold (`amount`), or the shopper's address holds enough in other checkouts (`client`).
 */
export const holdRefusals = ['time', 'amount', 'client'] as const;
export type HoldRefusal = (typeof holdRefusals)[number];
export const isHoldRefusal = (value: unknown): value is HoldRefusal => holdRefusals.includes(value as HoldRefusal);
