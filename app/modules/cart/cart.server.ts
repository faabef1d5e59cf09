import { sql } from 'kysely';
import { type Executor, now, inTransaction, monotonicNow } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { choiceQuery, findVariants, getProductsByIds, isProductId, productTaxClasses, variantLabel, variantsOf } from '~/modules/catalog/index.server';
import { type Reprice, repriced } from '~/modules/tax/vat';
import { type Locale, getT } from '~/modules/i18n/index.server';
import type { Storage } from '~/modules/storage/index.server';
import { stockOf, stockShortages } from '~/modules/stock/index.server';
import { lineName } from '~/modules/catalog/variants';
import type { Currency } from '~/modules/pricing/currencies';
import { type Cart, type CartLine, MAX_LINE_QUANTITY } from './cart.schema';
import type { CartCode } from './cart.types';
import { type CodeRefusal, applyCode } from '~/modules/promotions/codes';
import { cartHeldUses, customerUses, findCode } from '~/modules/promotions/index.server';
import { LIMITS, type Limits, forgetAttempt, ipScope, recordAttempt } from '~/modules/limits/index.server';

const emptyCart = (id: string | null, currency: Currency): Cart => ({ id, currency, lines: [], totalCents: 0, count: 0, removedVariantIds: [], stockCapped: [], code: null });

/** An add or a quantity the stock cannot serve: sold out, or only `left` of it (the cart's other lines counted). */
export type StockRefusal = { ok: false; reason: 'sold_out' } | { ok: false; reason: 'not_enough'; left: number };

/**
 * The cart priced from the current catalogue in `currency` (the shopper's: a switch re-prices it). Lines whose variant no longer exists or was switched off (or
 * whose product is gone) are deleted and reported in `removedVariantIds`. An unknown cart reads as empty with id null.
 * With `reprice` (checkout, when prices follow the buyer's VAT under OSS) each unit price is the same net price at
 * the buyer's country's rate, and the totals and any code's discount follow from those.
 */
export async function getCart(db: Executor, storage: Storage, cartId: string | null, locale: Locale, currency: Currency, options: { reprice?: Reprice | null } = {}): Promise<Cart> {
  if (!cartId) return emptyCart(null, currency);
  const rows = await db
    .selectFrom('carts')
    .leftJoin('cart_lines', 'cart_lines.cart_id', 'carts.id')
    .select(['cart_lines.variant_id', 'cart_lines.quantity', 'carts.discount_code'])
    .where('carts.id', '=', cartId)
    .orderBy('cart_lines.added_at')
    .orderBy('cart_lines.variant_id')
    .execute();
  if (rows.length === 0) return emptyCart(null, currency);
  const stored = rows.flatMap((r) =>
    r.variant_id === null || r.quantity === null ? [] : [{ variantId: r.variant_id, quantity: r.quantity }],
  );
  if (stored.length === 0) return emptyCart(cartId, currency);

  const variants = await findVariants(db, stored.map((l) => l.variantId), currency);
  // The cart reads its lines' stock below, for what each line may hold.
  const productIds = [...variants.values()].map((v) => v.productId);
  const [products, taxClasses] = await Promise.all([
    getProductsByIds(db, storage, productIds, locale, { stock: false }),
    options.reprice ? productTaxClasses(db, productIds) : null,
  ]);
  const t = getT(locale);
  const lines: CartLine[] = [];
  const removedVariantIds: string[] = [];
  for (const { variantId, quantity } of stored) {
    const variant = variants.get(variantId);
    const product = variant?.active ? products.get(variant.productId) : undefined;
    if (!variant || !product) {
      removedVariantIds.push(variantId);
      continue;
    }
    const unitPriceCents = repriced(variant.priceCents, taxClasses?.get(product.id) ?? 'coffee', options.reprice);
    lines.push({
      variantId,
      productId: product.id,
      sku: variant.sku,
      name: product.name,
      label: variantLabel(variant, product.options, t, locale),
      choice: choiceQuery(variant, product.options),
      category: product.category,
      image: product.image,
      unitPriceCents,
      ...(variant.reduction ? { reduction: variant.reduction } : {}),
      netWeightGrams: variant.netWeightGrams,
      quantity,
      lineTotalCents: unitPriceCents * quantity,
    });
  }
  // A line whose stock fell below it is capped to what is left (a sold-out one leaves), and the shopper told.
  const short = await stockShortages(db, lines, { cartId });
  const stockCapped: Cart['stockCapped'] = [];
  for (const { variantId, left } of short) {
    const index = lines.findIndex((l) => l.variantId === variantId);
    const line = lines[index];
    stockCapped.push({ variantId, name: lineName(line.name || t('product.unnamed'), line.label), left });
    if (left > 0) lines[index] = { ...line, quantity: left, lineTotalCents: line.unitPriceCents * left };
    else lines.splice(index, 1);
  }
  if (removedVariantIds.length > 0 || stockCapped.length > 0) {
    await inTransaction(db, async (trx) => {
      const gone = [...removedVariantIds, ...stockCapped.filter((c) => c.left === 0).map((c) => c.variantId)];
      if (gone.length > 0) await trx.deleteFrom('cart_lines').where('cart_id', '=', cartId).where('variant_id', 'in', gone).execute();
      for (const capped of stockCapped.filter((c) => c.left > 0)) {
        await trx.updateTable('cart_lines').set({ quantity: capped.left }).where('cart_id', '=', cartId).where('variant_id', '=', capped.variantId).execute();
      }
      await touch(trx, cartId);
    });
  }
  const entered = rows[0].discount_code;
  return {
    id: cartId,
    currency,
    lines,
    totalCents: lines.reduce((sum, l) => sum + l.lineTotalCents, 0),
    count: lines.reduce((sum, l) => sum + l.quantity, 0),
    removedVariantIds,
    stockCapped,
    code: entered && lines.length > 0 ? await codeFor(db, cartId, entered, lines, products, currency) : null,
  };
}

