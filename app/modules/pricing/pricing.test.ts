import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { listActivity } from '~/modules/activity/index.server';
import { applyZlotyPrices, proposeZlotyPrices } from '~/modules/backoffice/index.server';
import { createProduct, getProduct, listProducts } from '~/modules/catalog/index.server';
import { getDeliveryTable } from '~/modules/delivery/index.server';
import { nullStorage } from '~/modules/storage/null-storage';
import { parseCurrencyForm, parseRate, rateText } from '~/modules/backoffice/currency-form';
import { proposePrice, proposeThreshold } from './currencies';
import { currencySettings, requestCurrency, saveCurrencySettings } from './index.server';

const owner = { id: null, email: 'owner@kopi.test' };
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe('złoty prices proposed from euro prices', () => {
  it('rounds to the nearest price with the chosen ending, never below the smallest one', () => {
    // 12.50 € × 4.30 = 53.75 zł
    expect(proposePrice(1250, 43_000, '99')).toBe(5399);
    expect(proposePrice(1250, 43_000, '49')).toBe(5349);
    expect(proposePrice(1250, 43_000, '00')).toBe(5400);
    // 29.99 € × 4.30 = 128.957 zł: 128.99 is nearer than 127.99.
    expect(proposePrice(2999, 43_000, '99')).toBe(12_899);
    // 10.00 € × 4.25 = 42.50 zł: 42.99 is nearer (0.49) than 41.99 (0.51).
    expect(proposePrice(1000, 42_500, '99')).toBe(4299);
    // Exactly halfway goes up: 1.00 € × 4.50 = 4.50 zł → 5.00 zł in whole złoty.
    expect(proposePrice(100, 45_000, '00')).toBe(500);
    expect(proposePrice(1, 42_500, '99')).toBe(99);
    expect(proposePrice(1, 42_500, '00')).toBe(100);
    // Large amounts stay exact: 9,999.99 € × 4.2512 = 42,511.96 zł → 42,511.99 zł.
    expect(proposePrice(999_999, 42_512, '99')).toBe(4_251_199);
  });

  it('proposes a free-delivery threshold as a round amount, as a Polish shop writes one', () => {
    // 50 € × 4.25 = 212.50 zł → 200 zł (not 212.99 zł); 80 € → 340 → 350 zł; 20 € → 85 → 90 zł; 150 € → 637.50 → 600 zł.
    expect(proposeThreshold(5000, 42_500)).toBe(20_000);
    expect(proposeThreshold(8000, 42_500)).toBe(35_000);
    expect(proposeThreshold(2000, 42_500)).toBe(9_000);
    expect(proposeThreshold(15_000, 42_500)).toBe(60_000);
    // Ties go up; a tiny threshold is never 0; free is free.
    expect(proposeThreshold(2500, 50_000)).toBe(15_000);
    expect(proposeThreshold(1, 42_500)).toBe(1_000);
    expect(proposeThreshold(0, 42_500)).toBe(0);
  });

  it('reads the rate as the owner types it, in either decimal mark, and writes it back', () => {
    expect(parseRate('4.25')).toBe(42_500);
    expect(parseRate(' 4,2512 ')).toBe(42_512);
    expect(parseRate('10')).toBe(100_000);
    for (const wrong of ['', '0.99', '10.01', '4.12345', '4,25 zł', '-4', '1e1']) expect(parseRate(wrong), wrong).toBeNull();
    expect(rateText(42_500)).toBe('4.25');
    expect(rateText(40_000)).toBe('4.00');
    expect(rateText(42_512)).toBe('4.2512');
  });

  it('checks the settings form field by field', () => {
    expect(parseCurrencyForm(form({ defaultEn: 'EUR', defaultPl: 'PLN', rate: '4,3', rounding: '49' }))).toEqual({
      ok: true,
      form: { defaults: { en: 'EUR', pl: 'PLN' }, rate: 43_000, rounding: '49' },
    });
    expect(parseCurrencyForm(form({ defaultEn: 'USD', defaultPl: 'PLN', rate: '0', rounding: '95' }))).toEqual({
      ok: false,
      errors: { defaultEn: 'currency', rate: 'rate', rounding: 'rounding' },
    });
  });
});

