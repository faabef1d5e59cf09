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

export { MAX_LINE_QUANTITY } from './cart.types';
export type { Cart, CartLine } from './cart.types';