/** The entered code as it applies to these lines now (the customer's own limit is checked when the order is made). */
async function codeFor(db: Executor, cartId: string, entered: string, lines: CartLine[], products: Map<string, { category: string | null }>, currency: Currency, who?: { userId: string | null; email: string }): Promise<CartCode> {
  const found = await findCode(db, entered);
  if (!found) return { code: entered, applies: false, reason: 'unknown' };
  // A use this cart's own pending order holds is this cart's, not another shopper's.
  const mine = found.maxUses !== null || found.maxPerCustomer !== null ? await cartHeldUses(db, found.id, cartId) : 0;
  const rule = { ...found, uses: found.uses - mine };
  const used = who && rule.maxPerCustomer !== null ? { customer: (await customerUses(db, rule.id, who)) - mine } : undefined;
  const result = applyCode(rule, lines.map((l) => ({ variantId: l.variantId, productId: l.productId, category: products.get(l.productId)?.category ?? null, lineTotalCents: l.lineTotalCents, onSale: Boolean(l.reduction) })), currency, new Date(), used);
  if (!result.ok) return { code: rule.code, applies: false, reason: result.reason, ...(result.minimumCents !== undefined ? { minimumCents: result.minimumCents } : {}) };
  const leftOnSale = (result.leftOnSale ?? []).flatMap((id) => {
    const line = lines.find((l) => l.variantId === id);
    return line ? [lineName(line.name, line.label)] : [];
  });
  return { code: rule.code, applies: true, kind: rule.kind, goodsCents: result.goodsCents, lines: result.lines, freeDelivery: result.freeDelivery, advertised: rule.advertised, ...(leftOnSale.length > 0 ? { leftOnSale } : {}) };
}

export type CodeOutcome = { ok: true; code: CartCode & { applies: true } } | { ok: false; reason: CodeRefusal | 'rate_limited' | 'empty'; minimumCents?: number };

/**
 * Enters a code in the cart, if it takes something off it now (a signed-in customer's own uses counted);
 * otherwise nothing changes and the reason is returned. Wrong codes count against the cart and the client address
 * (LIMITS.discountCode), so codes cannot be guessed by trying them.
 */
