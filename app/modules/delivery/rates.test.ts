import { describe, expect, it } from 'vitest';
import { type DeliveryMethod, type DeliveryTable, amountToFreeDelivery, cheapestDelivery, deliveryOptions, deliveryTeaser, inCurrency } from './rates';

const method = (id: string, kind: DeliveryMethod['kind'], bands: Array<[number, number]>, freeOverCents: number | null = null, active = true): DeliveryMethod => ({
  id,
  zoneId: 'z',
  kind,
  active,
  freeOverCents,
  // The złoty prices are the euro ones times four, so a test can tell which currency it got.
  freeOver: { EUR: freeOverCents, PLN: freeOverCents === null ? null : freeOverCents * 4 },
  bands: bands.map(([maxGrams, priceCents]) => ({ maxGrams, priceCents, prices: { EUR: priceCents, PLN: priceCents * 4 } })),
  pickupAddress: kind === 'pickup' ? 'ul. Mokotowska 12' : '',
  pickupHours: { en: '', pl: '' },
});

const table: DeliveryTable = {
  currency: 'EUR',
  packagingGrams: 150,
  guestCheckout: false,
  homeCountry: 'PL',
  zones: [
    {
      id: 'pl',
      name: 'Polska',
      countries: ['PL'],
      methods: [
        method('locker', 'locker', [[5000, 349], [10000, 449], [25000, 599]], 5000),
        method('courier', 'courier', [[1000, 499], [2000, 549], [25000, 1199]], 5000),
        method('pickup', 'pickup', [[25000, 0]]),
      ],
    },
    { id: 'eu', name: 'EU', countries: ['CZ', 'DE'], methods: [method('eu', 'courier', [[1000, 999], [2000, 1299]], 12000), method('eu-locker', 'locker', [[25000, 100]])] },
    { id: 'off', name: 'Off', countries: ['AT'], methods: [method('off', 'courier', [[1000, 500]], null, false)] },
  ],
};

const priceOf = (options: ReturnType<typeof deliveryOptions>, id: string) => options.find((o) => o.methodId === id)?.priceCents;

describe('delivery rates', () => {
  it('adds the packaging to the goods and takes the first band that holds the parcel, its edge included', () => {
    // 850 g of coffee + 150 g of packaging = 1000 g: the 1 kg band exactly.
    expect(priceOf(deliveryOptions(table, { country: 'PL', goodsGrams: 850, goodsCents: 1000 }), 'courier')).toBe(499);
    // One gram more is the next band.
    expect(priceOf(deliveryOptions(table, { country: 'PL', goodsGrams: 851, goodsCents: 1000 }), 'courier')).toBe(549);
    expect(priceOf(deliveryOptions(table, { country: 'PL', goodsGrams: 24_850, goodsCents: 1000 }), 'courier')).toBe(1199);
  });

  it('offers no method for a parcel heavier than its last band', () => {
    const options = deliveryOptions(table, { country: 'PL', goodsGrams: 24_851, goodsCents: 1000 });
    expect(options).toEqual([]);
    expect(deliveryOptions(table, { country: 'DE', goodsGrams: 1851, goodsCents: 1000 })).toEqual([]);
  });

  it('is free when the goods reach the threshold exactly, and not a cent before', () => {
    expect(priceOf(deliveryOptions(table, { country: 'PL', goodsGrams: 250, goodsCents: 5000 }), 'locker')).toBe(0);
    expect(priceOf(deliveryOptions(table, { country: 'PL', goodsGrams: 250, goodsCents: 4999 }), 'locker')).toBe(349);
    expect(amountToFreeDelivery(deliveryOptions(table, { country: 'PL', goodsGrams: 250, goodsCents: 4999 }), 4999)).toBe(1);
    expect(amountToFreeDelivery(deliveryOptions(table, { country: 'PL', goodsGrams: 250, goodsCents: 5000 }), 5000)).toBeNull();
  });

  it('quotes a country by its zone; lockers and pickup only in Poland; switched-off methods and unserved countries get nothing', () => {
    const pl = deliveryOptions(table, { country: 'PL', goodsGrams: 250, goodsCents: 1500 });
    expect(pl.map((o) => o.methodId)).toEqual(['pickup', 'locker', 'courier']);
    expect(cheapestDelivery(pl)?.methodId).toBe('locker');
    const de = deliveryOptions(table, { country: 'DE', goodsGrams: 250, goodsCents: 1500 });
    expect(de.map((o) => o.methodId)).toEqual(['eu']);
    expect(amountToFreeDelivery(de, 1500)).toBe(10500);
    expect(deliveryOptions(table, { country: 'AT', goodsGrams: 250, goodsCents: 1500 })).toEqual([]);
    expect(deliveryOptions(table, { country: 'FR', goodsGrams: 250, goodsCents: 1500 })).toEqual([]);
  });

  it('tells a product page the lowest delivery price and the lowest free threshold of the country', () => {
    expect(deliveryTeaser(table, 'PL')).toEqual({ fromCents: 349, freeOverCents: 5000 });
    expect(deliveryTeaser(table, 'CZ')).toEqual({ fromCents: 999, freeOverCents: 12000 });
    expect(deliveryTeaser(table, 'AT')).toBeNull();
    expect(deliveryTeaser(table, 'FR')).toBeNull();
  });

  it('quotes in złoty from the złoty prices and thresholds, converting a table once', () => {
    const pln = inCurrency(table, 'PLN');
    expect(pln.currency).toBe('PLN');
    expect(inCurrency(table, 'PLN')).toBe(pln);
    expect(inCurrency(table, 'EUR')).toBe(table);
    // 49.99 € of goods is not free in euros; 199.96 zł (the złoty threshold is 200.00) is not either, 200.00 zł is.
    expect(priceOf(deliveryOptions(pln, { country: 'PL', goodsGrams: 250, goodsCents: 19_996 }), 'locker')).toBe(1396);
    expect(priceOf(deliveryOptions(pln, { country: 'PL', goodsGrams: 250, goodsCents: 20_000 }), 'locker')).toBe(0);
    expect(deliveryTeaser(pln, 'PL')).toEqual({ fromCents: 1396, freeOverCents: 20_000 });
    expect(amountToFreeDelivery(deliveryOptions(pln, { country: 'DE', goodsGrams: 250, goodsCents: 1500 }), 1500)).toBe(46_500);
  });
});
