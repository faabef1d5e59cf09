/** The cart's form intents and view types, shared by the server and the UI (browser-safe). */
import { z } from 'zod';

import { MAX_LINE_QUANTITY } from './cart.types';

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
/** One per click (with JavaScript) or per rendered page (without): a re-sent add with it changes nothing. */
const requestKey = z.preprocess((v) => (v === '' ? undefined : v), z.string().regex(/^[A-Za-z0-9_-]{16,64}$/).optional());
/** A form number; '' or a missing field takes `fallback` (no fallback: required). */
const quantity = (min: number, fallback?: number) =>
  z.preprocess(
    (v) => (v === '' || v === null || v === undefined ? fallback : v),
    z.coerce.number().int().min(min).max(MAX_LINE_QUANTITY),
  );

/**
 * What the /cart action accepts, switched on a hidden `intent` field. A line's +/− buttons `set` the number
 * they show, so a re-sent request cannot move the quantity twice:
 *   cartFormSchema.safeParse(Object.fromEntries(await readForm(request)))
 */
export const cartFormSchema = z.discriminatedUnion('intent', [
  // A variant; or a product alone, which adds its cheapest variant (what its card offers).
  z
    .object({ intent: z.literal('add'), variantId: id.optional(), productId: id.optional(), quantity: quantity(1, 1), requestKey })
    .refine((add) => add.variantId !== undefined || add.productId !== undefined),
  z.object({ intent: z.literal('remove'), variantId: id }),
  z.object({ intent: z.literal('set'), variantId: id, quantity: quantity(0) }),
  // A discount code as typed (the server trims it and ignores its case).
  z.object({ intent: z.literal('code'), code: z.string().max(100) }),
  z.object({ intent: z.literal('uncode') }),
]);
export type CartForm = z.infer<typeof cartFormSchema>;

/**
 * What the /cart action answers when it changes nothing (a code's refusal aside): `invalid` (400) for a form it
 * cannot read, with the `field` at fault (a quantity outside 0/1 to 99, a malformed id); `variant_not_found`
 * (404) for a variant that is switched off or unknown; the stock's `sold_out` and `not_enough` (409, `left`).
 */
export type CartRefusal =
  | { ok: false; error: 'invalid'; field: 'quantity' | 'variantId' | 'productId' | null }
  | { ok: false; error: 'variant_not_found' }
  | { ok: false; error: 'sold_out' | 'not_enough'; left: number; variantId?: string };

/**
 * A refusal as the page says it (a message key and its values): beside the button that added (`add`), beside
 * a cart line (`line`), or on the cart page without JavaScript (`page`). Null for an answer that is not one
 * (a success; a code's refusal, which the code form says).
 */
export function refusalMessage(answer: unknown, where: 'add' | 'line' | 'page'): { key: string; vars?: Record<string, number> } | null {
  const refusal = answer as { ok?: unknown; error?: unknown; field?: unknown; left?: unknown } | null | undefined;
  if (!refusal || refusal.ok !== false || refusal.error === 'code') return null;
  const left = typeof refusal.left === 'number' ? refusal.left : 0;
  if (refusal.error === 'sold_out') return { key: 'product.addSoldOut' };
  if (refusal.error === 'not_enough') return where === 'line' ? { key: 'cart.stock.lineNotEnough', vars: { count: left } } : { key: 'product.notEnough', vars: { count: left } };
  if (refusal.error === 'invalid' && refusal.field === 'quantity') return { key: 'product.quantityRefused', vars: { max: MAX_LINE_QUANTITY } };
  if (refusal.error === 'variant_not_found' || (refusal.error === 'invalid' && (refusal.field === 'variantId' || refusal.field === 'productId'))) return { key: 'product.variantGone' };
  return { key: where === 'add' ? 'product.addFailed' : 'cart.updateFailed' };
}

export { MAX_LINE_QUANTITY } from './cart.types';
export type { Cart, CartLine } from './cart.types';
