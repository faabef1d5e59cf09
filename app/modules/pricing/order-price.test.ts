/**
 * The one function that prices an order (checkout's payment today, subscriptions' renewals next): the delivery for
 * the parcel's weight and the goods after a code, a free-delivery code's saving, each line's VAT at its rate and the
 * delivery's VAT following the goods, the total; null for a method the parcel cannot take.
 */
import { describe, expect, it } from 'vitest';
import type { DeliveryMethod, DeliveryTable } from '~/modules/delivery/rates';
import { type LineToPrice, priceOrder } from './order-price';

const method = (id: string, kind: DeliveryMethod['kind'], bands: Array<[number, number]>, freeOverCents: number | null = null): DeliveryMethod => ({
  id,
  zoneId: 'pl',
  kind,
  active: true,
  freeOverCents,
  freeOver: { EUR: freeOverCents, PLN: freeOverCents },
  bands: bands.map(([maxGrams, priceCents]) => ({ maxGrams, priceCents, prices: { EUR: priceCents, PLN: priceCents } })),
  pickupAddress: kind === 'pickup' ? 'ul. Mokotowska 12' : '',
  pickupHours: { en: '', pl: '' },
});
const table: DeliveryTable = {
  currency: 'PLN',
  packagingGrams: 150,
  guestCheckout: false,
  homeCountry: 'PL',
  // A pickup that costs something (packing at the counter): still no delivery to refund.
  zones: [{ id: 'pl', name: 'Polska', countries: ['PL'], methods: [method('locker', 'locker', [[5000, 1299]], 20000), method('courier', 'courier', [[1000, 1499], [25000, 2499]], 20000), method('pickup', 'pickup', [[25000, 500]])] }],
};

const line = (over: Partial<LineToPrice>): LineToPrice => ({
  productId: 'p1',
  variantId: 'v1',
  sku: 'KOPI-1',
  title: 'Mandheling',
  label: '250 g, whole bean',
  netWeightGrams: 250,
  unitPriceCents: 4900,
  quantity: 2,
  saleId: null,
  discountCents: 0,
  image: null,
  rateBp: 500,
  ...over,
});
const courier = { country: 'PL', methodId: 'courier', kind: 'courier' as const, phone: '+48 600 100 200', point: { code: null, address: null } };

describe('priceOrder', () => {
  it('prices the delivery for the parcel, splits the VAT of every line and of the delivery over the goods, and totals them', () => {
    // Coffee at 5% and a grinder at 23%: the delivery's VAT follows them in proportion to what each cost.
    const priced = priceOrder(table, { lines: [line({}), line({ productId: 'p2', variantId: 'v2', title: 'Młynek', netWeightGrams: 600, unitPriceCents: 9800, quantity: 1, rateBp: 2300 })], goodsCents: 19600, code: null, delivery: courier })!;
    // 2 × 250 g + 600 g + 150 g of packaging = 1,250 g: the courier's second band.
    expect(priced.delivery).toEqual({ kind: 'courier', methodId: 'courier', country: 'PL', priceCents: 2499, standardCents: 1299, phone: '+48 600 100 200', point: null, pointAddress: null });
    expect(priced.totalCents).toBe(19600 + 2499);
    expect(priced.discount).toBeNull();
    expect(priced.lines.map((l) => l.vat)).toEqual([
      { rateBp: 500, grossCents: 9800, netCents: 9333, vatCents: 467 },
      { rateBp: 2300, grossCents: 9800, netCents: 7967, vatCents: 1833 },
    ]);
    // Half the goods at each rate: the delivery's 24.99 split 12.50 / 12.49, each at its rate (highest first).
    expect(priced.deliveryVat).toEqual([
      { rateBp: 2300, grossCents: 1250, netCents: 1016, vatCents: 234 },
      { rateBp: 500, grossCents: 1249, netCents: 1190, vatCents: 59 },
    ]);
    expect(priced.lines[0]).not.toHaveProperty('rateBp');
  });

  it('takes a code off the goods before the free-delivery threshold is judged, and a free-delivery code says what it saved', () => {
    // 2 × 49 zł = 98 zł of goods, 10 zł off: the lines carry their share, the total is goods − code + delivery.
    const off = priceOrder(table, { lines: [line({ discountCents: 1000 })], goodsCents: 9800, code: { code: 'KAWA10', goodsCents: 1000, freeDelivery: false }, delivery: courier })!;
    expect(off.totalCents).toBe(9800 - 1000 + 1499);
    expect(off.discount).toEqual({ code: 'KAWA10', goodsCents: 1000, deliveryCents: 0 });
    expect(off.lines[0]!.vat.grossCents).toBe(8800);
    // 205 zł of goods less a 10 zł code is under the 200 zł threshold: delivery is charged.
    const under = priceOrder(table, { lines: [line({ quantity: 4, unitPriceCents: 5125, discountCents: 1000 })], goodsCents: 20500, code: { code: 'KAWA10', goodsCents: 1000, freeDelivery: false }, delivery: courier })!;
    expect(under.delivery.priceCents).toBe(2499);
    const free = priceOrder(table, { lines: [line({})], goodsCents: 9800, code: { code: 'DOSTAWA', goodsCents: 0, freeDelivery: true }, delivery: courier })!;
    expect(free.delivery).toMatchObject({ priceCents: 0, standardCents: 0 });
    expect(free.discount).toEqual({ code: 'DOSTAWA', goodsCents: 0, deliveryCents: 1499 });
    expect(free.deliveryVat).toEqual([]);
    expect(free.totalCents).toBe(9800);
  });

  it('writes a locker’s or a pickup’s point on the delivery; a pickup refunds no standard delivery', () => {
    const locker = priceOrder(table, { lines: [line({})], goodsCents: 9800, code: null, delivery: { ...courier, methodId: 'locker', kind: 'locker', point: { code: 'WAW01M', address: 'WAW01M, ul. Marszałkowska 1' } } })!;
    expect(locker.delivery).toMatchObject({ priceCents: 1299, point: 'WAW01M', pointAddress: 'WAW01M, ul. Marszałkowska 1' });
    const pickup = priceOrder(table, { lines: [line({})], goodsCents: 9800, code: null, delivery: { ...courier, methodId: 'pickup', kind: 'pickup' } })!;
    expect(pickup.delivery).toMatchObject({ priceCents: 500, standardCents: 0 });
  });

  it('is null for a method this parcel cannot take, or one that is not there', () => {
    // 20 × 250 g + 150 g = 5,150 g: over the locker's 5 kg.
    expect(priceOrder(table, { lines: [line({ quantity: 20 })], goodsCents: 98000, code: null, delivery: { ...courier, methodId: 'locker', kind: 'locker' } })).toBeNull();
    expect(priceOrder(table, { lines: [line({})], goodsCents: 9800, code: null, delivery: { ...courier, methodId: 'pigeon' } })).toBeNull();
    expect(priceOrder(table, { lines: [line({})], goodsCents: 9800, code: null, delivery: { ...courier, country: 'DE' } })).toBeNull();
  });
});