export async function enterCode(
  db: Executor,
  storage: Storage,
  input: { cartId: string | null; typed: string; locale: Locale; currency: Currency; userId: string | null; email: string | null; ip?: string | null },
  limits: Pick<Limits, 'discountCode'> = LIMITS,
): Promise<CodeOutcome> {
  const cart = await getCart(db, storage, input.cartId, input.locale, input.currency);
  if (!cart.id || cart.lines.length === 0) return { ok: false, reason: 'empty' };
  const rule = limits.discountCode;
  const address = ipScope(input.ip);
  const scopes = [{ key: `cart:${cart.id}`, limit: rule.perCart }, ...(address ? [{ key: address, limit: rule.perAddress }] : [])];
  const attempt = await recordAttempt(db, 'discountCode', scopes, rule.windowMs);
  if (attempt.limited) return { ok: false, reason: 'rate_limited' };
  const products = new Map(cart.lines.map((l) => [l.productId, { category: l.category }]));
  const code = await codeFor(db, cart.id, input.typed, cart.lines, products, input.currency, input.userId && input.email ? { userId: input.userId, email: input.email } : undefined);
  if (!code.applies) return { ok: false, reason: code.reason, ...(code.minimumCents !== undefined ? { minimumCents: code.minimumCents } : {}) };
  // A right code is not a guess.
  await forgetAttempt(db, attempt.ids);
  await db.updateTable('carts').set({ discount_code: code.code, updated_at: now() }).where('id', '=', cart.id).execute();
  return { ok: true, code };
}

/** Takes the code out of the cart. */
export async function removeCode(db: Executor, cartId: string | null): Promise<void> {
  if (cartId) await db.updateTable('carts').set({ discount_code: null, updated_at: now() }).where('id', '=', cartId).where('discount_code', 'is not', null).execute();
}

/**
 * Whether the cart may hold `quantity` of the variant (a function of what its line holds now), its other lines of
 * the same coffee drawing first (they share the grams of its batches). Null when it may.
 */
async function stockRefusal(
  db: Executor,
  cartId: string | null,
  variant: { id: string; productId: string },
  quantityFor: (held: number) => number,
): Promise<StockRefusal | null> {
  const ofProduct = cartId
    ? await db
        .selectFrom('cart_lines')
        .innerJoin('variants', 'variants.id', 'cart_lines.variant_id')
        .select(['cart_lines.variant_id', 'cart_lines.quantity'])
        .where('cart_lines.cart_id', '=', cartId)
        .where('variants.product_id', '=', variant.productId)
        .orderBy('cart_lines.added_at')
        .execute()
    : [];
  const others = ofProduct.filter((line) => line.variant_id !== variant.id);
  const quantity = quantityFor(ofProduct.find((line) => line.variant_id === variant.id)?.quantity ?? 0);
  const lines = [
    ...others.map((o) => ({ productId: variant.productId, variantId: o.variant_id, quantity: o.quantity })),
    { productId: variant.productId, variantId: variant.id, quantity },
  ];
  const mine = (await stockShortages(db, lines, { cartId })).find((s) => s.variantId === variant.id);
  if (!mine) return null;
  return mine.left === 0 ? { ok: false, reason: 'sold_out' } : { ok: false, reason: 'not_enough', left: mine.left };
}

