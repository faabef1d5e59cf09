/**
 * The cart's refusals and how the page says them, apart from the form's schema: the storefront's browser code
 * reads them on every page (the add button, the cart line), and must not carry zod for it.
 */
import { MAX_LINE_QUANTITY } from './cart.types';

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