describe.each(testDatabases())('currencies on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
  });
  afterAll(() => handle.close());

  it('prices a request in the shopper’s choice, else in the owner’s default for its language (euros out of the box)', async () => {
    expect(await requestCurrency(db, 'pl', null)).toBe('EUR');
    expect(await requestCurrency(db, 'en', 'PLN')).toBe('PLN');
    expect(await requestCurrency(db, 'pl', 'USD')).toBe('EUR');
    await saveCurrencySettings(db, owner, { defaults: { en: 'EUR', pl: 'PLN' }, rate: 43_000, rounding: '99' });
    expect(await requestCurrency(db, 'pl', null)).toBe('PLN');
    expect(await requestCurrency(db, 'en', null)).toBe('EUR');
    expect(await requestCurrency(db, 'pl', 'EUR')).toBe('EUR');
    const [entry] = await listActivity(db, { limit: 1 });
    expect(entry).toMatchObject({ action: 'currency.changed', actorEmail: owner.email, details: { defaultPl: ['EUR', 'PLN'], rate: [42_500, 43_000] } });
    // Saving the same settings again changes nothing and logs nothing.
    await saveCurrencySettings(db, owner, await currencySettings(db));
    expect((await listActivity(db, { limit: 1 }))[0].id).toBe(entry.id);
    await saveCurrencySettings(db, owner, { defaults: { en: 'EUR', pl: 'EUR' }, rate: 42_500, rounding: '99' });
  });

  it('lists a product, sorts and shows it in the currency asked for', async () => {
    const cheapInZloty = await createProduct(db, { priceCents: 2000, variants: [{ priceCents: 2000, pricePln: 5000, netWeightGrams: 250 }], translations: { en: { name: 'Flores Bajawa' } } });
    const cheapInEuros = await createProduct(db, { priceCents: 1500, variants: [{ priceCents: 1500, pricePln: 9000, netWeightGrams: 250 }], translations: { en: { name: 'Bali Kintamani' } } });
    const order = async (currency: 'EUR' | 'PLN') =>
      (await listProducts(db, nullStorage, { locale: 'en', sort: 'price-asc', limit: 50, offset: 0, currency })).items.map((p) => p.id).filter((id) => id === cheapInZloty || id === cheapInEuros);
    expect(await order('EUR')).toEqual([cheapInEuros, cheapInZloty]);
    expect(await order('PLN')).toEqual([cheapInZloty, cheapInEuros]);
    expect((await getProduct(db, nullStorage, cheapInZloty, 'pl', 'PLN'))!.priceCents).toBe(5000);
    expect((await getProduct(db, nullStorage, cheapInZloty, 'pl', 'EUR'))!.priceCents).toBe(2000);
  });

  it('proposes złoty prices at the shop rate, and applies only those ticked and still as shown, logged', async () => {
    const id = await createProduct(db, { priceCents: 1250, variants: [{ priceCents: 1250, pricePln: 5000, netWeightGrams: 250 }], translations: { en: { name: 'Toraja Sapan' } } });
    await saveCurrencySettings(db, owner, { defaults: { en: 'EUR', pl: 'EUR' }, rate: 43_000, rounding: '99' });
    const { proposals } = await proposeZlotyPrices(db, 'en');
    const mine = proposals.find((p) => p.kind === 'variant' && p.name === 'Toraja Sapan')!;
    expect(mine).toMatchObject({ euroCents: 1250, currentPln: 5000, proposedPln: 5399 });
    // The seeded delivery rates were proposed at 4.25; at 4.30 the locker's heaviest band (5.99 € → 25.76 zł) becomes 25.99 zł.
    const band = proposals.find((p) => p.kind === 'band' && p.detail.deliveryKind === 'locker' && p.detail.maxGrams === 25_000)!;
    expect(band).toMatchObject({ euroCents: 599, proposedPln: 2599 });
    // A key that no longer holds (shown at another price) is skipped, not applied.
    const stale = mine.key.replace(/:\d+$/, ':1');
    expect(await applyZlotyPrices(db, owner, [mine.key, band.key, stale], 'en')).toEqual({ applied: 2, skipped: 1 });
    expect((await getProduct(db, nullStorage, id, 'en', 'PLN'))!.priceCents).toBe(5399);
    const table = await getDeliveryTable(db);
    expect(table.zones[0].methods.find((m) => m.kind === 'locker')!.bands.at(-1)!.prices).toEqual({ EUR: 599, PLN: 2599 });
    const [entry] = await listActivity(db, { limit: 1 });
    expect(entry).toMatchObject({ action: 'prices.proposed', details: { rate: 43_000, variants: 1, delivery: 1 } });
    // Applied prices are no longer proposed.
    expect((await proposeZlotyPrices(db, 'en')).proposals.some((p) => p.key === mine.key || p.key === band.key)).toBe(false);
    await saveCurrencySettings(db, owner, { defaults: { en: 'EUR', pl: 'EUR' }, rate: 42_500, rounding: '99' });
  });
});
