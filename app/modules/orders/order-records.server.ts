import { randomBytes } from 'node:crypto';
import { type Selectable, sql } from 'kysely';
import { type Executor, monotonicNow, now } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import type { OrdersTable } from '~/db/schema';
import { type OrderDelivery, type OrderDiscount, type ShippingAddress, lineVatOf, orderCurrency, orderDeliveryOf, orderDiscountOf, vatPartsOf } from './orders.types';
import type { VatPart } from '~/modules/tax/vat';
import { type InvoiceBuyer, buyerOf } from '~/modules/invoices/buyer';
import type { Currency } from '~/modules/pricing/currencies';
import { type HoldRefusal, isHoldRefusal } from '~/modules/stock/stock.types';
import { type PaidWith, isPaidWith } from './orders.types';

/** The order as the checkout and payment code work with it (server only). */
export type OrderRecord = {
  id: string;
  /** The customer's account; null for a guest's order. */
  userId: string | null;
  userEmail: string;
  /** Why the customer's details are gone, if they are (docs/decisions/0029). */
  removed: 'deletion' | 'retention' | null;
  /** A guest's order: the key in the link its mails carry (/order/{id}?key=…). */
  guestKey: string | null;
  locale: string;
  cartId: string | null;
  totalCents: number;
  goodsCents: number;
  /** The code used and what it took off the goods and the delivery (0 without one). */
  discount: OrderDiscount | null;
  currency: Currency;
  paymentProvider: string;
  paymentId: string | null;
  clientSecret: string | null;
  paymentStatus: string;
  shippingStatus: string;
  shipping: ShippingAddress;
  delivery: OrderDelivery | null;
  createdAt: string;
  paidAt: string | null;
  visitorId: string | null;
  /** Whose VAT it was charged, all of it, and the delivery's parts (null country: none recorded). */
  taxCountry: string | null;
  /** Its unit prices were converted from Polish VAT to the tax country's (under OSS, by the owner's choice). */
  pricesFollowRate: boolean;
  vatCents: number;
  deliveryVat: VatPart[];
  /** The buyer's details when they asked for an invoice at checkout. */
  invoiceBuyer: InvoiceBuyer | null;
  /** Why its coffee is not held while it is paid (docs/decisions/0031); null when it is, or has nothing to hold. */
  holdRefused: HoldRefusal | null;
  /** When a newer order of its cart replaced it (then it cannot be paid; paid anyway, it is refunded). */
  replacedAt: string | null;
  /** How it was paid, when the provider said: where a refund goes back. */
  paidWith: PaidWith | null;
};

export type NewOrderLine = {
  productId: string;
  /** The variant bought (null only on lines from before variants whose product was gone by then). */
  variantId: string | null;
  sku: string | null;
  title: string;
  /** The variant as the customer chose it, in the order's language ("1 kg, espresso"); '' for one sold one way. */
  label: string;
  netWeightGrams: number | null;
  unitPriceCents: number;
  quantity: number;
  /** The part of the order's discount this line carries (0 without one): it cost unit × quantity − this. */
  discountCents?: number;
  /** The sale that reduced its price, if one did. */
  saleId?: string | null;
  /** What it cost (unit × quantity − discount) split into net and VAT at its rate. */
  vat?: VatPart | null;
  /** Storage key base of the product's first image, or null. */
  image: string | null;
};

export type OrderRecordLine = NewOrderLine & { position: number };

type Row = Selectable<OrdersTable>;

