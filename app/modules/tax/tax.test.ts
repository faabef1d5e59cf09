/**
 * VAT on real orders (docs/decisions/0027): the rate looked up by country and class with OSS off and on, the
 * owner's overrides, and what checkout stores on each line, the delivery and a refund.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { listActivity } from '~/modules/activity/index.server';
import { deliveryStep, startPayment, payWithCard, type PaymentServices } from '~/modules/checkout/index.server';
import { createLockerDirectory } from '~/modules/delivery/index.server';
import { cancelOrder, recordRefundEvent } from '~/modules/fulfilment/index.server';
import { getOrderForUser, getOrderRecordLines, findOrderRecord, orderLabel } from '~/modules/orders/index.server';
import { TEST_CARDS, createTestPaymentProvider, type PaymentProvider } from '~/modules/payments/index.server';
import { address, courier, createCoffee, createUser, fillCart, pickup, storage } from '../../../tests/fixtures/shop';
import { crossBorderSales, exportOssCsv, ossQuarter, quarterOf } from '~/modules/reports/index.server';
import { type VatPart, sumByRate } from './vat';
import { listTaxRates, orderTaxRates, saveOssSetting, saveTaxRates, taxSettings } from './index.server';

const owner = { id: null, email: 'owner@kopi.test' };
const card = { number: TEST_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
const germany = { country: 'DE', methodId: 'method-eu-courier' } as const;

describe.each(testDatabases())('VAT on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let provider: PaymentProvider;
  let services: PaymentServices;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    provider = createTestPaymentProvider(db);
    services = { db, payments: provider, contactTo: 'shop@kopi.test', publicUrl: 'https://kopi.test', kickMail: () => {} };
  });
  afterAll(() => handle.close());

  /** A customer's paid order of these coffees (name, cents, quantity), delivered as asked. */
  async function paidOrder(items: Array<[string, number, number, ('coffee' | 'other')?]>, delivery: { country: string; methodId: string } = courier, locale: 'en' | 'pl' = 'en') {
    const user = await createUser(db);
    const products: Array<[string, number]> = [];
    for (const [name, cents, quantity, taxClass] of items) {
      const id = await createCoffee(db, name, cents);
      if (taxClass) await db.updateTable('products').set({ tax_class: taxClass }).where('id', '=', id).execute();
      products.push([id, quantity]);
    }
    const cartId = await fillCart(db, user.id, products);
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale, currency: 'EUR', cartId, address, delivery });
    if (!started.ok) throw new Error(started.reason);
    expect(await payWithCard(services, { userId: user.id, orderId: started.orderId, card })).toEqual({ ok: true, orderId: started.orderId });
    return { userId: user.id, email: user.email, orderId: started.orderId };
  }

  it('ships a rate for every country and class; the owner overrides one and goes back to Kopi’s, each change logged', async () => {
    const before = await listTaxRates(db);
    expect(before.ossRegistered).toBe(false);
    expect(before.rates).toHaveLength(27 * 2);
    expect(before.rates.find((r) => r.country === 'DE' && r.taxClass === 'coffee')).toMatchObject({ rateBp: 700, shippedBp: 700, overridden: false });

    expect(await saveTaxRates(db, owner, [{ country: 'DE', taxClass: 'coffee', rateBp: 550 }])).toEqual({ ok: true, changed: 1 });
    expect((await taxSettings(db)).rates.DE.coffee).toBe(550);
    expect((await listTaxRates(db)).rates.find((r) => r.country === 'DE' && r.taxClass === 'coffee')).toMatchObject({ rateBp: 550, shippedBp: 700, overridden: true });
    expect(await saveTaxRates(db, owner, [{ country: 'DE', taxClass: 'coffee', rateBp: null }])).toEqual({ ok: true, changed: 1 });
    expect((await taxSettings(db)).rates.DE.coffee).toBe(700);
    expect((await listActivity(db, { limit: 5 })).filter((e) => e.action === 'tax.changed').map((e) => e.details.rateBp)).toEqual([
      [550, 700],
      [700, 550],
    ]);

    // Outside the lists or 0–50%: refused, nothing changed.
    for (const bad of [
      { country: 'US', taxClass: 'coffee', rateBp: 500 },
      { country: 'DE', taxClass: 'wine', rateBp: 500 },
      { country: 'DE', taxClass: 'coffee', rateBp: 5001 },
      { country: 'DE', taxClass: 'coffee', rateBp: -1 },
      { country: 'DE', taxClass: 'coffee', rateBp: 5.5 },
    ]) {
      expect(await saveTaxRates(db, owner, [{ country: 'PL', taxClass: 'coffee', rateBp: 800 }, bad])).toEqual({ ok: false });
    }
    expect((await taxSettings(db)).rates.PL.coffee).toBe(2300);
  });

  it('OSS off: Polish VAT wherever the coffee goes; on: a consumer elsewhere in the EU pays their country’s, a pickup Poland’s', async () => {
    expect(await orderTaxRates(db, { country: 'DE', kind: 'courier' })).toEqual({ country: 'PL', rates: { coffee: 2300, other: 2300 }, reprice: null });
    await saveOssSetting(db, owner, true);
    try {
      expect(await orderTaxRates(db, { country: 'DE', kind: 'courier' })).toEqual({ country: 'DE', rates: { coffee: 700, other: 1900 }, reprice: null });
      expect(await orderTaxRates(db, { country: 'FI', kind: 'courier' })).toEqual({ country: 'FI', rates: { coffee: 1350, other: 2550 }, reprice: null });
      expect(await orderTaxRates(db, { country: 'PL', kind: 'courier' })).toMatchObject({ country: 'PL' });
      expect(await orderTaxRates(db, { country: 'DE', kind: 'pickup' })).toMatchObject({ country: 'PL' });
    } finally {
      await saveOssSetting(db, owner, false);
    }
    const logged = (await listActivity(db, { limit: 3 })).filter((e) => e.details.what === 'oss').map((e) => e.details.ossRegistered);
    expect(logged).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('an order stores each line’s and the delivery’s net, rate and VAT, adding up to the amount charged', async () => {
    // 2 × 12.50 € and 1 × 8.99 € of goods, and the courier's 4.99 €: 38.98 € at 23%.
    const o = await paidOrder([
      ['Vat Gayo', 1250, 2],
      ['Vat Toraja', 899, 1],
    ]);
    const order = (await findOrderRecord(db, o.orderId))!;
    const lines = await getOrderRecordLines(db, o.orderId);
    expect(order.taxCountry).toBe('PL');
    expect(lines.map((l) => l.vat)).toEqual([
      { rateBp: 2300, grossCents: 2500, netCents: 2033, vatCents: 467 },
      { rateBp: 2300, grossCents: 899, netCents: 731, vatCents: 168 },
    ]);
    expect(order.deliveryVat).toEqual([{ rateBp: 2300, grossCents: 499, netCents: 406, vatCents: 93 }]);
    expect(order.vatCents).toBe(467 + 168 + 93);
    expect(order.totalCents).toBe(2500 + 899 + 499);
    const view = (await getOrderForUser(db, storage, o.userId, o.orderId))!;
    expect(view.vat).toEqual([{ rateBp: 2300, grossCents: 3898, netCents: 3898 - 728, vatCents: 728 }]);
  });

  it('under OSS a German consumer pays German VAT: coffee 7%, other goods 19%, the delivery split over both', async () => {
    await saveOssSetting(db, owner, true);
    try {
      const o = await paidOrder(
        [
          ['Vat Kerinci', 3000, 1],
          ['Vat Mug', 1000, 1, 'other'],
        ],
        germany,
      );
      const order = (await findOrderRecord(db, o.orderId))!;
      const lines = await getOrderRecordLines(db, o.orderId);
      expect(order.taxCountry).toBe('DE');
      expect(lines.map((l) => l.vat?.rateBp)).toEqual([700, 1900]);
      // 40.00 € of goods to Germany: the EU courier's 16.99 € for 1–2 kg … whatever it is, split 3:1 over the rates.
      const delivery = order.delivery!.priceCents;
      expect(order.deliveryVat.map((p) => p.rateBp)).toEqual([1900, 700]);
      expect(order.deliveryVat.reduce((sum, p) => sum + p.grossCents, 0)).toBe(delivery);
      const parts = [...lines.map((l) => l.vat!), ...order.deliveryVat];
      expect(parts.reduce((sum, p) => sum + p.netCents + p.vatCents, 0)).toBe(order.totalCents);
      expect(parts.reduce((sum, p) => sum + p.vatCents, 0)).toBe(order.vatCents);
    } finally {
      await saveOssSetting(db, owner, false);
    }
  });

  it('prices that follow the rate: a German consumer pays the same net price plus German VAT; Poland and pickups keep the shop’s prices; logged', async () => {
    await saveOssSetting(db, owner, true, true);
    try {
      expect((await listActivity(db, { limit: 2 })).map((e) => e.details.what).sort()).toEqual(['oss', 'prices']);
      expect(await orderTaxRates(db, { country: 'DE', kind: 'courier' })).toEqual({
        country: 'DE',
        rates: { coffee: 700, other: 1900 },
        reprice: { from: { coffee: 2300, other: 2300 }, to: { coffee: 700, other: 1900 } },
      });
      expect((await orderTaxRates(db, { country: 'PL', kind: 'courier' })).reprice).toBeNull();
      expect((await orderTaxRates(db, { country: 'DE', kind: 'pickup' })).reprice).toBeNull();

      // 2 × 24.60 € of coffee (20.00 € net each at 23%) cost 2 × 21.40 € at 7%; an 11.90 € mug (other goods) 11.51 € at 19%.
      const o = await paidOrder(
        [
          ['Follow Kerinci', 2460, 2],
          ['Follow Mug', 1190, 1, 'other'],
        ],
        germany,
      );
      const order = (await findOrderRecord(db, o.orderId))!;
      const lines = await getOrderRecordLines(db, o.orderId);
      expect(order).toMatchObject({ taxCountry: 'DE', pricesFollowRate: true });
      expect(lines.map((l) => [l.unitPriceCents, l.vat])).toEqual([
        [2140, { rateBp: 700, grossCents: 4280, netCents: 4000, vatCents: 280 }],
        [1151, { rateBp: 1900, grossCents: 1151, netCents: 967, vatCents: 184 }],
      ]);
      expect(order.goodsCents).toBe(4280 + 1151);
      expect(order.totalCents).toBe(4280 + 1151 + order.delivery!.priceCents);
      const parts = [...lines.map((l) => l.vat!), ...order.deliveryVat];
      expect(parts.reduce((sum, p) => sum + p.grossCents, 0)).toBe(order.totalCents);

      // To Poland: the shop's prices.
      const home = await paidOrder([['Follow Home', 2460, 1]]);
      expect((await getOrderRecordLines(db, home.orderId))[0]!.unitPriceCents).toBe(2460);
      expect((await findOrderRecord(db, home.orderId))!.pricesFollowRate).toBe(false);
    } finally {
      await saveOssSetting(db, owner, false, false);
    }
  });

  it('prices that follow the rate: the delivery step shows the cart at the prices the order is charged, and says so', async () => {
    const lockers = createLockerDirectory({ baseUrl: 'http://127.0.0.1:9' });
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, [[await createCoffee(db, 'Step Kerinci', 2460), 2]]);
    const step = (country: string) => deliveryStep(db, storage, lockers, { userId: user.id, cartId, locale: 'en', currency: 'EUR', country });
    await saveOssSetting(db, owner, true, true);
    try {
      const abroad = await step('DE');
      expect(abroad.pricesIn).toBe('DE');
      expect(abroad.cart.lines.map((l) => l.unitPriceCents)).toEqual([2140]);
      expect(abroad.cart.totalCents).toBe(4280);
      const home = await step('PL');
      expect(home.pricesIn).toBeNull();
      expect(home.cart.lines.map((l) => l.unitPriceCents)).toEqual([2460]);
      // What the step showed is what the order charges for the goods.
      const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: germany });
      if (!started.ok) throw new Error(started.reason);
      expect((await findOrderRecord(db, started.orderId))!.goodsCents).toBe(abroad.cart.totalCents);
    } finally {
      await saveOssSetting(db, owner, true, false);
    }
    // One price everywhere: the shop's prices, no note.
    try {
      const same = await step('DE');
      expect(same.pricesIn).toBeNull();
      expect(same.cart.totalCents).toBe(4920);
    } finally {
      await saveOssSetting(db, owner, false, false);
    }
  });

  it('an order priced at the buyer’s VAT keeps its prices past a lapsed hold while they hold; switched back to one price, it is re-priced', async () => {
    const lapse = async (orderId: string) => {
      await db.updateTable('orders').set({ created_at: new Date(Date.now() - 16 * 60_000).toISOString() }).where('id', '=', orderId).execute();
      await db.updateTable('stock_reservations').set({ expires_at: new Date(Date.now() - 60_000).toISOString() }).where('order_id', '=', orderId).execute();
    };
    async function startedOrder(name: string) {
      const user = await createUser(db);
      const cartId = await fillCart(db, user.id, [[await createCoffee(db, name, 2460), 1]]);
      const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: germany });
      if (!started.ok) throw new Error(started.reason);
      return { userId: user.id, orderId: started.orderId };
    }
    await saveOssSetting(db, owner, true, true);
    try {
      const kept = await startedOrder('Follow Lapsed');
      await lapse(kept.orderId);
      expect(await payWithCard(services, { userId: kept.userId, orderId: kept.orderId, card })).toEqual({ ok: true, orderId: kept.orderId });
      expect((await getOrderRecordLines(db, kept.orderId))[0]!.unitPriceCents).toBe(2140);

      const repriced = await startedOrder('Follow Switched');
      await saveOssSetting(db, owner, true, false);
      await lapse(repriced.orderId);
      expect(await payWithCard(services, { userId: repriced.userId, orderId: repriced.orderId, card })).toEqual({ ok: false, code: 'prices_changed' });
    } finally {
      await saveOssSetting(db, owner, false, false);
    }
  });

  it('the year’s cross-border consumer sales count net, refunds out; the OSS report lists the quarter per country and rate', async () => {
    const zone = 'Europe/Warsaw';
    const year = Number(new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric' }).format(new Date()));
    const quarter = quarterOf(Number(new Intl.DateTimeFormat('en-CA', { timeZone: zone, month: 'numeric' }).format(new Date())));
    const before = await crossBorderSales(db, { year, timeZone: zone });
    const reportBefore = await ossQuarter(db, { year, quarter, timeZone: zone });
    // Before OSS: a German consumer's order pays Polish VAT; it counts towards the threshold, not in the OSS report.
    const polish = await paidOrder([['Vat Bali', 2460, 1]], germany);
    const polishOrder = (await findOrderRecord(db, polish.orderId))!;
    expect(polishOrder.taxCountry).toBe('PL');
    const after = await crossBorderSales(db, { year, timeZone: zone });
    expect(after.netCents.EUR - before.netCents.EUR).toBe(polishOrder.totalCents - polishOrder.vatCents);
    expect(await ossQuarter(db, { year, quarter, timeZone: zone })).toEqual(reportBefore);

    await saveOssSetting(db, owner, true);
    try {
      const o = await paidOrder([['Vat Sulawesi', 3210, 1]], germany);
      const order = (await findOrderRecord(db, o.orderId))!;
      const report = await ossQuarter(db, { year, quarter, timeZone: zone });
      const row = report.find((r) => r.kind === 'sales' && r.country === 'DE' && r.rateBp === 700 && r.currency === 'EUR')!;
      const was = reportBefore.find((r) => r.kind === 'sales' && r.country === 'DE' && r.rateBp === 700 && r.currency === 'EUR') ?? { netCents: 0, vatCents: 0, orders: 0 };
      expect(row.vatCents - was.vatCents).toBe(order.vatCents);
      expect(row.netCents - was.netCents).toBe(order.totalCents - order.vatCents);
      expect(row.orders - was.orders).toBe(1);
      // Cancelled and refunded: the refund is reported apart, negative, in the quarter it was made.
      expect((await cancelOrder({ db, payments: provider }, owner, o.orderId, { backToStock: true })).ok).toBe(true);
      const refunds = (await ossQuarter(db, { year, quarter, timeZone: zone })).find((r) => r.kind === 'refunds' && r.country === 'DE' && r.rateBp === 700)!;
      expect(refunds.vatCents).toBeLessThan(0);
      const csv = await exportOssCsv(db, { year, quarter, timeZone: zone, locale: 'pl' });
      expect(csv.split('\r\n')[0]).toBe('\uFEFFOkres;Rodzaj;Kraj;Stawka VAT (%);Waluta;Netto;VAT;Zamówienia');
      expect(csv).toContain(`${year}-Q${quarter};Zwroty;DE;7;EUR;-`);
      // Refunded in full, it no longer counts towards the threshold.
      expect((await crossBorderSales(db, { year, timeZone: zone })).netCents.EUR).toBe(after.netCents.EUR);
    } finally {
      await saveOssSetting(db, owner, false);
    }
  });

  it('the OSS threshold warns from 80% of €10,000 of the year’s net cross-border sales: at 8,000.00 €, not at 7,999.99 €; past it, the next year too', async () => {
    // A year of its own (the orders are moved there once paid), so nothing else in this database counts.
    const zone = 'Europe/Warsaw';
    const year = 2019;
    const moveToYear = (orderId: string) => db.updateTable('orders').set({ paid_at: `${year}-06-14T10:00:00.000Z` }).where('id', '=', orderId).execute();
    expect(await crossBorderSales(db, { year, timeZone: zone })).toMatchObject({ totalEurCents: 0, share: 0, warn: false, passed: false, passedLastYear: false });

    // OSS off, so Polish VAT: 9,840.00 € of coffee to a German consumer is 8,000.00 € net at 23% (the EU courier is free from 120 €).
    const at = await paidOrder([['Threshold Bulk', 984_000, 1]], germany);
    const order = (await findOrderRecord(db, at.orderId))!;
    expect(order).toMatchObject({ totalCents: 984_000, vatCents: 184_000, taxCountry: 'PL' });
    await moveToYear(at.orderId);
    expect(await crossBorderSales(db, { year, timeZone: zone })).toMatchObject({ netCents: { EUR: 800_000, PLN: 0 }, totalEurCents: 800_000, thresholdCents: 1_000_000, share: 0.8, warn: true, passed: false });

    // One cent given back (no VAT in it): 7,999.99 € net, just under 80%, no warning.
    expect(await recordRefundEvent(db, { orderId: at.orderId, provider: provider.name, amountRefundedCents: 1, refunds: null })).toBe('refund_recorded');
    const under = await crossBorderSales(db, { year, timeZone: zone });
    expect(under).toMatchObject({ totalEurCents: 799_999, warn: false, passed: false });
    expect(under.share).toBeLessThan(0.8);

    // 2,460.00 € more (2,000.00 € net): past the threshold, and the year after warns from its first day.
    const over = await paidOrder([['Threshold More', 246_000, 1]], germany);
    await moveToYear(over.orderId);
    expect(await crossBorderSales(db, { year, timeZone: zone })).toMatchObject({ totalEurCents: 999_999, warn: true, passed: false });
    const third = await paidOrder([['Threshold Past', 123, 1]], germany);
    await moveToYear(third.orderId);
    const past = await crossBorderSales(db, { year, timeZone: zone });
    expect(past.totalEurCents).toBeGreaterThan(1_000_000);
    expect(past).toMatchObject({ warn: true, passed: true });
    expect(await crossBorderSales(db, { year: year + 1, timeZone: zone })).toMatchObject({ totalEurCents: 0, share: 0, warn: true, passed: false, passedLastYear: true });
  });

  it('the order mails say the VAT inside the total, per rate, in the order’s language', async () => {
    const mailsTo = (to: string) => db.selectFrom('mail_outbox').select(['subject', 'text_body', 'html_body']).where('to_address', '=', to).execute();
    // 38.98 € at 23% (as above): 7.28 € of VAT.
    const en = await paidOrder([
      ['Mail Gayo', 1250, 2],
      ['Mail Toraja', 899, 1],
    ]);
    const [confirmation] = (await mailsTo(en.email)).filter((m) => m.subject === `Your Kopi order ${orderLabel(en.orderId)}`);
    expect(confirmation!.text_body).toContain('Total: €38.98\nincl. VAT €7.28 (23%)\n');
    expect(confirmation!.html_body).toContain('incl. VAT €7.28 (23%)');

    // A Polish order under OSS to Germany: 30.00 € of coffee at 7% and a 10.00 € mug at 19%, with the EU courier's
    // 9.99 € split over them (7.49 € and 2.50 €): 1.96 + 0.49 € and 1.60 + 0.40 € of VAT, the higher rate first.
    await saveOssSetting(db, owner, true);
    let pl: { orderId: string; email: string };
    try {
      pl = await paidOrder(
        [
          ['Mail Kerinci', 3000, 1],
          ['Mail Kubek', 1000, 1, 'other'],
        ],
        germany,
        'pl',
      );
    } finally {
      await saveOssSetting(db, owner, false);
    }
    const [potwierdzenie] = (await mailsTo(pl.email)).filter((m) => m.subject === `Twoje zamówienie Kopi ${orderLabel(pl.orderId)}`);
    expect(potwierdzenie!.text_body).toContain('Razem: 49,99\u00a0€\nw tym VAT 2,00\u00a0€ (19%) · w tym VAT 2,45\u00a0€ (7%)\n');
    // The shop's own notice is in English, with the country whose VAT it is.
    const [notice] = (await mailsTo('shop@kopi.test')).filter((m) => m.subject.startsWith(`[Kopi order] ${orderLabel(pl.orderId)}`));
    expect(notice!.text_body).toContain('VAT: incl. VAT €2.00 (19%) · incl. VAT €2.45 (7%) — DE\n');
  });

  it('refunds in steps return exactly the order’s VAT per rate in the end: each is spread over what is left', async () => {
    await saveOssSetting(db, owner, true);
    try {
      const o = await paidOrder(
        [
          ['Steps Coffee', 3000, 1],
          ['Steps Mug', 1000, 1, 'other'],
        ],
        germany,
      );
      const order = (await findOrderRecord(db, o.orderId))!;
      const lines = await getOrderRecordLines(db, o.orderId);
      const charged = sumByRate([...lines.map((l) => l.vat!), ...order.deliveryVat]);
      // A refund made in the provider's dashboard (no lines named), then the cancellation of the rest.
      await recordRefundEvent(db, { orderId: o.orderId, provider: provider.name, amountRefundedCents: 1001, refunds: [{ id: 're_steps_1', amountCents: 1001, status: 'succeeded' }] });
      expect(await cancelOrder({ db, payments: provider }, owner, o.orderId, { backToStock: true })).toMatchObject({ ok: true });
      const refunds = await db.selectFrom('refunds').select(['amount_cents', 'tax']).where('order_id', '=', o.orderId).execute();
      expect(refunds.reduce((sum, r) => sum + Number(r.amount_cents), 0)).toBe(order.totalCents);
      expect(sumByRate(refunds.flatMap((r) => JSON.parse(r.tax!) as VatPart[]))).toEqual(charged);
    } finally {
      await saveOssSetting(db, owner, false);
    }
  });

  it('a cancellation’s refund stores its VAT: the whole order’s, per rate', async () => {
    const o = await paidOrder([['Vat Flores', 2000, 1]], pickup);
    expect(await cancelOrder({ db, payments: provider }, owner, o.orderId, { backToStock: true })).toEqual({ ok: true, refundedCents: 2000 });
    const refund = await db.selectFrom('refunds').select(['amount_cents', 'vat_cents', 'tax']).where('order_id', '=', o.orderId).executeTakeFirstOrThrow();
    expect(Number(refund.vat_cents)).toBe(374);
    expect(JSON.parse(refund.tax!)).toEqual([{ rateBp: 2300, grossCents: 2000, netCents: 1626, vatCents: 374 }]);
  });
});
