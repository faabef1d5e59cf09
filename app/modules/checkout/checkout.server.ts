import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { type Executor, inTransaction, now } from '~/db/database.server';
import { getCheckoutDetails, saveCheckoutDetails } from '~/modules/accounts/index.server';
import { nullStorage } from '~/modules/storage/null-storage';
import { type Cart, changeLineQuantity, getCart } from '~/modules/cart/index.server';
import { claimCode, findCode, markCodeUsed, releaseCodeUses, renewCodeUse } from '~/modules/promotions/index.server';
import { findVariants, firstImageKeys, productTaxClasses } from '~/modules/catalog/index.server';
import { orderTaxRates, repriced } from '~/modules/tax/index.server';
import type { Locale } from '~/modules/i18n/index.server';
import { queueMails } from '~/modules/mail/index.server';
import {
  attachPayment,
  findOrCreatePendingOrder,
  findOrderByPayment,
  findOrderRecord,
  getOrderRecordLines,
  orderConfirmationMail,
  orderLabel,
  type OrderRecord,
  type OrderRecordLine,
  setOrderPaid,
  markReplaced,
  shopOrderNotificationMail,
  type NewOrderLine,
} from '~/modules/orders/index.server';
import { recordEvent } from '~/modules/analytics/index.server';
import { analyticsAllowed } from '~/modules/privacy/index.server';
import { recordActivity } from '~/modules/activity/index.server';
import { lineName } from '~/modules/catalog/variants';
import { type RefundEventOutcome, recordRefundEvent, refundUnservedOrders } from '~/modules/fulfilment/index.server';
import type { CardDetails, CardErrorCode, PaymentEvent, PaymentFailure, PaymentProvider } from '~/modules/payments/index.server';
import { type PaymentMethodKind, methodsFor } from '~/modules/payments/methods';
import type { Storage } from '~/modules/storage/index.server';
import { type HoldRefusal, RESERVATION_MINUTES, type Shortage, type StockLine, holdsCover, releaseCartHolds, releaseStock, reserveStock, takeStock } from '~/modules/stock/index.server';
import { bumpStoredCatalogVersion } from '~/modules/catalog/index.server';
import { type LockerDirectory, getDeliveryTable, inCurrency, lockerSnapshot, zoneOf } from '~/modules/delivery/index.server';
import { type Currency, priceOrder } from '~/modules/pricing/index.server';
import { type OrderDelivery, linePaidCents } from '~/modules/orders/index.server';
import { type ShippingAddress, isAddressComplete, nameOnlySchema, shippingAddressSchema } from './checkout.schema';
import { type ExchangeRates, type InvoiceBuyer, type Seller, issueInvoice, sellerOf } from '~/modules/invoices/index.server';

/** Where the shop's copy of each paid order goes, the shop's address for links in the mail, and the seller on invoices. */
export type OrderMailSettings = { contactTo: string; publicUrl?: string; seller?: Seller | null };

// --- step 1: review -----------------------------------------------------------------------------

export type CheckoutReview = {
  cart: Cart;
  address: ShippingAddress;
  addressComplete: boolean;
  /** The phone and country the customer gave last time ('' when never). */
  phone: string;
  country: string;
  /** Variants that were in the cart but are no longer sold; their lines were dropped. */
  removedVariantIds: string[];
};

/** The cart at today's prices (in the shopper's currency) and the shipping address from the profile. */
export async function reviewCheckout(
  db: Executor,
  storage: Storage,
  { userId, cartId, locale, currency }: { userId: string | null; cartId: string | null; locale: Locale; currency: Currency },
): Promise<CheckoutReview> {
  const [cart, { address, phone, country }] = await Promise.all([getCart(db, storage, cartId, locale, currency), userId ? getCheckoutDetails(db, userId) : guestDetails]);
  return { cart, address, addressComplete: isAddressComplete(address), phone, country, removedVariantIds: cart.removedVariantIds };
}

const buyer = (input: { userId: string | null; cartId?: string | null }): Buyer => (input.userId ? { userId: input.userId } : { userId: null, cartId: input.cartId ?? null });

/** A guest has nothing to pre-fill. */
const guestDetails = { address: { fullName: '', address: '', city: '', zipCode: '' }, phone: '', country: '' };

/** Who checks out: a signed-in customer, or (when the owner accepts guests) a guest, known by their cart. */
export type Buyer = { userId: string } | { userId: null; cartId: string | null };

/** Whether the order is this buyer's: a customer's by account, a guest's by the cart it was made from. */
export const isBuyerOf = (order: { userId: string | null; cartId: string | null }, buyer: Buyer): boolean =>
  buyer.userId !== null ? order.userId === buyer.userId : order.userId === null && buyer.cartId !== null && order.cartId === buyer.cartId;

// --- step 2: start the payment ------------------------------------------------------------------

export type StartPaymentResult =
  | {
      ok: true;
      orderId: string;
      paymentId: string;
      clientSecret: string;
      amountCents: number;
      publishableKey?: string;
      /** Variants dropped from the cart because they are no longer sold. */
      removedVariantIds: string[];
      /** True when `expectedTotalCents` was given and today's prices make a different total (today's wins). */
      pricesChanged: boolean;
    }
  | { ok: false; reason: 'empty_cart' | 'address_incomplete' | 'unavailable' }
  /** The shop does not deliver there, or not this way for this parcel (too heavy, switched off, not for this country). */
  | { ok: false; reason: 'country_not_served' | 'method_unavailable' }
  /** A locker InPost does not know (or not any more), or InPost could not be asked. */
  | { ok: false; reason: 'locker_unknown' | 'lockers_unavailable' }
  /** Some of the cart cannot be had any more (nothing was reserved, no order made): how many of each are left. */
  | { ok: false; reason: 'out_of_stock'; short: Shortage[] }
  /** The cart's code has no use left for this customer or at all: nothing was made; the cart says why. */
  | { ok: false; reason: 'code_refused'; code: string; why: 'usedUp' | 'customerLimit' | 'other' };

