/** Order view types and constants, free of zod and server imports (browser-safe). */
import type { ProductImage } from '~/modules/storage/image';
import { type Currency, isCurrency } from '~/modules/pricing/currencies';
import { type VatPart, sumByRate } from '~/modules/tax/vat';

export const ORDERS_PAGE_SIZE = 10;
export const paymentStatuses = ['pending', 'succeeded', 'failed'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];
export const shippingStatuses = ['processing', 'shipped', 'delivered', 'cancelled'] as const;
export type ShippingStatus = (typeof shippingStatuses)[number];

export type ShippingAddress = { fullName: string; address: string; city: string; zipCode: string };

export const orderDeliveryKinds = ['locker', 'courier', 'pickup'] as const;
export type OrderDeliveryKind = (typeof orderDeliveryKinds)[number];

/** How an order goes to its customer, as chosen at checkout (a snapshot: rates, lockers and pickup hours change). */
export type OrderDelivery = {
  kind: OrderDeliveryKind;
  methodId: string;
  country: string;
  priceCents: number;
  /** The cheapest standard delivery for this parcel, at most `priceCents`: what withdrawing from the whole order refunds. */
  standardCents: number;
  /** The phone the carrier texts ('' when none was given). */
  phone: string;
  /** The locker's code. */
  point: string | null;
  /** The locker's address and hours, or where and when to collect a pickup. */
  pointAddress: string | null;
};

/** The delivery columns of an order row as the views read them: null for orders from before delivery was chosen. */
export function orderDeliveryOf(row: {
  delivery_kind: string | null;
  delivery_method_id: string | null;
  delivery_country: string | null;
  delivery_cents: number;
  standard_delivery_cents: number;
  shipping_phone: string;
  delivery_point: string | null;
  delivery_point_address: string | null;
}): OrderDelivery | null {
  if (!row.delivery_kind || !(orderDeliveryKinds as readonly string[]).includes(row.delivery_kind)) return null;
  return {
    kind: row.delivery_kind as OrderDeliveryKind,
    methodId: row.delivery_method_id ?? '',
    country: row.delivery_country ?? '',
    priceCents: Number(row.delivery_cents),
    standardCents: Number(row.standard_delivery_cents),
    phone: row.shipping_phone,
    point: row.delivery_point,
    pointAddress: row.delivery_point_address,
  };
}

export type OrderLineView = {
  /** The line's place in the order (what a withdrawal names). */
  position: number;
  productId: string;
  variantId: string | null;
  sku: string | null;
  /** '' when the product had no name (the UI shows "Unnamed Product"). */
  title: string;
  /** The variant as ordered ("1 kg, espresso"), in the order's language; '' for one sold one way. */
  label: string;
  netWeightGrams: number | null;
  unitPriceCents: number;
  quantity: number;
  /** Its part of the order's discount: it cost unit × quantity − this. */
  discountCents: number;
  /** What it cost split into net and VAT at its rate, as charged. */
  vat: VatPart | null;
  image: ProductImage | null;
};

/** A discount code's part in an order: the code, what it took off the goods, and what the free delivery saved. */
export type OrderDiscount = { code: string; goodsCents: number; deliveryCents: number };

/** The discount of an order row; null without a code. */
export const orderDiscountOf = (row: { discount_code: string | null; discount_cents: number; delivery_discount_cents: number }): OrderDiscount | null =>
  row.discount_code ? { code: row.discount_code, goodsCents: Number(row.discount_cents), deliveryCents: Number(row.delivery_discount_cents) } : null;

/** The VAT in an order per rate: its lines' and its delivery's parts added up. */
export const orderVatSummary = (lines: ReadonlyArray<{ vat: VatPart | null }>, delivery: readonly VatPart[]): VatPart[] =>
  sumByRate([...lines.flatMap((l) => (l.vat ? [l.vat] : [])), ...delivery]);

/** An order row's (or a refund's) stored parts; [] for none or anything unreadable. */
export function vatPartsOf(json: string | null): VatPart[] {
  if (!json) return [];
  try {
    const parsed: unknown = JSON.parse(json);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (p): p is VatPart => typeof p === 'object' && p !== null && ['rateBp', 'grossCents', 'netCents', 'vatCents'].every((k) => typeof (p as Record<string, unknown>)[k] === 'number'),
    );
  } catch {
    return [];
  }
}

/** A stored line's VAT (null on a line that has none). */
export const lineVatOf = (row: { tax_rate_bp: number | null; net_cents: number | null; vat_cents: number | null }, grossCents: number): VatPart | null =>
  row.tax_rate_bp === null || row.net_cents === null || row.vat_cents === null ? null : { rateBp: Number(row.tax_rate_bp), grossCents, netCents: Number(row.net_cents), vatCents: Number(row.vat_cents) };

/** What a line cost: its unit price times its quantity, less its part of the discount. */
export const linePaidCents = (line: { unitPriceCents: number; quantity: number; discountCents?: number }): number => line.unitPriceCents * line.quantity - (line.discountCents ?? 0);

