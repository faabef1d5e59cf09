/** Cart constants and view types, free of zod (browser-safe). */
import type { Category } from '~/modules/catalog/catalog.types';
import type { ProductImage } from '~/modules/storage/image';

export const MAX_LINE_QUANTITY = 99;

export type CartLine = {
  productId: string;
  /** '' when the product has no name (the UI shows "Unnamed Product"). */
  name: string;
  category: Category | null;
  image: ProductImage | null;
  /** Today's price: the server decides, never the browser. */
  unitPriceCents: number;
  /** For the price per kilogram beside the price; null when the owner has not set it. */
  netWeightGrams: number | null;
  quantity: number;
  lineTotalCents: number;
};

export type Cart = {
  /** null until the visitor first adds something (or when the cookie named no cart). */
  id: string | null;
  /** In the order they were added. */
  lines: CartLine[];
  totalCents: number;
  /** Sum of quantities. */
  count: number;
  /** Products that were in the cart but no longer exist; their lines have been removed. */
  removedProductIds: string[];
};