/** Thrown inside the payment's transaction to undo it when the stock is not there. */
/** The cart's code cannot be used for this order after all (its last use went to someone else, this customer's are used, or it stopped applying). */
class CodeRefused extends Error {
  constructor(
    readonly code: string,
    readonly reason: 'usedUp' | 'customerLimit' | 'other',
  ) {
    super('code refused');
  }
}

class OutOfStock extends Error {
  constructor(readonly short: Shortage[]) {
    super('out of stock');
  }
}

/**
 * Creates (or reuses) the pending order for exactly this cart, priced now on the server, and its payment.
 * The order's coffee is reserved for it (the cart's other pending orders let theirs go); when some of it cannot
 * be had nothing is done and the shortages are returned. The address is saved back to the profile. Two concurrent calls for the same cart get one order and one
 * payment: the partial unique index keeps one pending order per cart fingerprint, and the payment is created
 * with an idempotency key derived from the order id.
 */
export async function startPayment(
  db: Executor,
  provider: PaymentProvider,
  input: {
    /** The customer's account; null for a guest (the owner accepts them), whose order is known by its cart and email. */
    userId: string | null;
    email: string;
    locale: Locale;
    /** What the order is priced and paid in: the shopper's currency. */
    currency: Currency;
    cartId: string | null;
    address: ShippingAddress;
    /** How it goes: the country, the method chosen among those offered, the phone, and the locker for a locker. */
    delivery: DeliveryRequest;
    /** Where lockers are looked up (needed for a locker). */
    lockers?: LockerDirectory;
    /** The total the customer saw, to report a price change (the server's amount is charged regardless). */
    expectedTotalCents?: number;
    /** The analytics visitor id of a shopper who consented (the purchase is recorded with it when paid). */
    visitorId?: string | null;
    /** How long the stock is held for the payment. */
    reservationMinutes?: number;
    /** The client's address as the limits count it (`ip:…`): what one address holds is bounded. */
    client?: string | null;
    /** The buyer's details when they asked for an invoice: issued when the order is paid. */
    invoiceBuyer?: InvoiceBuyer | null;
    log?: Logger;
  },
): Promise<StartPaymentResult> {
  const table = inCurrency(await getDeliveryTable(db), input.currency);
  const zone = zoneOf(table, input.delivery.country);
  if (!zone) return { ok: false, reason: 'country_not_served' };
  const method = zone.methods.find((m) => m.id === input.delivery.methodId);
  if (!method) return { ok: false, reason: 'method_unavailable' };
  // A courier needs the whole address; a locker and a pickup only the name (an address given with them is kept whole or not at all).
  const parsed = (method.kind === 'courier' ? shippingAddressSchema : nameOnlySchema).safeParse(input.address);
  if (!parsed.success) return { ok: false, reason: 'address_incomplete' };
  const whole = method.kind === 'courier' || isAddressComplete(input.address);
  const address = whole ? { ...input.address, ...parsed.data } : { fullName: parsed.data.fullName, address: '', city: '', zipCode: '' };
  let point: { code: string | null; address: string | null } = { code: null, address: null };
  if (method.kind === 'locker') {
    const locker = input.lockers && input.delivery.lockerCode ? await input.lockers.find(input.delivery.lockerCode) : null;
    if (locker === undefined) return { ok: false, reason: 'lockers_unavailable' };
    if (!locker) return { ok: false, reason: 'locker_unknown' };
    point = { code: locker.code, address: lockerSnapshot(locker) };
  } else if (method.kind === 'pickup') {
    point = { code: null, address: [method.pickupAddress, input.locale === 'pl' ? method.pickupHours.pl : method.pickupHours.en].filter(Boolean).join(' · ') };
  }

  // Whose VAT the order pays, known from where it goes; under OSS the owner may have prices follow that VAT. Read
  // from the settings every node keeps until they change (a change moves the catalogue version), not per order. On
  // another node than the owner's the old settings may price an order for up to one watch tick (half a second) after
  // a change: that order is consistent in itself (lines, VAT and charge from the same settings) and records them.
  const taxed = await orderTaxRates(db, { country: input.delivery.country, kind: method.kind });
  const prepared = await inTransaction(db, async (trx) => {
    const cart = await getCart(trx, noImages, input.cartId, input.locale, input.currency, { reprice: taxed.reprice });
    // The cart's code stopped applying since the review (its last use went, its end passed): the shopper is told
    // before any order is made at another price than the one they saw.
    if (cart.code && !cart.code.applies) throw new CodeRefused(cart.code.code, cart.code.reason === 'customerLimit' ? 'customerLimit' : cart.code.reason === 'usedUp' ? 'usedUp' : 'other');
    // The stock fell below the cart since the shopper saw it: they see it capped before paying.
    if (cart.stockCapped.length > 0) throw new OutOfStock(cart.stockCapped.map(({ variantId, left }) => ({ variantId, left })));
    if (cart.lines.length === 0) return null;
    const productIds = cart.lines.map((l) => l.productId);
    const [images, taxClasses] = await Promise.all([firstImageKeys(trx, productIds), productTaxClasses(trx, productIds)]);
    // Priced by the one function the renewals will use too: lines and their code's shares, the delivery, VAT.
    const priced = priceOrder(table, {
      lines: cart.lines.map((l) => ({
        productId: l.productId,
        variantId: l.variantId,
        sku: l.sku,
        title: l.name,
        label: l.label,
        netWeightGrams: l.netWeightGrams,
        unitPriceCents: l.unitPriceCents,
        quantity: l.quantity,
        saleId: l.reduction?.saleId ?? null,
        discountCents: cart.code?.applies ? (cart.code.lines[l.variantId] ?? 0) : 0,
        image: images.get(l.productId) ?? null,
        // Each line's VAT at its product's rate in the country whose VAT the order pays; the delivery follows its goods.
        rateBp: taxed.rates[taxClasses.get(l.productId) ?? 'coffee'],
      })),
      goodsCents: cart.totalCents,
      code: cart.code?.applies ? { code: cart.code.code, goodsCents: cart.code.goodsCents, freeDelivery: cart.code.freeDelivery } : null,
      delivery: { country: input.delivery.country, methodId: input.delivery.methodId, kind: method.kind, phone: input.delivery.phone ?? '', point },
    });
    if (!priced) return 'method_unavailable' as const;
    const { lines, delivery, discount } = priced;
    if (input.userId && input.delivery.saveToProfile !== false) {
      // A locker's or a pickup's empty address never wipes the one the profile has.
      await saveCheckoutDetails(trx, input.userId, { address: method.kind !== 'pickup' && whole ? address : null, phone: input.delivery.phone ?? '', country: input.delivery.country });
    }
    const { order, created } = await findOrCreatePendingOrder(trx, {
      userId: input.userId,
      email: input.email,
      locale: input.locale,
      cartId: cart.id,
      provider: provider.name,
      fingerprint: cartFingerprint(lines, cart.currency, cart.totalCents, delivery, discount, { country: taxed.country, rates: lines.map((l) => l.vat.rateBp), pricesFollowRate: taxed.reprice !== null }),
      goodsCents: cart.totalCents,
      discount,
      currency: cart.currency,
      visitorId: input.visitorId ?? null,
      address,
      delivery,
      lines,
      tax: { country: taxed.country, delivery: priced.deliveryVat, pricesFollowRate: taxed.reprice !== null },
      invoiceBuyer: input.invoiceBuyer ?? null,
    });
    // The cart's other pending orders (replaced by this one) give their codes' uses back first: a one-use code
    // this cart held is this order's now. Then the code's use is claimed for this order (kept by a reused one);
    // with none left, nothing is made.
    const replaced = await trx.selectFrom('orders').select('id').where('cart_id', '=', cart.id!).where('payment_status', '=', 'pending').where('id', '<>', order.id).execute();
    await releaseCodeUses(trx, replaced.map((o) => o.id));
    if (discount) {
      const rule = await findCode(trx, discount.code);
      const claimed = rule ? await claimCode(trx, rule, { orderId: order.id, userId: input.userId, email: input.email, expiresAt: new Date(Date.now() + (input.reservationMinutes ?? RESERVATION_MINUTES) * 60_000) }) : 'usedUp';
      if (claimed !== 'ok') throw new CodeRefused(discount.code, claimed);
    }
    const released = await releaseCartHolds(trx, cart.id!, order.id);
    // The replaced orders can no longer be paid: their payments are cancelled at the provider after this commits.
    const cancelled = await markReplaced(trx, replaced.map((o) => o.id));
    // A reused order holds by the weights it was made with (stock reads them from it); a new one's are these.
    const toHold = stockLines(lines).map((line) => (created ? line : { ...line, netWeightGrams: undefined }));
    const holder = { cart: cart.id, user: input.userId, client: input.client ?? null };
    const reserved = await reserveStock(trx, order.id, toHold, { minutes: input.reservationMinutes ?? RESERVATION_MINUTES, fresh: created, holder });
    if (!reserved.ok) throw new OutOfStock(reserved.short);
    await noteHold(trx, order, reserved.refused);
    if (released || reserved.shownChanged) await bumpStoredCatalogVersion(trx);
    return { order, removedVariantIds: cart.removedVariantIds, cancelled };
  }).catch((error: unknown) => {
    if (error instanceof OutOfStock || error instanceof CodeRefused) return error;
    throw error;
  });
  if (prepared instanceof OutOfStock) return { ok: false, reason: 'out_of_stock', short: prepared.short };
  if (prepared instanceof CodeRefused) {
    // The code is taken out of the cart, so the next review shows (and the next attempt charges) the price without it.
    if (input.cartId) await db.updateTable('carts').set({ discount_code: null }).where('id', '=', input.cartId).execute();
    return { ok: false, reason: 'code_refused', code: prepared.code, why: prepared.reason };
  }
  if (!prepared) return { ok: false, reason: 'empty_cart' };
  if (prepared === 'method_unavailable') return { ok: false, reason: prepared };
  const { order, removedVariantIds } = prepared;
  await cancelReplacedPayments(db, provider, prepared.cancelled, input.log);

  let payment = order.paymentId && order.clientSecret ? { paymentId: order.paymentId, clientSecret: order.clientSecret } : null;
  if (!payment) {
    try {
      const created = await provider.createPayment({
        orderId: order.id,
        amountCents: order.totalCents,
        currency: order.currency,
        customerEmail: input.email,
        idempotencyKey: `kopi-order-${order.id}`,
        metadata: { order_id: order.id, customer_id: input.userId ?? 'guest', customer_email: input.email },
      });
      payment = await attachPayment(db, order.id, created);
    } catch (error) {
      input.log?.error({ err: error, orderId: order.id }, 'payment could not be created');
      return { ok: false, reason: 'unavailable' };
    }
    if (!payment) return { ok: false, reason: 'unavailable' };
  }
  return {
    ok: true,
    orderId: order.id,
    paymentId: payment.paymentId,
    clientSecret: payment.clientSecret,
    amountCents: order.totalCents,
    publishableKey: provider.publishableKey,
    removedVariantIds,
    pricesChanged: input.expectedTotalCents !== undefined && input.expectedTotalCents !== order.totalCents,
  };
}