/** Sum of quantities, for the header badge on every page (one indexed query; deleted products count until getCart drops them). */
export async function countCartItems(db: Executor, cartId: string | null): Promise<number> {
  if (!cartId) return 0;
  const row = await db
    .selectFrom('cart_lines')
    .select((eb) => eb.fn.sum<number | null>('quantity').as('count'))
    .where('cart_id', '=', cartId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * Adds `quantity` of a variant (an existing line grows, up to 99). Creates the cart when `cartId` is null
 * or names no cart; the returned `cartId` is the one to keep in the cookie. A variant that does not exist or
 * is switched off is refused.
 *
 * With a `requestKey` (one per click, or per rendered page and product without JavaScript) the add happens
 * once: the key is recorded in the same transaction, and a request carrying a key already applied changes
 * nothing and answers with the cart it went to (so a retry whose first answer was lost still finds the cart).
 * More than the stock leaves is refused (the cart's line stays as it was).
 */
export async function addToCart(
  db: Executor,
  cartId: string | null,
  variantId: string,
  quantity = 1,
  requestKey?: string,
): Promise<{ ok: true; cartId: string; repeated: boolean } | { ok: false; reason: 'variant_not_found' } | StockRefusal> {
  const variant = (await findVariants(db, [variantId])).get(variantId);
  if (!variant?.active) return { ok: false, reason: 'variant_not_found' };
  const amount = clamp(quantity, 1);
  const key = requestKey ? `${requestKey}:${variantId}` : null;
  return inTransaction(db, async (trx) => {
    const existing = cartId ? await trx.selectFrom('carts').select('id').where('id', '=', cartId).executeTakeFirst() : undefined;
    const id = existing?.id ?? newId();
    if (key) {
      // Concurrent requests with one key: the second insert waits for the first to commit, then does nothing.
      const first = await trx
        .insertInto('cart_requests')
        .values({ request_key: key, cart_id: id, created_at: now() })
        .onConflict((oc) => oc.column('request_key').doNothing())
        .returning('cart_id')
        .executeTakeFirst();
      if (!first) {
        const applied = await trx.selectFrom('cart_requests').select('cart_id').where('request_key', '=', key).executeTakeFirstOrThrow();
        return { ok: true as const, cartId: applied.cart_id, repeated: true };
      }
    }
    const refusal = await stockRefusal(trx, existing ? id : null, variant, (held) => Math.min(MAX_LINE_QUANTITY, held + amount));
    if (refusal) {
      // Nothing was added, so a retry with this key is judged afresh.
      if (key) await trx.deleteFrom('cart_requests').where('request_key', '=', key).execute();
      return refusal;
    }
    if (!existing) await createCart(trx, null, id);
    await trx
      .insertInto('cart_lines')
      .values({ cart_id: id, variant_id: variantId, quantity: amount, added_at: monotonicNow() })
      .onConflict((oc) =>
        oc.columns(['cart_id', 'variant_id']).doUpdateSet({ quantity: cappedSum(sql.ref('excluded.quantity')) }),
      )
      .execute();
    if (existing) await touch(trx, id);
    return { ok: true as const, cartId: id, repeated: false };
  });
}

/** The variant a product's card adds: its cheapest on sale not sold out (else its cheapest); null for an unknown product. */
export async function defaultVariantOf(db: Executor, productId: string): Promise<string | null> {
  if (!isProductId(productId)) return null;
  const [variants, stock] = await Promise.all([variantsOf(db, [productId]), stockOf(db, [productId])]);
  const byPrice = [...(variants.get(productId) ?? [])].sort((a, b) => a.priceCents - b.priceCents);
  const left = stock.get(productId)?.variants;
  return (byPrice.find((v) => left?.[v.id] !== 0) ?? byPrice[0])?.id ?? null;
}

/** Forgets applied "Add to cart" keys older than a day (a browser retries within seconds). */
export async function pruneCartRequests(db: Executor, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString();
  const result = await db.deleteFrom('cart_requests').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Sets a line's quantity (capped at 99); 0 removes the line. False when the cart has no such line; a refusal
 * (nothing changed) when the stock does not leave that many.
 */
export async function setLineQuantity(db: Executor, cartId: string, variantId: string, quantity: number): Promise<boolean | StockRefusal> {
  const amount = clamp(quantity, 0);
  if (amount === 0) return removeFromCart(db, cartId, variantId);
  return inTransaction(db, async (trx) => {
    const line = await trx.selectFrom('cart_lines').select('quantity').where('cart_id', '=', cartId).where('variant_id', '=', variantId).executeTakeFirst();
    const variant = line && amount > line.quantity ? (await findVariants(trx, [variantId])).get(variantId) : undefined;
    const refusal = variant ? await stockRefusal(trx, cartId, variant, () => amount) : null;
    if (refusal) return refusal;
    const result = await trx
      .updateTable('cart_lines')
      .set({ quantity: amount })
      .where('cart_id', '=', cartId)
      .where('variant_id', '=', variantId)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await touch(trx, cartId);
    return true;
  });
}

/** Adds `delta` (may be negative) to a line's quantity, capped at 99; a line that reaches 0 is removed. */
export async function changeLineQuantity(db: Executor, cartId: string, variantId: string, delta: number): Promise<boolean> {
  const step = Math.trunc(delta);
  if (!Number.isFinite(step) || step === 0) return false;
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('cart_lines')
      .set({ quantity: cappedSum(sql.lit(step)) })
      .where('cart_id', '=', cartId)
      .where('variant_id', '=', variantId)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await trx
      .deleteFrom('cart_lines')
      .where('cart_id', '=', cartId)
      .where('variant_id', '=', variantId)
      .where('quantity', '<', 1)
      .execute();
    await touch(trx, cartId);
    return true;
  });
}

/** Removes a variant's line. Returns false when the cart had no such line. */
export async function removeFromCart(db: Executor, cartId: string, variantId: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .deleteFrom('cart_lines')
      .where('cart_id', '=', cartId)
      .where('variant_id', '=', variantId)
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) return false;
    await touch(trx, cartId);
    return true;
  });
}

