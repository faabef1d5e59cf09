/**
 * The dashboard's figures and the CSV export against a scripted set of orders, refunds, withdrawals and
 * analytics events on SQLite and PostgreSQL: exact numbers, what was kept (a cancelled refunded order and a
 * line withdrawn from are not counted, their refunds are), and days that begin at midnight Warsaw time (winter
 * +1 h, summer +2 h, and the 25-hour day when the clocks go back).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { createCoffee, createUser } from '../../../tests/fixtures/shop';
import { nullStorage } from '~/modules/storage/null-storage';
import { exportOrdersCsv, getDashboard, startOfShopDay } from './index.server';
import { orderVat } from '~/modules/tax/index.server';

/** A CSV row's cells without its net, VAT rate and VAT (the tests that are about something else). */
const noVat = (row: string, separator = ','): string[] => {
  const cells = row.split(separator);
  cells.splice(10, 3);
  return cells;
};

const zone = 'Europe/Warsaw';
// "Now" is 23 November 2026, 10:00 in Warsaw (09:00 UTC).
const now = new Date('2026-11-23T09:00:00Z');

describe.each(testDatabases())('reports on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let gayo: string;
  let toraja: string;
  let userId: string;

  type Line = [productId: string, title: string, unitCents: number, quantity: number];
  async function order(
    paidAt: string,
    lines: Line[],
    extra: { status?: string; name?: string; payment?: string; refunded?: number; delivery?: { kind: string; cents: number; point?: string }; currency?: string } = {},
  ) {
    const id = newId();
    const goods = lines.reduce((sum, [, , unit, qty]) => sum + unit * qty, 0);
    const total = goods + (extra.delivery?.cents ?? 0);
    // Polish VAT at 23%, as checkout records it.
    const vat = orderVat(lines.map(([, , unit, qty]) => ({ grossCents: unit * qty, rateBp: 2300 })), extra.delivery?.cents ?? 0);
    await db
      .insertInto('orders')
      .values({
        id,
        user_id: userId,
        user_email: 'ola@example.com',
        locale: 'pl',
        cart_id: null,
        total_cents: total,
        currency: extra.currency ?? 'EUR',
        payment_provider: 'test',
        payment_intent_id: `tp_${id}`,
        payment_client_secret: null,
        cart_fingerprint: id,
        payment_status: extra.payment ?? 'succeeded',
        shipping_status: extra.status ?? 'processing',
        shipping_full_name: extra.name ?? 'Ola Nowak',
        shipping_address: 'ul. Kwiatowa 5',
        shipping_city: 'Kraków',
        shipping_zip_code: '30-001',
        created_at: paidAt,
        paid_at: extra.payment === 'pending' ? null : paidAt,
        visitor_id: null,
        refunded_cents: extra.refunded ?? 0,
        cancelled_at: extra.status === 'cancelled' ? paidAt : null,
        goods_cents: goods,
        delivery_cents: extra.delivery?.cents ?? 0,
        delivery_kind: extra.delivery?.kind ?? null,
        delivery_point: extra.delivery?.point ?? null,
        tax_country: 'PL',
        vat_cents: [...vat.lines, ...vat.delivery].reduce((sum, p) => sum + p.vatCents, 0),
        delivery_tax: JSON.stringify(vat.delivery),
      })
      .execute();
    for (const [position, [productId, title, unit, quantity]] of lines.entries()) {
      const { rateBp, netCents, vatCents } = vat.lines[position]!;
      await db
        .insertInto('order_lines')
        .values({ order_id: id, position, product_id: productId, title, unit_price_cents: unit, quantity, image: null, tax_rate_bp: rateBp, net_cents: netCents, vat_cents: vatCents })
        .execute();
    }
    return id;
  }

  const refund = (orderId: string, amountCents: number, at: string, status = 'succeeded') =>
    db.insertInto('refunds').values({ id: newId(), order_id: orderId, provider: 'test', provider_refund_id: null, amount_cents: amountCents, status, created_by: null, created_at: at, confirmed_at: null }).execute();

  /** A withdrawal from whole lines of an order, refunded at `refundedAt` (what the lines cost) or not yet. */
  const withdrawal = (orderId: string, lines: Line[], refundedAt: string | null) =>
    db
      .insertInto('withdrawals')
      .values({
        id: newId(),
        order_id: orderId,
        name: 'Ola Nowak',
        email: 'ola@example.com',
        lines: JSON.stringify(lines.map(([productId, title, unitPriceCents, quantity]) => ({ productId, title, quantity, unitPriceCents }))),
        reason: null,
        locale: 'pl',
        created_at: '2027-03-08T10:00:00.000Z',
        refunded_cents: refundedAt ? lines.reduce((sum, [, , unit, qty]) => sum + unit * qty, 0) : null,
        refunded_at: refundedAt,
      })
      .execute();

  const event = (name: string, visitor: string, at: string) =>
    db.insertInto('analytics_events').values({ id: newId(), name, props: '{}', path: '/', visitor_id: visitor, user_id: null, created_at: at }).execute();

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    gayo = await createCoffee(db, 'Gayo', 1250);
    toraja = await createCoffee(db, 'Toraja', 2000);
    userId = (await createUser(db)).id;

    // Today (23 Nov, Warsaw): from 22 Nov 23:00 UTC.
    await order('2026-11-22T23:00:00.000Z', [[gayo, 'Gayo', 1250, 2]]); // 00:00 Warsaw: today
    await order('2026-11-23T08:59:59.000Z', [[toraja, 'Toraja PL', 2000, 1], [gayo, 'Gayo', 1250, 1]]);
    await order('2026-11-22T22:59:59.999Z', [[toraja, 'Toraja', 2000, 3]]); // 23:59:59 on the 22nd: yesterday
    // Six days ago (17 Nov) is inside 7 days; seven days ago (16 Nov) is not.
    const cancelled = await order('2026-11-16T23:30:00.000Z', [[gayo, 'Gayo', 1300, 1]], { status: 'cancelled', name: '=HYPERLINK("x")', refunded: 1300 });
    await order('2026-11-16T22:30:00.000Z', [[gayo, 'Gayo', 1000, 1]]);
    // 25 October (the clocks went back): 24 Oct 22:00 UTC to 25 Oct 23:00 UTC, 25 hours; 30 days back from today is 25 Oct.
    await order('2026-10-25T22:30:00.000Z', [[toraja, 'Toraja', 2000, 1]]);
    await order('2026-10-24T21:59:00.000Z', [[toraja, 'Toraja', 9900, 1]]); // 23:59 on the 24th: outside 30 days
    // A pending order counts nowhere.
    await order('2026-11-23T08:00:00.000Z', [[gayo, 'Gayo', 1250, 10]], { payment: 'pending' });
    // A refund today of the cancelled order; a failed one that does not count.
    await refund(cancelled, 1300, '2026-11-23T07:00:00.000Z');
    await refund(cancelled, 500, '2026-11-23T07:00:00.000Z', 'failed');

    // Funnel today: a, b, c viewed; a and b added; a began checkout and bought; d bought without viewing (not
    // counted); e viewed yesterday only; a's duplicate events count once.
    for (const visitor of ['a', 'b', 'c']) await event('page_view', visitor, '2026-11-23T08:00:00.000Z');
    await event('page_view', 'a', '2026-11-23T08:01:00.000Z');
    for (const visitor of ['a', 'b']) await event('add_to_cart', visitor, '2026-11-23T08:02:00.000Z');
    await event('begin_checkout', 'a', '2026-11-23T08:03:00.000Z');
    await event('purchase', 'a', '2026-11-23T08:04:00.000Z');
    await event('purchase', 'd', '2026-11-23T08:04:00.000Z');
    await event('page_view', 'e', '2026-11-22T22:59:00.000Z');
    await event('add_to_cart', 'c', '2026-11-22T22:59:00.000Z'); // c added yesterday, not today
  });
  afterAll(() => handle.close());

  it('today: exact revenue, orders, average, refunds, funnel and top products; midnight Warsaw time is the boundary', async () => {
    const d = await getDashboard(db, nullStorage, { period: 'today', timeZone: zone, locale: 'en', now });
    // The refund made today is of an order paid on the 17th: it counts there, not today.
    expect(d).toMatchObject({ from: '2026-11-23', to: '2026-11-23', paidCents: 2500 + 3250, revenueCents: 2500 + 3250, orders: 2, averageOrderCents: 2875, refundedCents: 0, refunds: 0 });
    expect(d.funnel).toEqual({ visitors: 3, addedToCart: 2, beganCheckout: 1, purchased: 1 });
    expect(d.topProducts).toEqual([
      { key: gayo, productId: gayo, name: 'Gayo', label: '', sku: null, revenueCents: 3750, quantity: 3 },
      { key: toraja, productId: toraja, name: 'Toraja', label: '', sku: null, revenueCents: 2000, quantity: 1 },
    ]);
    // "Today" still draws a week.
    expect(d.days).toHaveLength(7);
    expect(d.days.at(-1)).toEqual({ day: '2026-11-23', revenueCents: 5750, orders: 2 });
    expect(d.days.at(-2)).toEqual({ day: '2026-11-22', revenueCents: 6000, orders: 1 });
  });

  it('7 and 30 days: the right days in, the day before out, the 25-hour day counted whole', async () => {
    const week = await getDashboard(db, nullStorage, { period: '7d', timeZone: zone, locale: 'pl', now });
    // The 17th's only order (00:30 Warsaw time) was cancelled and refunded: paid and refunded, not kept; the
    // failed refund counts nowhere.
    expect(week).toMatchObject({ from: '2026-11-17', paidCents: 5750 + 6000 + 1300, revenueCents: 5750 + 6000, orders: 3, averageOrderCents: Math.round(11750 / 3), refundedCents: 1300, refunds: 1 });
    expect(week.days.map((x) => x.day)).toEqual(['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23']);
    expect(week.days[0]).toEqual({ day: '2026-11-17', revenueCents: 0, orders: 0 });
    expect(week.topProducts[0]).toMatchObject({ productId: toraja, name: 'Toraja PL', quantity: 4, revenueCents: 8000 });
    // Over the week c counts as having added to the cart (yesterday), and e as a visitor.
    expect(week.funnel).toEqual({ visitors: 4, addedToCart: 3, beganCheckout: 1, purchased: 1 });

    const month = await getDashboard(db, nullStorage, { period: '30d', timeZone: zone, locale: 'en', now });
    expect(month.from).toBe('2026-10-25');
    expect(month.days).toHaveLength(30);
    expect(month.days[0]).toEqual({ day: '2026-10-25', revenueCents: 2000, orders: 1 });
    expect(month).toMatchObject({ paidCents: 13050 + 1000 + 2000, revenueCents: 11750 + 1000 + 2000, orders: 5 });
    expect(month.days.reduce((sum, x) => sum + x.revenueCents, 0)).toBe(month.revenueCents);
    expect(month.days.find((x) => x.day === '2026-11-16')).toEqual({ day: '2026-11-16', revenueCents: 1000, orders: 1 });
  });

  it('an empty period is zeros, not errors', async () => {
    const d = await getDashboard(db, nullStorage, { period: 'today', timeZone: zone, locale: 'en', now: new Date('2027-06-01T12:00:00Z') });
    expect(d).toMatchObject({ revenueCents: 0, orders: 0, averageOrderCents: 0, refundedCents: 0, refunds: 0, topProducts: [] });
    expect(d.funnel).toEqual({ visitors: 0, addedToCart: 0, beganCheckout: 0, purchased: 0 });
  });

  it('the CSV: one row per line, shop-time dates, each language’s separators and decimals, formulas defused', async () => {
    const en = await exportOrdersCsv(db, { from: '2026-11-16', to: '2026-11-22', timeZone: zone, locale: 'en' });
    expect(en.startsWith('\uFEFF')).toBe(true);
    const rows = en.slice(1).trimEnd().split('\r\n');
    expect(rows[0]).toBe('Order,Date,Customer,Email,Product,Variant,SKU,Quantity,Unit price,Discount,Net,VAT rate (%),VAT,Gross,Currency,Code,Status');
    expect(rows).toHaveLength(1 + 3);
    // A label is the id's last six characters; one that starts with "-" is defused like any formula.
    const label = "(?:[A-Z0-9_][A-Z0-9_-]{5}|'-[A-Z0-9_-]{5})";
    expect(rows[1]).toMatch(new RegExp(`^${label},2026-11-16 23:30,Ola Nowak,ola@example.com,Gayo,,,1,10.00,0.00,8.13,23,1.87,10.00,EUR,,Processing$`));
    expect(noVat(rows[2]!).join(',')).toMatch(new RegExp(`^${label},2026-11-17 00:30,"'=HYPERLINK\\(""x""\\)",ola@example.com,Gayo,,,1,13.00,0.00,13.00,EUR,,Cancelled$`));
    expect(noVat(rows[3]!).join(',')).toMatch(/,2026-11-22 23:59,Ola Nowak,ola@example.com,Toraja,,,3,20.00,0.00,60.00,EUR,,Processing$/);

    const pl = await exportOrdersCsv(db, { from: '2026-11-23', to: '2026-11-23', timeZone: zone, locale: 'pl' });
    const plRows = pl.slice(1).trimEnd().split('\r\n');
    expect(plRows[0]).toBe('Zamówienie;Data;Klient;E-mail;Produkt;Wariant;SKU;Ilość;Cena jedn.;Rabat;Netto;Stawka VAT (%);VAT;Brutto;Waluta;Kod;Status');
    expect(plRows.slice(1).map((r) => r.split(';').slice(1).join(';'))).toEqual([
      '2026-11-23 00:00;Ola Nowak;ola@example.com;Gayo;;;2;12,50;0,00;20,33;23;4,67;25,00;EUR;;W realizacji',
      '2026-11-23 09:59;Ola Nowak;ola@example.com;Toraja PL;;;1;20,00;0,00;16,26;23;3,74;20,00;EUR;;W realizacji',
      '2026-11-23 09:59;Ola Nowak;ola@example.com;Gayo;;;1;12,50;0,00;10,16;23;2,34;12,50;EUR;;W realizacji',
    ]);
  });

  it('delivery apart: the dashboard says what kept orders paid for it, and the CSV gives it a line after the order’s goods', async () => {
    // 2028: a year of its own.
    const day = '2028-02-10T10:00:00.000Z';
    await order(day, [[gayo, 'Gayo', 1250, 2]], { delivery: { kind: 'locker', cents: 349, point: 'KRA01M' } });
    await order('2028-02-10T11:00:00.000Z', [[toraja, 'Toraja', 2000, 3]], { delivery: { kind: 'courier', cents: 0 } });
    await order('2028-02-10T12:00:00.000Z', [[gayo, 'Gayo', 1250, 1]], { delivery: { kind: 'courier', cents: 499 }, status: 'cancelled', refunded: 1749 });
    const d = await getDashboard(db, nullStorage, { period: 'today', timeZone: zone, locale: 'en', now: new Date('2028-02-10T18:00:00Z') });
    expect(d).toMatchObject({ paidCents: 2849 + 6000 + 1749, revenueCents: 2849 + 6000, deliveryCents: 349, orders: 2 });

    const en = await exportOrdersCsv(db, { from: '2028-02-10', to: '2028-02-10', timeZone: zone, locale: 'en' });
    const rows = en.slice(1).trimEnd().split('\r\n').map((r) => r.split(',').slice(4).join(','));
    expect(rows.slice(1)).toEqual([
      'Gayo,,,2,12.50,0.00,20.33,23,4.67,25.00,EUR,,Processing',
      'Delivery,InPost locker KRA01M,,1,3.49,0.00,2.84,23,0.65,3.49,EUR,,Processing',
      'Toraja,,,3,20.00,0.00,48.78,23,11.22,60.00,EUR,,Processing',
      'Delivery,Courier,,1,0.00,0.00,,,,0.00,EUR,,Processing',
      'Gayo,,,1,12.50,0.00,10.16,23,2.34,12.50,EUR,,Cancelled',
      'Delivery,Courier,,1,4.99,0.00,4.06,23,0.93,4.99,EUR,,Cancelled',
    ]);
  });

  describe('counts what was kept', () => {
    // Wednesday 10 March 2027, 12:00 in Warsaw; the week is 4 to 10 March.
    const later = new Date('2027-03-10T11:00:00Z');
    const refundedToday = '2027-03-10T08:00:00.000Z';
    beforeAll(async () => {
      // Kept: 45.00.
      await order('2027-03-05T10:00:00.000Z', [[gayo, 'Gayo', 1250, 2], [toraja, 'Toraja', 2000, 1]]);
      // Cancelled, refunded in full: 50.00 paid, nothing kept.
      const cancelled = await order('2027-03-05T11:00:00.000Z', [[gayo, 'Gayo', 1250, 4]], { status: 'cancelled', refunded: 5000 });
      await refund(cancelled, 5000, refundedToday);
      // 52.50 paid; the two Torajas withdrawn from and refunded: 12.50 kept.
      const partly = await order('2027-03-06T10:00:00.000Z', [[toraja, 'Toraja', 2000, 2], [gayo, 'Gayo', 1250, 1]], { status: 'delivered', refunded: 4000 });
      await withdrawal(partly, [[toraja, 'Toraja', 2000, 2]], refundedToday);
      await refund(partly, 4000, refundedToday);
      // Withdrawn from, not refunded yet: the 12.50 is still the shop's, but the Gayo is on its way back.
      const pending = await order('2027-03-06T11:00:00.000Z', [[gayo, 'Gayo', 1250, 1]], { status: 'delivered' });
      await withdrawal(pending, [[gayo, 'Gayo', 1250, 1]], null);
      // Every line withdrawn from and refunded in full: the order stays delivered, nothing kept.
      const returned = await order('2027-03-07T10:00:00.000Z', [[toraja, 'Toraja', 2000, 1]], { status: 'delivered', refunded: 2000 });
      await withdrawal(returned, [[toraja, 'Toraja', 2000, 1]], refundedToday);
      await refund(returned, 2000, refundedToday);
    });

    it('revenue is paid less refunded; cancelled and fully refunded orders are not orders; refunds are their own figure', async () => {
      const week = await getDashboard(db, nullStorage, { period: '7d', timeZone: zone, locale: 'en', now: later });
      expect(week).toMatchObject({ from: '2027-03-04', paidCents: 18000, revenueCents: 7000, orders: 3, averageOrderCents: 2333, refundedCents: 11000, refunds: 3 });
      expect(week.paidCents).toBe(week.revenueCents + week.refundedCents);
    });

    it('best sellers count the units kept: none of a cancelled order, none withdrawn from', async () => {
      const week = await getDashboard(db, nullStorage, { period: '7d', timeZone: zone, locale: 'en', now: later });
      expect(week.topProducts).toEqual([
        { key: gayo, productId: gayo, name: 'Gayo', label: '', sku: null, revenueCents: 3750, quantity: 3 },
        { key: toraja, productId: toraja, name: 'Toraja', label: '', sku: null, revenueCents: 2000, quantity: 1 },
      ]);
    });

    it('the chart and its table follow the same figures; a refund counts on its order’s day, not the day it was made', async () => {
      const week = await getDashboard(db, nullStorage, { period: '7d', timeZone: zone, locale: 'en', now: later });
      expect(week.days.filter((d) => d.orders > 0 || d.revenueCents > 0)).toEqual([
        { day: '2027-03-05', revenueCents: 4500, orders: 1 },
        { day: '2027-03-06', revenueCents: 2500, orders: 2 },
      ]);
      expect(week.days.reduce((sum, d) => sum + d.revenueCents, 0)).toBe(week.revenueCents);
      expect(week.days.reduce((sum, d) => sum + d.orders, 0)).toBe(week.orders);
      // Today the refunds were made, but of orders from earlier days: today has none.
      const today = await getDashboard(db, nullStorage, { period: 'today', timeZone: zone, locale: 'en', now: later });
      expect(today).toMatchObject({ paidCents: 0, revenueCents: 0, orders: 0, refundedCents: 0, refunds: 0, topProducts: [] });
    });

    it('the CSV says which lines were cancelled or withdrawn from, and whether refunded', async () => {
      const csv = await exportOrdersCsv(db, { from: '2027-03-04', to: '2027-03-10', timeZone: zone, locale: 'en' });
      const rows = csv.slice(1).trimEnd().split('\r\n').slice(1).map((r) => noVat(r).slice(4).join(','));
      expect(rows).toEqual([
        'Gayo,,,2,12.50,0.00,25.00,EUR,,Processing',
        'Toraja,,,1,20.00,0.00,20.00,EUR,,Processing',
        'Gayo,,,4,12.50,0.00,50.00,EUR,,Cancelled',
        'Toraja,,,2,20.00,0.00,40.00,EUR,,Withdrawn · refunded',
        'Gayo,,,1,12.50,0.00,12.50,EUR,,Delivered',
        'Gayo,,,1,12.50,0.00,12.50,EUR,,Withdrawn',
        'Toraja,,,1,20.00,0.00,20.00,EUR,,Withdrawn · refunded',
      ]);
      const pl = await exportOrdersCsv(db, { from: '2027-03-06', to: '2027-03-06', timeZone: zone, locale: 'pl' });
      expect(pl.slice(1).trimEnd().split('\r\n').slice(1).map((r) => r.split(';').at(-1))).toEqual(['Odstąpiono · zwrócono', 'Dostarczone', 'Odstąpiono od umowy']);
    });
  });

  it('counts each currency’s orders apart: euros and złoty are never added', async () => {
    // 2029: a year of its own.
    await order('2029-03-05T10:00:00.000Z', [[gayo, 'Gayo', 1250, 2]], { delivery: { kind: 'courier', cents: 499 } });
    await order('2029-03-05T11:00:00.000Z', [[gayo, 'Gayo', 5299, 1], [toraja, 'Toraja', 8499, 1]], { delivery: { kind: 'locker', cents: 1499 }, currency: 'PLN' });
    const at = { period: 'today' as const, timeZone: zone, locale: 'en' as const, now: new Date('2029-03-05T18:00:00Z') };
    const euros = await getDashboard(db, nullStorage, at);
    const zloty = await getDashboard(db, nullStorage, { ...at, currency: 'PLN' });
    expect(euros).toMatchObject({ currency: 'EUR', revenueCents: 2999, orders: 1, deliveryCents: 499 });
    expect(euros.topProducts.map((p) => [p.name, p.revenueCents])).toEqual([['Gayo', 2500]]);
    expect(zloty).toMatchObject({ currency: 'PLN', revenueCents: 5299 + 8499 + 1499, orders: 1, averageOrderCents: 15_297, deliveryCents: 1499 });
    expect(zloty.topProducts.map((p) => [p.name, p.revenueCents])).toEqual([['Toraja', 8499], ['Gayo', 5299]]);
    expect(zloty.days.at(-1)).toMatchObject({ revenueCents: 15_297, orders: 1 });
    // The CSV keeps every order, each line with its currency.
    const csv = await exportOrdersCsv(db, { from: '2029-03-05', to: '2029-03-05', timeZone: zone, locale: 'en' });
    expect(csv.trimEnd().split('\r\n').slice(1).map((r) => noVat(r).slice(4).join(','))).toEqual([
      'Gayo,,,2,12.50,0.00,25.00,EUR,,Processing',
      'Delivery,Courier,,1,4.99,0.00,4.99,EUR,,Processing',
      'Gayo,,,1,52.99,0.00,52.99,PLN,,Processing',
      'Toraja,,,1,84.99,0.00,84.99,PLN,,Processing',
      'Delivery,InPost locker,,1,14.99,0.00,14.99,PLN,,Processing',
    ]);
  });

  it('the CSV names a removed customer as the back office does: "Deleted customer" or "Customer details removed", never a blank', async () => {
    // 2030: a year of its own.
    await order('2030-04-02T08:00:00.000Z', [[gayo, 'Gayo', 1250, 1]]);
    const deleted = await order('2030-04-02T09:00:00.000Z', [[gayo, 'Gayo', 1250, 1]], { delivery: { kind: 'courier', cents: 499 } });
    const expired = await order('2030-04-02T10:00:00.000Z', [[toraja, 'Toraja', 2000, 1]]);
    for (const [id, by] of [[deleted, 'deletion'], [expired, 'retention']] as const) {
      await db.updateTable('orders').set({ user_email: '', shipping_full_name: '', shipping_address: '', anonymised_at: '2030-05-01T00:00:00.000Z', anonymised_by: by }).where('id', '=', id).execute();
    }
    const customers = (csv: string, separator: string) => csv.slice(1).trimEnd().split('\r\n').slice(1).map((r) => r.split(separator).slice(2, 5).join(separator));
    expect(customers(await exportOrdersCsv(db, { from: '2030-04-02', to: '2030-04-02', timeZone: zone, locale: 'en' }), ',')).toEqual([
      'Ola Nowak,ola@example.com,Gayo',
      'Deleted customer,,Gayo',
      'Deleted customer,,Delivery',
      'Customer details removed (retention period ended),,Toraja',
    ]);
    expect(customers(await exportOrdersCsv(db, { from: '2030-04-02', to: '2030-04-02', timeZone: zone, locale: 'pl' }), ';')).toEqual([
      'Ola Nowak;ola@example.com;Gayo',
      'Usunięty klient;;Gayo',
      'Usunięty klient;;Dostawa',
      'Dane klienta usunięte (minął okres przechowywania);;Toraja',
    ]);
  });

  it('finds midnight in Warsaw in winter, in summer and around the changes of clock', () => {
    expect(startOfShopDay('2026-11-23', zone).toISOString()).toBe('2026-11-22T23:00:00.000Z');
    expect(startOfShopDay('2026-07-01', zone).toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(startOfShopDay('2026-03-29', zone).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfShopDay('2026-03-30', zone).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfShopDay('2026-10-26', zone).toISOString()).toBe('2026-10-25T23:00:00.000Z');
  });
});