// --- settling a payment ------------------------------------------------------------------------------

/** What paying needs besides the database: the provider, the shop's mail settings and the mail worker. */
export type PaymentServices = OrderMailSettings & {
  db: Executor;
  payments: PaymentProvider;
  /** Wakes the mail worker; called after a commit that queued mails. */
  kickMail: () => void;
  /** How long the stock is held for a payment. */
  reservationMinutes?: number;
  /** NBP's rates for invoices in euros (absent: the shop's own rate). */
  rates?: ExchangeRates;
  log?: Logger;
};

/** The request's services as paying needs them. */
export function paymentServices(app: {
  db: Executor;
  payments: PaymentProvider;
  kickMail: () => void;
  log?: Logger;
  rates?: ExchangeRates;
  config: { contactTo: string; publicUrl: URL; stockReservationMinutes: number; seller?: { legalName?: string; address?: string; taxId?: string; email?: string } };
}): PaymentServices {
  return {
    db: app.db,
    payments: app.payments,
    kickMail: app.kickMail,
    log: app.log,
    contactTo: app.config.contactTo,
    publicUrl: app.config.publicUrl.href,
    reservationMinutes: app.config.stockReservationMinutes,
    seller: app.config.seller ? sellerOf(app.config.seller) : null,
    ...(app.rates ? { rates: app.rates } : {}),
  };
}

