import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { listActivity } from '~/modules/activity/index.server';
import { addToCart, getCart } from '~/modules/cart/index.server';
import { createProduct, findVariants, getProduct, markCatalogChanged, setZlotyPrices, updateProduct, variantsOf } from '~/modules/catalog/index.server';
import { nullStorage } from '~/modules/storage/null-storage';
import { DEMO_SALE, seedDemoPromotions } from '~/demo/promotions.server';
import { type SaleSpan, campaignStart, lowestBefore, percentBelow } from './reductions';
import { applySales, createSale, listSales, parseSaleForm, productPriceHistory, recordSaleMoments, stopSale } from './index.server';

const DAY = 86_400_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');
const day = (n: number) => T0 + n * DAY;
const owner = { id: null, email: 'owner@kopi.test' };
const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  return data;
};
const sale = (id: string, from: number, to: number, percent: number): SaleSpan => ({ id, start: day(from), end: day(to), kind: 'percent', percent, prices: null });

describe('the 30-day lowest price before a reduction', () => {
  // Listed at 100 on day 0; 80 for three days (40–43); back to 100; a sale at 70 from day 50.
  const points = [
    { at: day(0), cents: 10_000 },
    { at: day(40), cents: 8000 },
    { at: day(43), cents: 10_000 },
  ];
  const at70: SaleSpan = { id: 'b', start: day(50), end: day(60), kind: 'price', percent: null, prices: { EUR: 7000, PLN: 30_000 } };

  it('is the 80 of the three days, and the percentage comes from it (−12.5%, not −30%)', () => {
    const lowest = lowestBefore(points, [at70], at70.start, 'EUR')!;
    expect(lowest).toBe(8000);
    expect(percentBelow(lowest, 7000)).toBe(12.5);
  });

  it('forgets the 80 once it is more than 30 days before the reduction', () => {
    const later: SaleSpan = { ...at70, id: 'c', start: day(43 + 31), end: day(80) };
    expect(lowestBefore(points, [later], later.start, 'EUR')).toBe(10_000);
    expect(percentBelow(10_000, 7000)).toBe(30);
  });

  it('counts an earlier sale’s price within the window, not outside it', () => {
    const earlier = sale('a', 30, 33, 25);
    expect(lowestBefore([{ at: day(0), cents: 10_000 }], [earlier, at70], at70.start, 'EUR')).toBe(7500);
    expect(lowestBefore([{ at: day(0), cents: 10_000 }], [sale('a', 10, 19, 25), at70], at70.start, 'EUR')).toBe(10_000);
  });

  it('keeps the reference of the campaign’s start when a reduction deepens (sales that follow each other)', () => {
    const first = sale('a', 50, 55, 10);
    const deeper = sale('b', 55, 60, 30);
    expect(campaignStart([first, deeper], deeper, 10_000, 'EUR')).toBe(day(50));
    // From day 50 the 30 days before hold only the regular 100, not the first sale's 90.
    expect(lowestBefore([{ at: day(0), cents: 10_000 }], [first, deeper], campaignStart([first, deeper], deeper, 10_000, 'EUR'), 'EUR')).toBe(10_000);
    // A gap of a day makes it a new reduction, whose 30 days hold the 90.
    const separate = sale('c', 56, 60, 30);
    expect(campaignStart([first, separate], separate, 10_000, 'EUR')).toBe(day(56));
    // A shallower step that follows is a new reduction: its 30 days hold the deeper price (70), so 80 is no reduction.
    const deep = sale('d', 50, 55, 30);
    const shallower = sale('e', 55, 60, 20);
    expect(campaignStart([deep, shallower], shallower, 10_000, 'EUR')).toBe(day(55));
    expect(lowestBefore([{ at: day(0), cents: 10_000 }], [deep, shallower], day(55), 'EUR')).toBe(7000);
    expect(percentBelow(7000, 8000)).toBeNull();
    expect(lowestBefore([{ at: day(0), cents: 10_000 }], [first, separate], day(56), 'EUR')).toBe(9000);
  });

  it('uses the lowest price since listing for a product listed less than 30 days ago, and the regular price for one listed with its sale', () => {
    const fresh = [{ at: day(45), cents: 12_000 }, { at: day(47), cents: 11_000 }];
    expect(lowestBefore(fresh, [at70], at70.start, 'EUR')).toBe(11_000);
    expect(lowestBefore([{ at: day(50), cents: 9000 }], [at70], day(50), 'EUR')).toBe(9000);
  });

  it('never shows a percentage that is not a reduction from the lowest price', () => {
    expect(percentBelow(8000, 8000)).toBeNull();
    expect(percentBelow(8000, 9000)).toBeNull();
    // Rounded down: 1/3 off is 33.3%, never 33.4%.
    expect(percentBelow(3000, 2000)).toBe(33.3);
  });
});