const toRecord = (row: Row): OrderRecord => ({
  id: row.id,
  userId: row.user_id,
  userEmail: row.user_email,
  removed: row.anonymised_by === 'deletion' || row.anonymised_by === 'retention' ? row.anonymised_by : null,
  guestKey: row.guest_key,
  locale: row.locale,
  cartId: row.cart_id,
  totalCents: row.total_cents,
  goodsCents: row.goods_cents,
  discount: orderDiscountOf(row),
  currency: orderCurrency(row.currency),
  paymentProvider: row.payment_provider,
  paymentId: row.payment_intent_id,
  clientSecret: row.payment_client_secret,
  paymentStatus: row.payment_status,
  shippingStatus: row.shipping_status,
  shipping: {
    fullName: row.shipping_full_name,
    address: row.shipping_address,
    city: row.shipping_city,
    zipCode: row.shipping_zip_code,
  },
  delivery: orderDeliveryOf(row),
  createdAt: row.created_at,
  paidAt: row.paid_at,
  visitorId: row.visitor_id,
  taxCountry: row.tax_country,
  pricesFollowRate: Number(row.prices_follow_rate) === 1,
  vatCents: Number(row.vat_cents),
  deliveryVat: vatPartsOf(row.delivery_tax),
  invoiceBuyer: buyerOf(row.invoice_buyer),
  holdRefused: isHoldRefusal(row.hold_refused) ? row.hold_refused : null,
  replacedAt: row.replaced_at ?? null,
  paidWith: isPaidWith(row.paid_with) ? row.paid_with : null,
});

const shippingColumns = (a: ShippingAddress, d: OrderDelivery) => ({
  shipping_full_name: a.fullName,
  shipping_address: a.address,
  shipping_city: a.city,
  shipping_zip_code: a.zipCode,
  shipping_phone: d.phone,
  delivery_point_address: d.pointAddress,
});

export async function findOrderRecord(db: Executor, orderId: string): Promise<OrderRecord | null> {
  const row = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
  return row ? toRecord(row) : null;
}

/**
 * The latest order this cart made for this buyer (the customer's, or a guest's by the cart alone), whatever became
 * of it: the delivery step starts from the choices made there.
 */