/** `unserved`: paid, but never to be shipped (its coffee was gone, or a newer order replaced it): it is refunded. */
export type MarkOrderPaidResult = { ok: true; orderId: string; alreadyPaid: boolean; unserved?: boolean } | { ok: false; reason: 'not_found' };
/**
 * What a caller already read of the order in this transaction: the order, its lines, and that its live holds
 * cover them (the card form checks both before charging), so marking it paid does not read them again.
 */
type KnownOrder = { order: OrderRecord; lines: OrderRecordLine[]; held: boolean };
/** `method`: how it was paid, when the confirmation says (the refund names it). */
type MarkPaid = (paymentId: string, known?: KnownOrder, method?: PaymentMethodKind) => Promise<MarkOrderPaidResult>;

/**
 * The one way an order becomes paid, whoever confirms the payment (the card form, a provider's event, the
 * customer's return from the provider). `work` runs in one transaction and calls `markPaid` for the payment
 * it confirmed: the first call marks the order paid, takes the ordered quantities out of the cart, queues the
 * customer's and the shop's mails and records the purchase for analytics, all in that transaction; later
 * calls change nothing. After the commit the mail worker is woken.
 *
 * Paying takes the order's coffee out of stock in that transaction. A payment that arrives after the coffee is
 * gone (its reservation lapsed and others bought it) still marks the order paid, but it is never shipped: it
 * is marked short, its timeline says why, and once the transaction is done it is refunded in full
 * (`refundUnservedOrders`; each node's sweep retries one the provider did not take).
 */
export async function settlePayment<R>(services: PaymentServices, work: (trx: Executor, markPaid: MarkPaid) => Promise<R>): Promise<R> {
  let paidNow = false;
  const short: string[] = [];
  const invoiced: string[] = [];
  const result = await inTransaction(services.db, (trx) =>
    work(trx, async (paymentId, known, method) => {
      const marked = await markOrderPaid(trx, { paymentId, provider: services.payments.name, contactTo: services.contactTo, publicUrl: services.publicUrl, seller: services.seller, method }, known);
      if (marked.ok && !marked.alreadyPaid) {
        paidNow = true;
        if (!marked.unserved) invoiced.push(marked.orderId);
      }
      if (marked.ok && marked.unserved) short.push(marked.orderId);
      return marked;
    }),
  );
  if (short.length > 0) {
    await refundUnservedOrders(services, short).catch((error: unknown) => services.log?.error({ err: error, orders: short }, 'refunding an order that will not be shipped failed; the sweep retries'));
  }
  // Asked for at checkout: issued once the payment is safely recorded, never at its expense (a failure is logged
  // and the sweep tries again; with the shop's details unset the request waits on the order's page).
  if (invoiced.length > 0 && services.seller) await issueRequestedInvoices(services, invoiced);
  if (paidNow) services.kickMail();
  return result;
}

/**
 * The invoices customers asked for at checkout, for these paid orders (or every paid one still without: the
 * sweep), each issued in its own transaction; a failure is logged and left for the next sweep.
 */
export async function issueRequestedInvoices(services: PaymentServices, orderIds?: string[]): Promise<number> {
  if (!services.seller) return 0;
  const waiting = await services.db
    .selectFrom('orders')
    .leftJoin('invoices', (join) => join.onRef('invoices.order_id', '=', 'orders.id').on('invoices.kind', '=', 'invoice'))
    .select(['orders.id', 'orders.user_id'])
    .where('orders.payment_status', '=', 'succeeded')
    .where('orders.invoice_buyer', 'is not', null)
    .where('invoices.id', 'is', null)
    // Nothing to invoice for an order cancelled before its invoice was issued, or one never to be shipped.
    .where('orders.shipping_status', '<>', 'cancelled')
    .where('orders.stock_short_at', 'is', null)
    .where('orders.replaced_at', 'is', null)
    .$if(orderIds !== undefined, (qb) => qb.where('orders.id', 'in', orderIds!))
    .limit(50)
    .execute();
  let issued = 0;
  for (const order of waiting) {
    const record = await findOrderRecord(services.db, order.id);
    if (!record?.invoiceBuyer) continue;
    try {
      const outcome = await issueInvoice(services.db, { orderId: order.id, buyer: record.invoiceBuyer, seller: services.seller, by: { customer: order.user_id }, rates: services.rates });
      if (outcome.ok) issued += 1;
    } catch (error) {
      services.log?.error({ err: error, orderId: order.id }, 'issuing the invoice asked for at checkout failed; the sweep tries again');
    }
  }
  return issued;
}