/**
 * At sign-in: gives the guest cart to the user, merging it into the cart they already have (quantities
 * added, capped at 99; nothing dropped). Returns the cart id to keep in the cookie, or null when the
 * user has no cart and the guest cart is unknown. A guest cart that belongs to another user is ignored.
 */
/** A signed-in customer's cart, created on first use. */
export async function ensureUserCart(db: Executor, userId: string): Promise<string> {
  const own = await db.selectFrom('carts').select('id').where('user_id', '=', userId).executeTakeFirst();
  if (own) return own.id;
  try {
    return await createCart(db, userId);
  } catch (error) {
    // Two requests raced to create it: the unique user_id kept one.
    const again = await db.selectFrom('carts').select('id').where('user_id', '=', userId).executeTakeFirst();
    if (again) return again.id;
    throw error;
  }
}

export async function claimCart(db: Executor, guestCartId: string | null, userId: string): Promise<string | null> {
  return inTransaction(db, async (trx) => {
    const own = await trx.selectFrom('carts').select('id').where('user_id', '=', userId).executeTakeFirst();
    const guest = guestCartId
      ? await trx.selectFrom('carts').select(['id', 'user_id']).where('id', '=', guestCartId).executeTakeFirst()
      : undefined;
    // A guest cart already owned (by this user, or by someone else) is not merged.
    if (!guest || guest.user_id !== null) return own?.id ?? null;
    if (!own) {
      await trx.updateTable('carts').set({ user_id: userId, updated_at: now() }).where('id', '=', guest.id).execute();
      return guest.id;
    }
    await trx
      .insertInto('cart_lines')
      .columns(['cart_id', 'variant_id', 'quantity', 'added_at'])
      .expression((eb) =>
        eb
          .selectFrom('cart_lines')
          .select([eb.val(own.id).as('cart_id'), 'variant_id', 'quantity', 'added_at'])
          .where('cart_id', '=', guest.id),
      )
      .onConflict((oc) =>
        oc.columns(['cart_id', 'variant_id']).doUpdateSet({ quantity: cappedSum(sql.ref('excluded.quantity')) }),
      )
      .execute();
    await trx.deleteFrom('cart_lines').where('cart_id', '=', guest.id).execute();
    await trx.deleteFrom('carts').where('id', '=', guest.id).execute();
    await touch(trx, own.id);
    return own.id;
  });
}

// ---------------------------------------------------------------------------------------------------

/** `cart_lines.quantity + amount`, at most 99 (portable: no least()/min() difference between databases). */
function cappedSum(amount: ReturnType<typeof sql.ref> | ReturnType<typeof sql.lit>) {
  const sum = sql<number>`${sql.ref('cart_lines.quantity')} + ${amount}`;
  return sql<number>`case when ${sum} > ${sql.lit(MAX_LINE_QUANTITY)} then ${sql.lit(MAX_LINE_QUANTITY)} else ${sum} end`;
}

const clamp = (quantity: number, min: number) =>
  Number.isFinite(quantity) ? Math.min(MAX_LINE_QUANTITY, Math.max(min, Math.trunc(quantity))) : min;

async function createCart(db: Executor, userId: string | null, id = newId()): Promise<string> {
  const timestamp = now();
  await db.insertInto('carts').values({ id, user_id: userId, created_at: timestamp, updated_at: timestamp }).execute();
  return id;
}

async function touch(db: Executor, cartId: string): Promise<void> {
  await db.updateTable('carts').set({ updated_at: now() }).where('id', '=', cartId).execute();
}