describe('the sale form', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  it('takes a percentage on products from now to an end, in the shop’s zone', () => {
    const parsed = parseSaleForm(form({ scope: 'products', product: ['p1', 'p1', 'p2'], kind: 'percent', percent: '20', endsAt: '2026-12-01T23:59', labelEn: ' Winter  sale ', labelPl: 'Zimowa wyprzedaż' }), 'Europe/Warsaw', now);
    expect(parsed).toEqual({
      ok: true,
      sale: { scope: 'products', targets: ['p1', 'p2'], kind: 'percent', percent: 20, priceCents: null, pricePln: null, startsAt: null, endsAt: new Date('2026-12-01T22:59:00Z'), label: { en: 'Winter sale', pl: 'Zimowa wyprzedaż' } },
    });
  });
  it('refuses negative, over-limit, past and backwards definitions with a reason per field', () => {
    const parsed = parseSaleForm(form({ scope: 'products', kind: 'percent', percent: '-5', startsAt: '2026-11-01T10:00', endsAt: '2026-10-01T10:00', labelEn: 'x'.repeat(41) }), 'Europe/Warsaw', now);
    expect(parsed).toEqual({ ok: false, errors: { targets: 'admin.promotions.errors.targets', percent: 'admin.promotions.errors.percent', startsAt: 'admin.promotions.errors.startsAt', endsAt: 'admin.promotions.errors.endsAt', labelEn: 'admin.promotions.errors.label' } });
    for (const percent of ['0', '91', '150', '12.5', 'abc']) expect(parseSaleForm(form({ scope: 'category', category: 'wholeBean', kind: 'percent', percent, endsAt: '2026-12-01T10:00' }), 'Europe/Warsaw', now)).toMatchObject({ ok: false, errors: { percent: 'admin.promotions.errors.percent' } });
    expect(parseSaleForm(form({ scope: 'category', category: 'tea', kind: 'percent', percent: '10', endsAt: '2026-12-01T10:00' }), 'Europe/Warsaw', now)).toMatchObject({ ok: false, errors: { targets: 'admin.promotions.errors.targets' } });
    expect(parseSaleForm(form({ scope: 'products', product: 'p1', kind: 'price', price: '9.99', endsAt: '2026-12-01T10:00' }), 'Europe/Warsaw', now)).toMatchObject({ ok: false, errors: { targets: 'admin.promotions.errors.priceOneVariant' } });
    expect(parseSaleForm(form({ scope: 'variants', variant: 'v1', kind: 'price', price: '-1', endsAt: '2027-06-01T10:00' }), 'Europe/Warsaw', now)).toMatchObject({ ok: false, errors: { price: 'admin.promotions.errors.price', endsAt: 'admin.promotions.errors.tooLong' } });
  });
});