async function markOrderPaid(
  trx: Executor,
  input: { paymentId: string; provider: PaymentProvider['name']; method?: PaymentMethodKind } & OrderMailSettings,
  known?: KnownOrder,
): Promise<MarkOrderPaidResult> {
  const mine = known && known.order.paymentId === input.paymentId && known.order.paymentProvider === input.provider ? known : undefined;
  const order = mine?.order ?? (await findOrderByPayment(trx, input.provider, input.paymentId));
  if (!order) return { ok: false, reason: 'not_found' };
  const set = await setOrderPaid(trx, order.id, input.method);
  if (!set) return { ok: true, orderId: order.id, alreadyPaid: true };
  if (set.replaced) {
    // Paid although a newer order of its cart replaced it (a bank page left open): never shipped, refunded in
    // full right after this transaction; its coffee and code stay with the newer order.
    await recordActivity(trx, { id: null, email: 'Kopi' }, { action: 'order.replaced', subjectType: 'order', subjectId: order.id, subjectLabel: orderLabel(order.id), details: {} });
    return { ok: true, orderId: order.id, alreadyPaid: false, unserved: true };
  }
  // Its code's use is made (one let go meanwhile is taken back: the customer paid the price they were shown).
  if (order.discount) await markCodeUsed(trx, order.id);

  const lines = mine?.lines ?? (await getOrderRecordLines(trx, order.id));
  const taken = await takeStock(trx, order.id, stockLines(lines), { held: mine?.held, user: order.userId });
  if (taken.shownChanged) await bumpStoredCatalogVersion(trx);
  if (!taken.ok) {
    // Paid for coffee that is gone: refunded in full right after this transaction, never shipped.
    await markStockShort(trx, order, lines, taken.short);
    return { ok: true, orderId: order.id, alreadyPaid: false, unserved: true };
  }
  if (order.cartId) {
    for (const line of lines) if (line.variantId) await changeLineQuantity(trx, order.cartId, line.variantId, -line.quantity);
    // The code went with this order; the next one starts without it.
    if (order.discount) await trx.updateTable('carts').set({ discount_code: null }).where('id', '=', order.cartId).where('discount_code', '=', order.discount.code).execute();
  }
  const paid = { ...order, paymentStatus: 'succeeded', paidAt: now() };
  await queueMails(trx, [orderConfirmationMail(paid, lines, { publicUrl: input.publicUrl }), shopOrderNotificationMail(paid, lines, input.contactTo)]);
  // The analytics of a shopper who consented (and did not withdraw since); recorded here, where the payment is
  // certain, not by the browser.
  if (order.visitorId && (await analyticsAllowed(trx, order.visitorId))) {
    const event = { path: '/checkout', visitorId: order.visitorId, userId: order.userId };
    await recordEvent(trx, { ...event, name: 'checkout_completed', props: { transaction_id: order.id } });
    await recordEvent(trx, {
      ...event,
      name: 'purchase',
      props: {
        transaction_id: order.id,
        currency: order.currency,
        value: order.totalCents,
        items: lines.map((l) => ({ product_id: l.productId, quantity: l.quantity, value: linePaidCents(l) })),
      },
    });
  }
  return { ok: true, orderId: order.id, alreadyPaid: false };
}

// --- step 2: pay on the shop's own card form (the test provider) ----------------------------------

export type PayWithCardResult =
  | { ok: true; orderId: string }
  | { ok: false; code: CardErrorCode | 'not_found' | 'not_pending' | 'unavailable' | 'payment_not_found' | 'out_of_stock' | 'prices_changed' };

/**
 * A card typed into the shop's form: checks the order is the customer's and pending, has the provider charge
 * the card and settles the order in the same transaction. A declined card leaves the order pending and the
 * cart as it was.
 */
export async function payWithCard(services: PaymentServices, input: { userId: string | null; cartId?: string | null; orderId: string; card: CardDetails; client?: string | null }): Promise<PayWithCardResult> {
  const { payments } = services;
  if (!payments.confirmCard) return { ok: false, code: 'unavailable' };
  return settlePayment(services, async (trx, markPaid) => {
    const order = await findOrderRecord(trx, input.orderId);
    if (!order || !isBuyerOf(order, buyer(input))) return { ok: false, code: 'not_found' } as const;
    if (order.paymentStatus === 'succeeded') return { ok: false, code: 'already_paid' } as const;
    if (order.paymentStatus !== 'pending' || order.paymentProvider !== payments.name) return { ok: false, code: 'not_pending' } as const;
    if (!order.paymentId) return { ok: false, code: 'payment_not_found' } as const;
    // The hold may have lapsed while the customer typed: it is renewed, or the card is not charged.
    const orderLines = await getOrderRecordLines(trx, order.id);
    const lines = stockLines(orderLines);
    // Past its hold the order keeps its prices only if they still hold (a sale may have ended meanwhile), and its
    // code only if a use of it is still the order's.
    if ((await holdLapsed(trx, order, services.reservationMinutes)) && !(await pricesHold(trx, order, orderLines))) return { ok: false, code: 'prices_changed' } as const;
    if (order.discount && !(await renewCodeUse(trx, order.id, holdUntil(services.reservationMinutes)))) return { ok: false, code: 'prices_changed' } as const;
    let covered = await holdsCover(trx, order.id, lines);
    if (!covered) {
      const held = await reserveStock(trx, order.id, lines, { minutes: services.reservationMinutes ?? RESERVATION_MINUTES, holder: holderOf(order, input.client) });
      if (!held.ok) {
        await bumpStoredCatalogVersion(trx);
        return { ok: false, code: 'out_of_stock' } as const;
      }
      // Holding it again (a declined card or a lapsed hold let it go) may take the last bag off the pages; paying
      // then changes nothing more they show. A hold the fair limits refused leaves it to the payment to take.
      if (held.shownChanged) await bumpStoredCatalogVersion(trx);
      await noteHold(trx, order, held.refused);
      covered = held.refused === null;
    }
    const charged = await payments.confirmCard!(trx, { paymentId: order.paymentId, card: input.card });
    if (!charged.ok) {
      // A declined card lets the coffee go; trying again holds it again.
      if (await releaseStock(trx, order.id)) await bumpStoredCatalogVersion(trx);
      return charged;
    }
    // Its holds cover it now (checked or renewed above, in this transaction), unless the fair limits refused one.
    await markPaid(order.paymentId, { order, lines: orderLines, held: covered }, 'card');
    return { ok: true, orderId: order.id } as const;
  });
}

// --- step 2: BLIK and Przelewy24 (asynchronous: the bank answers later) ------------------------------

export type StartAsyncResult =
  | { ok: true; orderId: string; redirectUrl?: string }
  | { ok: false; code: 'not_found' | 'not_pending' | 'unavailable' | 'payment_not_found' | 'out_of_stock' | 'method_not_allowed' | 'blik_invalid' | 'already_paid' | 'prices_changed' };

