/** Cart constants and view types, free of zod (browser-safe). */
import type { Category } from '~/modules/catalog/catalog.types';
import type { ProductImage } from '~/modules/storage/image';
import type { Currency } from '~/modules/pricing/currencies';

export const MAX_LINE_QUANTITY = 99;
import type { Reduction } from '~/modules/promotions/reductions';

export type CartLine = {
  /** What the line holds: a variant of a product. */
  variantId: string;
  productId: string;
  sku: string;
  /** '' when the product has no name (the UI shows "Unnamed Product"). */
  name: string;
  /** The variant as a shopper reads it ("1 kg, espresso"); '' for a product sold one way. */
  label: string;
  /** The variant's choice on its product page ("size=1000&grind=espresso"); '' for a product sold one way. */
  choice: string;
  category: Category | null;
  image: ProductImage | null;
  /** Today's price (a running sale's): the server decides, never the browser. */
  unitPriceCents: number;
  /** The sale reducing it, with its regular price and 30-day lowest price; absent when not reduced. */
  reduction?: Reduction;
  /** For the price per kilogram beside the price; null when the owner has not set it. */
  netWeightGrams: number | null;
  quantity: number;
  lineTotalCents: number;
};

export type Cart = {
  /** null until the visitor first adds something (or when the cookie named no cart). */
  id: string | null;
  /** What its prices are in: the shopper's currency (one per cart; switching re-prices it). */
  currency: Currency;
  /** In the order they were added. */
  lines: CartLine[];
  totalCents: number;
  /** Sum of quantities. */
  count: number;
  /** Variants that were in the cart but are no longer sold; their lines have been removed. */
  removedVariantIds: string[];
  /** Lines the stock no longer covered: capped to what is left (`left` 0: sold out, the line removed). */
  stockCapped: { variantId: string; name: string; left: number }[];
};

/** The goods' net weight: each line's variant weight times its quantity (a variant without a weight adds none). */
export const cartWeightGrams = (cart: Pick<Cart, 'lines'>): number => cart.lines.reduce((sum, line) => sum + (line.netWeightGrams ?? 0) * line.quantity, 0);
