/** Cart constants and view types, free of zod (browser-safe). */
import type { Category } from '~/modules/catalog/catalog.types';
import type { ProductImage } from '~/modules/storage/image';
import type { Currency } from '~/modules/pricing/currencies';

export const MAX_LINE_QUANTITY = 99;
import type { Reduction } from '~/modules/promotions/reductions';
import type { CodeKind, CodeRefusal } from '~/modules/promotions/codes';

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
  /** The discount code the shopper entered, as it applies to the cart now; null without one. */
  code: CartCode | null;
};

/**
 * A code entered in the cart: what it takes off the goods (`goodsCents`, spread over the lines it applies to:
 * variant id → cents) or whether it makes the delivery free — or, when it no longer applies (a line removed, its
 * end passed), why not. `totalCents` stays the goods' price; the goods cost `totalCents - goodsCents`.
 */
export type CartCode =
  | {
      code: string;
      applies: true;
      kind: CodeKind;
      goodsCents: number;
      lines: Record<string, number>;
      freeDelivery: boolean;
      advertised: boolean;
      /** The cart's coffees the code leaves out, being on sale already ("Gayo — 250 g"): said beside the discount. */
      leftOnSale?: string[];
    }
  | { code: string; applies: false; reason: CodeRefusal; minimumCents?: number };

/** What the cart's goods cost after its code. */
export const goodsToPay = (cart: Pick<Cart, 'totalCents' | 'code'>): number => cart.totalCents - (cart.code?.applies ? cart.code.goodsCents : 0);

/** The goods' net weight: each line's variant weight times its quantity (a variant without a weight adds none). */
export const cartWeightGrams = (cart: Pick<Cart, 'lines'>): number => cart.lines.reduce((sum, line) => sum + (line.netWeightGrams ?? 0) * line.quantity, 0);