/**
 * Starts paying the order with BLIK (a code the banking app confirms) or Przelewy24 (a bank page the shopper is
 * sent to): the order is the buyer's and pending, the method is offered for its currency, and its coffee is held
 * (again, if the hold lapsed) for as long as the bank may take. Nothing is paid here: the order becomes paid when
 * the payment is (the waiting page asks, each node's sweep asks, Stripe's webhook tells).
 */
export async function startAsyncPayment(
  services: PaymentServices,
  input: { userId: string | null; cartId?: string | null; orderId: string; method: 'blik' | 'przelewy24'; code?: string; client?: string | null },
): Promise<StartAsyncResult> {
  const { payments, db } = services;
  const start = input.method === 'blik' ? payments.startBlik : payments.startBankPayment;
  if (!start) return { ok: false, code: 'unavailable' };
  return inTransaction(db, async (trx) => {
    const order = await findOrderRecord(trx, input.orderId);
    if (!order || !isBuyerOf(order, buyer(input))) return { ok: false, code: 'not_found' } as const;
    if (order.paymentStatus === 'succeeded') return { ok: false, code: 'already_paid' } as const;
    if (order.paymentStatus !== 'pending' || order.paymentProvider !== payments.name) return { ok: false, code: 'not_pending' } as const;
    if (!methodsFor(order.currency).includes(input.method)) return { ok: false, code: 'method_not_allowed' } as const;
    if (!order.paymentId) return { ok: false, code: 'payment_not_found' } as const;
    // The coffee is held afresh for the whole time the bank may take (renewed, not only when it lapsed).
    const orderLines = await getOrderRecordLines(trx, order.id);
    const lines = stockLines(orderLines);
    // Past its hold the order keeps its prices only if they still hold (a sale may have ended meanwhile).
    if ((await holdLapsed(trx, order, services.reservationMinutes)) && !(await pricesHold(trx, order, orderLines))) return { ok: false, code: 'prices_changed' } as const;
    if (order.discount && !(await renewCodeUse(trx, order.id, holdUntil(services.reservationMinutes)))) return { ok: false, code: 'prices_changed' } as const;
    const held = await reserveStock(trx, order.id, lines, { minutes: services.reservationMinutes ?? RESERVATION_MINUTES, holder: holderOf(order, input.client) });
    if (!held.ok || held.shownChanged) await bumpStoredCatalogVersion(trx);
    if (!held.ok) return { ok: false, code: 'out_of_stock' } as const;
    await noteHold(trx, order, held.refused);
    const started = await start(trx, { paymentId: order.paymentId, code: input.code ?? '' });
    if (!started.ok) return started;
    return { ok: true, orderId: order.id, ...(started.redirectUrl ? { redirectUrl: started.redirectUrl } : {}) } as const;
  });
}

/**
 * Payments whose bank has answered by now though nobody is waiting for them (the shopper closed the tab):
 * each is read from the provider and a paid one settles its order, exactly once, as if the shopper had waited.
 */
export async function settleDuePayments(services: PaymentServices, now = new Date()): Promise<number> {
  const due = (await services.payments.duePayments?.(now)) ?? [];
  let settled = 0;
  for (const paymentId of due) {
    try {
      const order = await findOrderByPayment(services.db, services.payments.name, paymentId);
      if (order && (await settleFromProvider(services, order)).status === 'paid') settled++;
    } catch (error) {
      services.log?.error({ err: error, paymentId }, 'a payment the bank answered could not be settled; the next sweep tries again');
    }
  }
  return settled;
}

// --- the provider's confirmation ----------------------------------------------------------------

export type ConfirmOrderPaymentResult =
  | { status: 'paid'; orderId: string }
  /** `awaitingBank`: an attempt is under way (a BLIK code to confirm, a bank page open), not just unpaid. */
  | { status: 'pending'; orderId: string; awaitingBank?: boolean }
  /** The last attempt did not pay: the bank declined it, or nobody confirmed it in time. */
  | { status: 'failed'; orderId: string; failure: PaymentFailure }
  | { status: 'not_found' };

/**
 * When the customer comes back from the provider (Stripe's redirect or the Payment Element's answer): asks
 * the provider for the payment's state and records a success now, so the order is paid even before the
 * webhook arrives. Safe to call any number of times, alongside the webhook.
 */
export async function confirmOrderPayment(
  services: PaymentServices,
  input: { userId: string | null; cartId?: string | null; orderId?: string; paymentId?: string },
): Promise<ConfirmOrderPaymentResult> {
  const { db, payments: provider, log } = services;
  const order = input.orderId
    ? await findOrderRecord(db, input.orderId)
    : input.paymentId
      ? await findOrderByPayment(db, provider.name, input.paymentId)
      : null;
  if (!order || !isBuyerOf(order, buyer(input))) return { status: 'not_found' };
  return settleFromProvider(services, order);
}

/** Reads the order's payment from its provider and settles the order when it is paid (the amount checked). */
async function settleFromProvider(services: PaymentServices, order: OrderRecord): Promise<ConfirmOrderPaymentResult> {
  const { payments: provider, log } = services;
  if (order.paymentStatus === 'succeeded') return { status: 'paid', orderId: order.id };
  if (!order.paymentId || order.paymentProvider !== provider.name) return { status: 'pending', orderId: order.id };
  let payment: Awaited<ReturnType<PaymentProvider['retrievePayment']>>;
  try {
    payment = await provider.retrievePayment(order.paymentId);
  } catch (error) {
    log?.warn({ err: error, orderId: order.id }, 'payment status could not be retrieved');
    return { status: 'pending', orderId: order.id };
  }
  if (payment.status !== 'succeeded') {
    if (payment.status === 'canceled') return { status: 'failed', orderId: order.id, failure: 'expired' };
    if (payment.failure) return { status: 'failed', orderId: order.id, failure: payment.failure };
    return { status: 'pending', orderId: order.id, awaitingBank: payment.status === 'requires_action' || payment.status === 'processing' };
  }
  if (payment.amountCents !== order.totalCents || payment.currency.toLowerCase() !== order.currency.toLowerCase()) {
    log?.error({ orderId: order.id, amountCents: payment.amountCents, currency: payment.currency, totalCents: order.totalCents }, 'paid amount or currency differs from the order');
    return { status: 'pending', orderId: order.id };
  }
  const paymentId = order.paymentId;
  await settlePayment(services, (_trx, markPaid) => markPaid(paymentId, undefined, payment.method));
  return { status: 'paid', orderId: order.id };
}

