/**
 * The one function that prices an order (DESIGN.md, the commerce model): its lines as the cart priced them (or a
 * subscription's renewal will), a code's share of each and of the delivery, the delivery chosen among those this
 * parcel may take, and the VAT of every line at its product's rate in the country whose VAT the order pays, the
 * delivery following its goods → the order's lines, delivery, discount and total. Pure: reading the cart, the
 * delivery table and the rates is the caller's, so a checkout and a renewal price alike from the same figures.
 */
// The pure parts of delivery, orders and tax, not their doors: delivery's server code reads pricing's settings.
import { type DeliveryTable, cheapestDelivery, deliveryOptions } from '~/modules/delivery/rates';
import type { NewOrderLine } from '~/modules/orders/order-records.server';
import { type OrderDelivery, linePaidCents } from '~/modules/orders/orders.types';
import { type VatPart, orderVat } from '~/modules/tax/vat';

/** A line as priced before tax: what it costs (unit × quantity − its share of a code) and its product's VAT rate. */
export type LineToPrice = Omit<NewOrderLine, 'vat'> & { rateBp: number };

/** A code that applies: what it takes off the goods (already spread over the lines' `discountCents`), and whether delivery is free. */
export type CodeToPrice = { code: string; goodsCents: number; freeDelivery: boolean };

export type DeliveryToPrice = {
  country: string;
  methodId: string;
  kind: OrderDelivery['kind'];
  phone: string;
  /** The locker's code and the address written on the order (a locker's or a pickup's), or nulls. */
  point: { code: string | null; address: string | null };
};

export type OrderPrice = {
  lines: Array<NewOrderLine & { vat: VatPart }>;
  delivery: OrderDelivery;
  /** The code's part: off the goods, and off the delivery (a free-delivery code's saving). */
  discount: { code: string; goodsCents: number; deliveryCents: number } | null;
  /** The delivery's VAT, split over the goods' rates. */
  deliveryVat: VatPart[];
  /** The goods before the code, and what is charged: goods − the code's part + delivery. */
  goodsCents: number;
  totalCents: number;
};

/** The order's price, or null when the chosen method does not take this parcel (its weight, the country). */
export function priceOrder(table: DeliveryTable, input: { lines: readonly LineToPrice[]; goodsCents: number; code: CodeToPrice | null; delivery: DeliveryToPrice }): OrderPrice | null {
  const { lines, goodsCents, code, delivery: chosen } = input;
  const goodsToPay = goodsCents - (code?.goodsCents ?? 0);
  const goodsGrams = lines.reduce((sum, line) => sum + (line.netWeightGrams ?? 0) * line.quantity, 0);
  const options = deliveryOptions(table, { country: chosen.country, goodsGrams, goodsCents: goodsToPay });
  const option = options.find((o) => o.methodId === chosen.methodId);
  if (!option) return null;
  const free = code?.freeDelivery === true;
  const priceCents = free ? 0 : option.priceCents;
  // The least expensive standard delivery offered for this parcel (a pickup is no delivery: nothing to refund), as paid.
  const standardCents = chosen.kind === 'pickup' || free ? 0 : Math.min(option.priceCents, cheapestDelivery(options)?.priceCents ?? option.priceCents);
  const delivery: OrderDelivery = { kind: chosen.kind, methodId: option.methodId, country: chosen.country, priceCents, standardCents, phone: chosen.phone, point: chosen.point.code, pointAddress: chosen.point.address };
  const vat = orderVat(
    lines.map((l) => ({ grossCents: linePaidCents(l), rateBp: l.rateBp })),
    priceCents,
  );
  return {
    lines: lines.map(({ rateBp: _rate, ...line }, i) => ({ ...line, vat: vat.lines[i]! })),
    delivery,
    discount: code ? { code: code.code, goodsCents: code.goodsCents, deliveryCents: free ? option.priceCents : 0 } : null,
    deliveryVat: vat.delivery,
    goodsCents,
    totalCents: goodsToPay + priceCents,
  };
}