describe.each(testDatabases())('sales and the price history on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
  });
  afterAll(() => handle.close());

  const product = (name: string, euro: number, pln: number) =>
    createProduct(db, { priceCents: euro, category: 'wholeBean', variants: [{ priceCents: euro, pricePln: pln, netWeightGrams: 250 }], translations: { en: { name } } });
  const variantOf = async (id: string) => (await getProduct(db, nullStorage, id, 'en', 'EUR'))!.variants[0];
  /** Moves a variant's recorded history back by `days` (the test's clock: the shop never rewrites it). */
  const age = async (variantId: string, days: number) => {
    for (const row of await db.selectFrom('price_history').select(['id', 'at']).where('variant_id', '=', variantId).execute()) {
      await db.updateTable('price_history').set({ at: new Date(Date.parse(row.at) - days * DAY).toISOString() }).where('id', '=', row.id).execute();
    }
    markCatalogChanged();
  };

  it('shows 100 → 80 for three days → 100 → a sale at 70 as "lowest €80.00" and −12.5%, in each currency', async () => {
    const id = await product('Java Ijen', 10_000, 42_999);
    const variant = await variantOf(id);
    const input = { priceCents: 10_000, category: 'wholeBean' as const, variants: [{ id: variant.id, priceCents: 10_000, pricePln: 42_999, netWeightGrams: 250 }], translations: { en: { name: 'Java Ijen' } } };
    // Three edits, each recorded; then the record is aged so the 80 ran from 10 to 7 days ago.
    await updateProduct(db, id, { ...input, variants: [{ ...input.variants[0], priceCents: 8000, pricePln: 33_999 }] });
    await age(variant.id, 3);
    await updateProduct(db, id, input);
    await age(variant.id, 7);
    const history = await productPriceHistory(db, id);
    expect(history.filter((h) => h.currency === 'EUR').map((h) => [h.reason, h.priceCents])).toEqual([['edited', 10_000], ['edited', 8000], ['listed', 10_000]]);

    const created = await createSale(db, owner, { scope: 'variants', targets: [variant.id], kind: 'price', percent: null, priceCents: 7000, pricePln: 29_999, startsAt: null, endsAt: new Date(Date.now() + 7 * DAY), label: { en: 'Winter', pl: 'Zima' } });
    expect(created.ok).toBe(true);
    const onSale = await variantOf(id);
    expect(onSale.priceCents).toBe(7000);
    expect(onSale.reduction).toMatchObject({ regularCents: 10_000, lowestCents: 8000, percentOff: 12.5, label: { en: 'Winter', pl: 'Zima' } });
    const inZloty = (await getProduct(db, nullStorage, id, 'pl', 'PLN'))!;
    expect(inZloty.priceCents).toBe(29_999);
    expect(inZloty.defaultVariant.reduction).toMatchObject({ regularCents: 42_999, lowestCents: 33_999, percentOff: 11.7 });
    // The grid sorts it by the price asked.
    const sortPrice = async () => Number((await db.selectFrom('products').select('price_cents').where('id', '=', id).executeTakeFirstOrThrow()).price_cents);
    expect(await sortPrice()).toBe(7000);
    // The admin's reading of the variant is its regular price.
    expect((await findVariants(db, [variant.id])).get(variant.id)!.priceCents).toBe(10_000);
    // The start is in the history, once, however many nodes record it.
    await recordSaleMoments(db);
    await recordSaleMoments(db);
    const started = (await productPriceHistory(db, id)).filter((h) => h.reason === 'sale-started');
    expect(started.map((h) => [h.currency, h.priceCents, h.regularCents])).toEqual(expect.arrayContaining([['EUR', 7000, 10_000], ['PLN', 29_999, 42_999]]));
    expect(started).toHaveLength(2);

    // The cart charges the sale price.
    const added = await addToCart(db, null, variant.id, 2);
    if (!added.ok) throw new Error('not added');
    const cart = await getCart(db, nullStorage, added.cartId, 'en', 'EUR');
    expect(cart.lines[0]).toMatchObject({ unitPriceCents: 7000, lineTotalCents: 14_000, reduction: { saleId: (created as { id: string }).id } });

    // Ending it now writes its end; the page is back at 100.
    expect(await stopSale(db, owner, (created as { id: string }).id)).toMatchObject({ ok: true });
    expect((await variantOf(id)).priceCents).toBe(10_000);
    expect((await variantOf(id)).reduction).toBeUndefined();
    expect(await sortPrice()).toBe(10_000);
    expect((await productPriceHistory(db, id)).filter((h) => h.reason === 'sale-ended')).toHaveLength(2);
    const log = await listActivity(db, { limit: 2 });
    expect(log.map((e) => e.action)).toEqual(['sale.ended', 'sale.created']);
  });

  it('writes a rate change into the history, and a regular price edited during a sale with the price the sale asks', async () => {
    const id = await product('Flores Bajawa', 2000, 8499);
    const variant = await variantOf(id);
    await setZlotyPrices(db, [{ variantId: variant.id, pricePln: 8999 }]);
    await createSale(db, owner, { scope: 'products', targets: [id], kind: 'percent', percent: 20, priceCents: null, pricePln: null, startsAt: null, endsAt: new Date(Date.now() + DAY), label: { en: '', pl: '' } });
    await updateProduct(db, id, { priceCents: 2500, category: 'wholeBean', variants: [{ id: variant.id, priceCents: 2500, pricePln: 8999, netWeightGrams: 250 }], translations: { en: { name: 'Flores Bajawa' } } });
    const history = (await productPriceHistory(db, id)).filter((h) => h.reason !== 'sale-started');
    // Newest first: the edit during the −20% sale (asked 20.00 of 25.00), the złoty price applied, the listing (both currencies at once).
    const rows = history.map((h) => [h.reason, h.currency, h.priceCents, h.regularCents]);
    expect(rows.slice(0, 2)).toEqual([
      ['edited', 'EUR', 2000, 2500],
      ['rate', 'PLN', 8999, 8999],
    ]);
    expect(rows.slice(2).sort()).toEqual([
      ['listed', 'EUR', 2000, 2000],
      ['listed', 'PLN', 8499, 8499],
    ]);
    expect((await variantOf(id)).priceCents).toBe(2000);
  });

  it('refuses a sale overlapping another on the same variant, a new price that is not lower, and lets sales follow each other', async () => {
    const id = await product('Bali Kintamani', 3000, 12_999);
    const variant = await variantOf(id);
    const now = Date.now();
    const base = { scope: 'category' as const, targets: ['wholeBean'], kind: 'percent' as const, percent: 10, priceCents: null, pricePln: null, label: { en: '', pl: '' } };
    const later = await createSale(db, owner, { ...base, scope: 'products', targets: [id], startsAt: new Date(now + 10 * DAY), endsAt: new Date(now + 20 * DAY) });
    expect(later.ok).toBe(true);
    expect(await createSale(db, owner, { ...base, startsAt: new Date(now + 15 * DAY), endsAt: new Date(now + 25 * DAY) })).toEqual({ ok: false, error: 'overlap' });
    // Starting as the other ends is a following sale, not an overlap.
    expect((await createSale(db, owner, { ...base, scope: 'variants', targets: [variant.id], percent: 30, startsAt: new Date(now + 20 * DAY), endsAt: new Date(now + 22 * DAY) })).ok).toBe(true);
    expect(await createSale(db, owner, { ...base, scope: 'variants', targets: [variant.id], kind: 'price', percent: null, priceCents: 3000, pricePln: 9999, startsAt: new Date(now + 30 * DAY), endsAt: new Date(now + 31 * DAY) })).toEqual({ ok: false, error: 'notLower' });
    // Not running yet: regular prices now; at its start, the sale's.
    const [today] = await applySales(db, [variant], 'EUR');
    expect(today.priceCents).toBe(3000);
    const [then] = await applySales(db, [variant], 'EUR', now + 11 * DAY);
    expect(then).toMatchObject({ priceCents: 2700, reduction: { lowestCents: 3000, percentOff: 10 } });
    // The deeper one that follows keeps the campaign's reference: 3000, so −30%.
    const [deeper] = await applySales(db, [variant], 'EUR', now + 21 * DAY);
    expect(deeper).toMatchObject({ priceCents: 2100, reduction: { lowestCents: 3000, percentOff: 30 } });
    // A scheduled sale is deleted, not ended; the owner's list knows what is scheduled.
    const listed = await listSales(db, async () => new Map());
    expect(listed.filter((s) => s.status === 'scheduled').length).toBeGreaterThanOrEqual(2);
    expect(await stopSale(db, owner, (later as { id: string }).id)).toMatchObject({ ok: true });
    expect((await listActivity(db, { limit: 1 }))[0].action).toBe('sale.deleted');
    expect(await stopSale(db, owner, (later as { id: string }).id)).toEqual({ ok: false, error: 'notFound' });
  });

  it('seeds the demo shop’s history and its lawful sale: −11.1% from the flash sale’s 30-day lowest, not −20%', async () => {
    const id = await product('Mandheling Grade 1', 1690, 7199);
    const other = await product('Gayo Wine', 2190, 9299);
    const variants = async (productId: string) => (await variantsOf(db, [productId])).get(productId)!;
    await seedDemoPromotions(db, [
      { demo: { key: DEMO_SALE, daysAgo: 41 }, id, variants: await variants(id) },
      { demo: { key: 'gayo', daysAgo: 30 }, id: other, variants: await variants(other) },
    ]);
    markCatalogChanged();
    const onSale = (await getProduct(db, nullStorage, id, 'pl', 'PLN'))!;
    expect(onSale.priceCents).toBe(Math.round(7199 * 0.8));
    expect(onSale.defaultVariant.reduction).toMatchObject({ lowestCents: Math.round(7199 * 0.9), percentOff: 11.1, label: { pl: 'Zeszłoroczne zbiory' } });
    const gayo = await productPriceHistory(db, other);
    expect(gayo.filter((h) => h.currency === 'EUR').map((h) => [h.reason, h.priceCents])).toEqual([['edited', 2190], ['listed', 2090]]);
    expect((await getProduct(db, nullStorage, other, 'en', 'EUR'))!.defaultVariant.reduction).toBeUndefined();
  });
});