export type PaymentEventOutcome =
  | 'duplicate'
  | 'paid'
  | 'already_paid'
  | 'payment_failed'
  | 'amount_mismatch'
  | 'unknown_payment'
  | 'ignored'
  | RefundEventOutcome;

/**
 * A verified provider event, processed once per event id (`payment_events`): a succeeded payment marks the
 * order paid after checking the amount and currency; a failed one is recorded and the order stays pending
 * (the customer may try again). Everything runs in one transaction, so an error rolls the event record back
 * and the provider's retry processes it again.
 */
export async function handlePaymentEvent(services: PaymentServices, event: PaymentEvent): Promise<PaymentEventOutcome> {
  const { payments: provider, log } = services;
  let mailQueued = false;
  const outcome = await settlePayment(services, async (trx, markPaid): Promise<PaymentEventOutcome> => {
    if (!(await recordProviderEvent(trx, event.id, event.kind === 'ignored' ? event.type : event.kind, null))) return 'duplicate';
    if (event.kind === 'ignored') return 'ignored';

    let order = await findOrderByPayment(trx, provider.name, event.paymentId);
    if (!order && event.kind !== 'refunded' && event.orderId) {
      // The payment was created but the process stopped before it was recorded on the order.
      const candidate = await findOrderRecord(trx, event.orderId);
      if (candidate && candidate.paymentProvider === provider.name && candidate.paymentId === null && event.clientSecret) {
        await attachPayment(trx, candidate.id, { paymentId: event.paymentId, clientSecret: event.clientSecret });
        order = await findOrderRecord(trx, candidate.id);
      }
    }
    if (!order) {
      log?.warn({ eventId: event.id, paymentId: event.paymentId }, 'payment event for an unknown payment');
      return 'unknown_payment';
    }
    await trx.updateTable('payment_events').set({ order_id: order.id }).where('event_id', '=', event.id).execute();

    if (event.kind === 'refunded') {
      const outcome = await recordRefundEvent(trx, {
        orderId: order.id,
        provider: provider.name,
        amountRefundedCents: event.amountRefundedCents,
        refunds: event.refunds,
        publicUrl: services.publicUrl,
      });
      if (outcome === 'order_cancelled') mailQueued = true;
      return outcome;
    }
    if (event.kind === 'payment_failed') {
      log?.info({ orderId: order.id, eventId: event.id }, 'payment failed; the order stays pending and its stock is released');
      if (order.paymentStatus === 'pending' && (await releaseStock(trx, order.id))) await bumpStoredCatalogVersion(trx);
      return 'payment_failed';
    }
    if (event.amountCents !== order.totalCents || event.currency.toLowerCase() !== order.currency.toLowerCase()) {
      log?.error(
        { orderId: order.id, eventId: event.id, amount: event.amountCents, currency: event.currency, totalCents: order.totalCents },
        'paid amount differs from the order total; the order was not marked paid',
      );
      return 'amount_mismatch';
    }
    const result = await markPaid(event.paymentId, undefined, event.method);
    return result.ok && !result.alreadyPaid ? 'paid' : 'already_paid';
  });
  if (mailQueued) services.kickMail();
  return outcome;
}

// --- helpers ------------------------------------------------------------------------------------

/** An order's (or a new order's) lines as stock counts them. */
const stockLines = (lines: ReadonlyArray<{ productId: string; variantId: string | null; quantity: number; position?: number; netWeightGrams?: number | null }>): (StockLine & { position: number })[] =>
  lines.flatMap((line, index) =>
    line.variantId ? [{ productId: line.productId, variantId: line.variantId, quantity: line.quantity, position: line.position ?? index, netWeightGrams: line.netWeightGrams }] : [],
  );

/** The order cannot be served: it is marked so (never shipped) and its timeline says which lines were gone. */
async function markStockShort(trx: Executor, order: OrderRecord, lines: OrderRecordLine[], short: Shortage[]): Promise<void> {
  await trx.updateTable('orders').set({ stock_short_at: now() }).where('id', '=', order.id).execute();
  const gone = short.map((s) => {
    const line = lines.find((l) => l.variantId === s.variantId);
    return { sku: line?.sku ?? null, name: line ? lineName(line.title, line.label) : s.variantId, ordered: line?.quantity ?? 0, left: s.left };
  });
  await recordActivity(trx, { id: null, email: 'Kopi' }, { action: 'order.stock_short', subjectType: 'order', subjectId: order.id, subjectLabel: orderLabel(order.id), details: { lines: gone } });
}

/** Whose an order's hold is: its cart's, its customer's, and the address paying it. */
const holderOf = (order: { cartId: string | null; userId: string | null }, client?: string | null) => ({ cart: order.cartId, user: order.userId, client: client ?? null });

/** Why the order's coffee is not held (null: it is, or has nothing to hold) is kept on it for its payment step. */
async function noteHold(trx: Executor, order: { id: string; holdRefused: HoldRefusal | null }, refused: HoldRefusal | null): Promise<void> {
  if (order.holdRefused === refused) return;
  await trx.updateTable('orders').set({ hold_refused: refused }).where('id', '=', order.id).execute();
}

/**
 * The payments of orders a newer one replaced are cancelled at the provider, so an old tab's bank page or card
 * form cannot pay them; each is marked once the provider confirms. One the provider says was paid first is left
 * to its confirmation (the webhook, the sweep), which refunds it; one it could not be asked about, to the sweep.
 */