export async function lastOrderOfCart(db: Executor, { userId, cartId }: { userId: string | null; cartId: string | null }): Promise<OrderRecord | null> {
  if (!cartId) return null;
  const row = await db
    .selectFrom('orders')
    .selectAll()
    .where('cart_id', '=', cartId)
    .$if(userId !== null, (qb) => qb.where('user_id', '=', userId))
    .$if(userId === null, (qb) => qb.where('user_id', 'is', null))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function findOrderByPayment(db: Executor, provider: string, paymentId: string): Promise<OrderRecord | null> {
  const row = await db
    .selectFrom('orders')
    .selectAll()
    .where('payment_intent_id', '=', paymentId)
    .where('payment_provider', '=', provider)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function getOrderRecordLines(db: Executor, orderId: string): Promise<OrderRecordLine[]> {
  const rows = await db.selectFrom('order_lines').selectAll().where('order_id', '=', orderId).orderBy('position').execute();
  return rows.map((r) => ({
    position: r.position,
    productId: r.product_id,
    variantId: r.variant_id,
    sku: r.sku,
    title: r.title,
    label: r.variant_label,
    netWeightGrams: r.net_weight_grams,
    unitPriceCents: r.unit_price_cents,
    quantity: r.quantity,
    saleId: r.sale_id,
    discountCents: Number(r.discount_cents),
    vat: lineVatOf(r, Number(r.unit_price_cents) * Number(r.quantity) - Number(r.discount_cents)),
    image: r.image,
  }));
}

/**
 * The customer's pending order for exactly this cart (same fingerprint), created when there is none. The
 * partial unique index on (user_id, cart_fingerprint) among pending orders makes a concurrent second
 * insert do nothing, and that caller then reads the first one's order. A guest (`userId` null) has one per
 * cart and fingerprint, by an index of its own; a guest's order gets the key of its link. A reused order
 * takes the latest shipping address, email and language.
 */
export async function findOrCreatePendingOrder(
  db: Executor,
  input: {
    userId: string | null;
    email: string;
    locale: string;
    cartId: string | null;
    provider: string;
    fingerprint: string;
    /** The goods' total; the order's is it less the discount, plus the delivery's price. All amounts are in `currency`. */
    goodsCents: number;
    /** A code's discount: off the goods (spread over the lines' `discountCents`) and what the free delivery saved. */
    discount?: OrderDiscount | null;
    currency: Currency;
    visitorId: string | null;
    address: ShippingAddress;
    delivery: OrderDelivery;
    lines: NewOrderLine[];
    /** Whose VAT it pays and the delivery's parts (the lines carry theirs). */
    /** Whose VAT, the delivery's parts, and whether the unit prices were converted to that country's VAT. */
    tax: { country: string; delivery: VatPart[]; pricesFollowRate?: boolean };
    /** The buyer's details when they asked for an invoice. */
    invoiceBuyer?: InvoiceBuyer | null;
  },
): Promise<{ order: OrderRecord; created: boolean }> {
  const guest = input.userId === null;
  if (guest && !input.cartId) throw new Error('a guest orders from a cart');
  const pending = () =>
    db
      .selectFrom('orders')
      .selectAll()
      .$if(!guest, (qb) => qb.where('user_id', '=', input.userId))
      .$if(guest, (qb) => qb.where('user_id', 'is', null).where('cart_id', '=', input.cartId))
      .where('cart_fingerprint', '=', input.fingerprint)
      .where('payment_status', '=', 'pending')
      .where('payment_provider', '=', input.provider)
      .executeTakeFirst();

  const existing = await pending();
  if (!existing) {
    const id = newId();
    const inserted = await db
      .insertInto('orders')
      .values({
        id,
        user_id: input.userId,
        user_email: input.email,
        locale: input.locale,
        cart_id: input.cartId,
        total_cents: input.goodsCents - (input.discount?.goodsCents ?? 0) + input.delivery.priceCents,
        goods_cents: input.goodsCents,
        discount_code: input.discount?.code ?? null,
        discount_cents: input.discount?.goodsCents ?? 0,
        delivery_discount_cents: input.discount?.deliveryCents ?? 0,
        delivery_cents: input.delivery.priceCents,
        standard_delivery_cents: input.delivery.standardCents,
        delivery_kind: input.delivery.kind,
        delivery_method_id: input.delivery.methodId,
        delivery_country: input.delivery.country,
        delivery_point: input.delivery.point,
        currency: input.currency,
        payment_provider: input.provider,
        payment_intent_id: null,
        payment_client_secret: null,
        cart_fingerprint: input.fingerprint,
        payment_status: 'pending',
        shipping_status: 'processing',
        ...shippingColumns(input.address, input.delivery),
        created_at: monotonicNow(),
        paid_at: null,
        visitor_id: input.visitorId,
        guest_key: guest ? randomBytes(16).toString('base64url') : null,
        tax_country: input.tax.country,
        prices_follow_rate: input.tax.pricesFollowRate ? 1 : 0,
        vat_cents: [...input.lines.map((l) => l.vat?.vatCents ?? 0), ...input.tax.delivery.map((p) => p.vatCents)].reduce((sum, v) => sum + v, 0),
        delivery_tax: JSON.stringify(input.tax.delivery),
        invoice_buyer: input.invoiceBuyer ? JSON.stringify(input.invoiceBuyer) : null,
      })
      .onConflict((oc) =>
        guest
          ? oc.columns(['cart_id', 'cart_fingerprint']).where(sql<boolean>`payment_status = 'pending' and user_id is null`).doNothing()
          : oc.columns(['user_id', 'cart_fingerprint']).where(sql<boolean>`payment_status = 'pending'`).doNothing(),
      )
      .returningAll()
      .executeTakeFirst();
    if (inserted) {
      await db
        .insertInto('order_lines')
        .values(
          input.lines.map((line, position) => ({
            order_id: id,
            position,
            product_id: line.productId,
            variant_id: line.variantId,
            sku: line.sku,
            title: line.title,
            variant_label: line.label,
            net_weight_grams: line.netWeightGrams,
            unit_price_cents: line.unitPriceCents,
            quantity: line.quantity,
            sale_id: line.saleId ?? null,
            discount_cents: line.discountCents ?? 0,
            tax_rate_bp: line.vat?.rateBp ?? null,
            net_cents: line.vat?.netCents ?? null,
            vat_cents: line.vat?.vatCents ?? null,
            image: line.image,
          })),
        )
        .execute();
      return { order: toRecord(inserted as Row), created: true };
    }
  }
  const row = existing ?? (await pending());
  if (!row) throw new Error('pending order vanished while being reused');
  await db
    .updateTable('orders')
    .set({ user_email: input.email, locale: input.locale, cart_id: input.cartId, visitor_id: input.visitorId, invoice_buyer: input.invoiceBuyer ? JSON.stringify(input.invoiceBuyer) : null, ...shippingColumns(input.address, input.delivery) })
    .where('id', '=', row.id)
    .where('payment_status', '=', 'pending')
    .execute();
  return {
    order: toRecord({ ...row, user_email: input.email, locale: input.locale, cart_id: input.cartId, visitor_id: input.visitorId, invoice_buyer: input.invoiceBuyer ? JSON.stringify(input.invoiceBuyer) : null, ...shippingColumns(input.address, input.delivery) }),
    created: false,
  };
}

/** Records the provider's payment on an order that has none yet; returns the payment the order ends up with. */
export async function attachPayment(
  db: Executor,
  orderId: string,
  payment: { paymentId: string; clientSecret: string },
): Promise<{ paymentId: string; clientSecret: string } | null> {
  const attached = await db
    .updateTable('orders')
    .set({ payment_intent_id: payment.paymentId, payment_client_secret: payment.clientSecret })
    .where('id', '=', orderId)
    .where('payment_intent_id', 'is', null)
    .returning(['payment_intent_id', 'payment_client_secret'])
    .executeTakeFirst();
  // Another request attached one first: the order keeps that one.
  const row = attached ?? await db
    .selectFrom('orders')
    .select(['payment_intent_id', 'payment_client_secret'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!row?.payment_intent_id || !row.payment_client_secret) return null;
  return { paymentId: row.payment_intent_id, clientSecret: row.payment_client_secret };
}

/**
 * Pending (or replaced) → succeeded, once: null for a racing second caller, which changed nothing; otherwise
 * whether a newer order had replaced this one (read from the row as the update left it, so a replacement that
 * committed meanwhile is seen).
 */
export async function setOrderPaid(db: Executor, orderId: string, paidWith?: string): Promise<{ replaced: boolean } | null> {
  const row = await db
    .updateTable('orders')
    .set({ payment_status: 'succeeded', shipping_status: 'processing', paid_at: now(), paid_with: paidWith ?? null })
    .where('id', '=', orderId)
    .where('payment_status', '<>', 'succeeded')
    .returning('replaced_at')
    .executeTakeFirst();
  return row ? { replaced: row.replaced_at !== null } : null;
}

/**
 * A newer order of their cart replaces these pending ones: they can no longer be paid (their payments are to be
 * cancelled at the provider). Returns their payments.
 */
export async function markReplaced(db: Executor, orderIds: readonly string[]): Promise<{ orderId: string; paymentId: string | null }[]> {
  if (orderIds.length === 0) return [];
  const rows = await db
    .updateTable('orders')
    .set({ payment_status: 'replaced', replaced_at: now() })
    .where('id', 'in', orderIds)
    .where('payment_status', '=', 'pending')
    .returning(['id', 'payment_intent_id'])
    .execute();
  return rows.map((r) => ({ orderId: r.id, paymentId: r.payment_intent_id }));
}

/**
 * Past orders keep their lines (title, price, quantity) when the owner deletes a product or removes one of its
 * pictures; the pictures themselves go, so the lines show the default coffee picture instead of a broken one.
 */
export async function forgetOrderLineImages(db: Executor, which: { productId: string } | { keys: string[] }): Promise<void> {
  if ('productId' in which) {
    await db.updateTable('order_lines').set({ image: null }).where('product_id', '=', which.productId).execute();
  } else if (which.keys.length > 0) {
    await db.updateTable('order_lines').set({ image: null }).where('image', 'in', which.keys).execute();
  }
}