export type OrderView = {
  id: string;
  /** The last 6 characters of the id in upper case, e.g. "X7K2QA". */
  label: string;
  /** ISO-8601 UTC. */
  createdAt: string;
  paidAt: string | null;
  /** Goods and delivery; the goods alone are `goodsCents`. */
  totalCents: number;
  goodsCents: number;
  /** The code used and what it took off; null without one. */
  discount: OrderDiscount | null;
  currency: Currency;
  paymentStatus: PaymentStatus;
  shippingStatus: ShippingStatus;
  lines: OrderLineView[];
  shipping: ShippingAddress;
  /** How it goes (null on orders from before delivery was chosen, which paid nothing for it). */
  delivery: OrderDelivery | null;
  /** How it was shipped, once it was (a carrier id of app/modules/fulfilment/carriers.ts). */
  parcel: { carrier: string; trackingNumber: string | null } | null;
  /** How much was given back (cancelled orders are refunded in full). */
  refundedCents: number;
  /** When the owner marked it delivered; the 14-day withdrawal period runs from it. */
  deliveredAt: string | null;
  /** The positions of the lines the customer has withdrawn from (through /withdraw). */
  withdrawnPositions: number[];
  /** Paid after its coffee sold out: never shipped, refunded in full (docs/decisions/0020). */
  stockShort: boolean;
  /** A newer order of its cart replaced it: it cannot be paid, and paid anyway it is refunded in full, never shipped. */
  replaced: boolean;
  /** The VAT in the amount charged per rate, highest first (lines and delivery; docs/decisions/0027). */
  vat: VatPart[];
  /** The country whose VAT its prices were converted to (prices that follow the buyer's VAT under OSS), else null. */
  pricesIn: string | null;
};

/**
 * Where a customer follows an order, as its mails link to it: My Orders for a customer's, its private page for a
 * guest's (`/order/{id}?key=…`, the key only its mails carry). A path in the order's language.
 */
export function orderPagePath(order: { id: string; guestKey: string | null }): string {
  return order.guestKey ? `/order/${encodeURIComponent(order.id)}?key=${encodeURIComponent(order.guestKey)}` : '/profile?tab=orders';
}

/** Days a consumer has to withdraw from a contract, from delivery (Directive 2011/83/EU, art. 9). */
export const WITHDRAWAL_DAYS = 14;

/** The last moment to withdraw: 14 days after delivery; null while not delivered (the period is open). */
export function withdrawalClosesAt(deliveredAt: string | null): string | null {
  return deliveredAt ? new Date(new Date(deliveredAt).getTime() + WITHDRAWAL_DAYS * 86_400_000).toISOString() : null;
}

/** Whether the order can still be withdrawn from: paid, not cancelled, a line not yet withdrawn from, and not 14 days past delivery. */
export function withdrawalOpen(order: Pick<OrderView, 'paymentStatus' | 'shippingStatus' | 'deliveredAt' | 'lines' | 'withdrawnPositions'>, now = new Date()): boolean {
  if (order.paymentStatus !== 'succeeded' || order.shippingStatus === 'cancelled') return false;
  if (order.lines.every((line) => order.withdrawnPositions.includes(line.position))) return false;
  const closesAt = withdrawalClosesAt(order.deliveredAt);
  return !closesAt || now.toISOString() <= closesAt;
}

/**
 * The coffees of an order its customer may review: paid, delivered, not refunded in full, and a line of it not
 * withdrawn from (the server decides again when the review is sent: app/modules/reviews).
 */
export function reviewableProductIds(order: Pick<OrderView, 'paymentStatus' | 'shippingStatus' | 'totalCents' | 'refundedCents' | 'lines' | 'withdrawnPositions'>): string[] {
  if (order.paymentStatus !== 'succeeded' || order.shippingStatus !== 'delivered' || order.refundedCents >= order.totalCents) return [];
  return [...new Set(order.lines.filter((line) => !order.withdrawnPositions.includes(line.position)).map((line) => line.productId))];
}

/**
 * What an order's status badge says: its shipping status, except once every line was withdrawn from, when it
 * says so ("withdrawn") and, refunded in full, "returned". A withdrawal from some lines only is `partlyWithdrawn`.
 */
export type DisplayStatus = ShippingStatus | 'withdrawn' | 'returned';
export function displayStatus(order: {
  shippingStatus: string;
  totalCents: number;
  refundedCents: number;
  positions: number[];
  withdrawnPositions: number[];
}): { status: DisplayStatus; partlyWithdrawn: boolean } {
  const status = (shippingStatuses as readonly string[]).includes(order.shippingStatus) ? (order.shippingStatus as ShippingStatus) : 'processing';
  const withdrawn = order.positions.filter((position) => order.withdrawnPositions.includes(position)).length;
  if (status === 'cancelled' || withdrawn === 0) return { status, partlyWithdrawn: false };
  if (withdrawn < order.positions.length) return { status, partlyWithdrawn: true };
  return { status: order.refundedCents >= order.totalCents ? 'returned' : 'withdrawn', partlyWithdrawn: false };
}

export const orderLabel = (id: string) => id.slice(-6).toUpperCase();

/** An order's stored currency (orders from before there were two are in euros). */
export const orderCurrency = (stored: string): Currency => (isCurrency(stored) ? stored : 'EUR');

/** How an order was paid, as recorded when it was (where its refunds go back). */
export const paidWithKinds = ['card', 'blik', 'przelewy24'] as const;
export type PaidWith = (typeof paidWithKinds)[number];
export const isPaidWith = (value: unknown): value is PaidWith => paidWithKinds.includes(value as PaidWith);

/**
 * A text in the words of how an order was paid: the card (`key` itself), BLIK's or Przelewy24's bank account
 * (`key` + "Blik" / "Przelewy24"), or "the way you paid" (`key` + "Unknown") when the provider did not say.
 */
export const textByPaidWith = (key: string, paidWith: string | null | undefined): string =>
  paidWith === 'card' ? key : paidWith === 'blik' ? `${key}Blik` : paidWith === 'przelewy24' ? `${key}Przelewy24` : `${key}Unknown`;