export async function cancelReplacedPayments(db: Executor, provider: PaymentProvider, replaced: readonly { orderId: string; paymentId: string | null }[], log?: Logger): Promise<string[]> {
  const paid: string[] = [];
  for (const { orderId, paymentId } of replaced) {
    try {
      const outcome = paymentId ? await provider.cancelPayment(paymentId) : 'cancelled';
      if (outcome === 'paid') paid.push(orderId);
      else await db.updateTable('orders').set({ payment_cancelled_at: now() }).where('id', '=', orderId).execute();
    } catch (error) {
      log?.warn({ err: error, orderId }, 'the payment of a replaced order could not be cancelled; the sweep tries again');
    }
  }
  return paid;
}

/**
 * Each node's sweep: the replaced orders whose payments are not cancelled yet are cancelled now; one that was
 * paid meanwhile is settled (and so refunded in full). Returns how many were settled.
 */
export async function sweepReplacedPayments(services: PaymentServices): Promise<number> {
  const waiting = await services.db
    .selectFrom('orders')
    .select(['id as orderId', 'payment_intent_id as paymentId'])
    .where('payment_status', '=', 'replaced')
    .where('payment_cancelled_at', 'is', null)
    .where('payment_provider', '=', services.payments.name)
    .limit(50)
    .execute();
  let settled = 0;
  for (const orderId of await cancelReplacedPayments(services.db, services.payments, waiting, services.log)) {
    const order = await findOrderRecord(services.db, orderId);
    if (order && (await settleFromProvider(services, order)).status === 'paid') settled++;
  }
  return settled;
}

/** When a hold made now runs out. */
const holdUntil = (minutes = RESERVATION_MINUTES) => new Date(Date.now() + minutes * 60_000);

/**
 * Whether the order's hold has run out: the time it was priced for (made, plus the reservation's minutes) and
 * every hold since (each attempt renews it) have passed — whether its coffee's stock is tracked or not.
 */
async function holdLapsed(trx: Executor, order: { id: string; createdAt: string }, minutes = RESERVATION_MINUTES, now = new Date()): Promise<boolean> {
  const latest = await trx.selectFrom('stock_reservations').select((eb) => eb.fn.max('expires_at').as('until')).where('order_id', '=', order.id).executeTakeFirst();
  const priced = Date.parse(order.createdAt) + minutes * 60_000;
  const until = Math.max(priced, latest?.until ? Date.parse(String(latest.until)) : 0);
  return until <= now.getTime();
}

/**
 * Whether every line of an order is still priced as it was when the order was made (sales that ended, prices the
 * owner changed): an order whose hold lapsed is paid at its prices only if they still hold; otherwise the shopper
 * reviews it again, re-priced (docs/decisions/0025).
 */
async function pricesHold(
  trx: Executor,
  order: Pick<OrderRecord, 'currency' | 'delivery' | 'pricesFollowRate'>,
  lines: ReadonlyArray<{ productId: string; variantId: string | null; unitPriceCents: number }>,
): Promise<boolean> {
  const current = await findVariants(trx, lines.flatMap((l) => (l.variantId ? [l.variantId] : [])), order.currency);
  // Prices that follow the buyer's VAT: today's price at today's rates (the owner may have changed either).
  const taxed = order.delivery ? await orderTaxRates(trx, { country: order.delivery.country, kind: order.delivery.kind }) : null;
  const reprice = taxed?.reprice ?? null;
  if ((reprice !== null) !== order.pricesFollowRate) return false;
  const classes = reprice ? await productTaxClasses(trx, lines.map((l) => l.productId)) : null;
  return lines.every(
    (l) => !l.variantId || !current.has(l.variantId) || repriced(current.get(l.variantId)!.priceCents, classes?.get(l.productId) ?? 'coffee', reprice) === l.unitPriceCents,
  );
}

/** getCart's pictures are not needed to price an order; the lines keep the storage key instead. */
const noImages: Storage = { ...nullStorage, url: () => '' };

/**
 * The lines (variant, quantity, unit price, in cart order), the goods' total and the delivery (method, country,
 * price, locker): the same cart going the same way gives the same value.
 */
export function cartFingerprint(
  lines: ReadonlyArray<Pick<NewOrderLine, 'variantId' | 'quantity' | 'unitPriceCents'>>,
  currency: Currency,
  totalCents: number,
  delivery: Pick<OrderDelivery, 'methodId' | 'country' | 'priceCents' | 'point'>,
  discount: { code: string; goodsCents: number; deliveryCents: number } | null = null,
  /**
   * Whose VAT and each line's rate, and whether prices follow it: an order taxed otherwise (OSS switched on, a rate
   * changed, the owner's choice changed, even where the gross prices come out the same) is a new one.
   */
  tax: { country: string; rates: number[]; pricesFollowRate?: boolean } | null = null,
): string {
  const canonical = JSON.stringify({
    c: currency,
    t: totalCents,
    l: lines.map((l) => [l.variantId, l.quantity, l.unitPriceCents]),
    d: [delivery.methodId, delivery.country, delivery.priceCents, delivery.point],
    // Without a code the value is what it always was, so pending orders made before codes are still found.
    ...(discount ? { x: [discount.code, discount.goodsCents, discount.deliveryCents] } : {}),
    ...(tax ? { v: [tax.country, ...tax.rates, ...(tax.pricesFollowRate ? ['follow'] : [])] } : {}),
  });
  return createHash('sha256').update(canonical).digest('hex');
}

/** How the customer asked for the order to go (the route has checked the form; the server prices it). */
export type DeliveryRequest = { country: string; methodId: string; phone?: string; lockerCode?: string | null; saveToProfile?: boolean };

/** True when the provider's event is new (and now recorded), false when it was processed before. */
async function recordProviderEvent(db: Executor, eventId: string, type: string, orderId: string | null): Promise<boolean> {
  const inserted = await db
    .insertInto('payment_events')
    .values({ event_id: eventId, order_id: orderId, type, created_at: now() })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return inserted !== undefined;
}
