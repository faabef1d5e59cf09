/**
 * Migration 0025 on a shop with orders already: each was taxed in Poland at 23% (the shop sold coffee and was not
 * registered for OSS), so each line, its delivery and its refunds get their net and VAT as then charged, adding up
 * to what was paid.
 */
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.server';
import { migrations } from './index';

describe('VAT on the orders a shop already has', () => {
  it('records Polish VAT on every line (after its discount), the delivery and the refunds', async () => {
    const { db, close } = openDatabase({ kind: 'sqlite', file: ':memory:' });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const any = db as any;
    const migrator = new Migrator({ db: any, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0024-promotions')).error).toBeUndefined();

    const at = '2026-11-01T10:00:00.000Z';
    await any.insertInto('users').values({ id: 'u1', email: 'ola@example.test', display_name: 'Ola', created_at: at, updated_at: at }).execute();
    // 2 × 21.90 and 1 × 12.30 less a code's 4.38 on the first line, and 3.49 for the locker: 55.21 paid.
    await any
      .insertInto('orders')
      .values({
        id: 'o1', user_id: 'u1', user_email: 'ola@example.test', locale: 'pl', cart_id: 'c1', total_cents: 5610 - 438 + 349, goods_cents: 5610, discount_cents: 438, discount_code: 'KAWA10',
        delivery_cents: 349, currency: 'EUR', payment_provider: 'test', cart_fingerprint: 'f', payment_status: 'succeeded', shipping_status: 'delivered', shipping_full_name: 'Ola Nowak',
        shipping_address: 'Długa 5', shipping_city: 'Kraków', shipping_zip_code: '31-147', created_at: at,
      })
      .execute();
    await any
      .insertInto('order_lines')
      .values([
        { order_id: 'o1', position: 0, product_id: 'p1', title: 'Gayo', unit_price_cents: 2190, quantity: 2, discount_cents: 438 },
        { order_id: 'o1', position: 1, product_id: 'p2', title: 'Toraja', unit_price_cents: 1230, quantity: 1, discount_cents: 0 },
      ])
      .execute();
    await any.insertInto('refunds').values({ id: 'r1', order_id: 'o1', provider: 'test', amount_cents: 1230, status: 'succeeded', created_at: at }).execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const lines = await any.selectFrom('order_lines').select(['position', 'tax_rate_bp', 'net_cents', 'vat_cents']).orderBy('position').execute();
    // 39.42 at 23% = 32.05 + 7.37; 12.30 = 10.00 + 2.30; the delivery 3.49 = 2.84 + 0.65.
    expect(lines).toEqual([
      { position: 0, tax_rate_bp: 2300, net_cents: 3205, vat_cents: 737 },
      { position: 1, tax_rate_bp: 2300, net_cents: 1000, vat_cents: 230 },
    ]);
    const order = await any.selectFrom('orders').select(['tax_country', 'vat_cents', 'delivery_tax', 'total_cents']).executeTakeFirst();
    expect(order.tax_country).toBe('PL');
    expect(JSON.parse(order.delivery_tax)).toEqual([{ rateBp: 2300, grossCents: 349, netCents: 284, vatCents: 65 }]);
    expect(Number(order.vat_cents)).toBe(737 + 230 + 65);
    expect(3205 + 737 + 1000 + 230 + 284 + 65).toBe(Number(order.total_cents));
    const refund = await any.selectFrom('refunds').select(['vat_cents', 'tax']).executeTakeFirst();
    expect(Number(refund.vat_cents)).toBe(230);
    expect(JSON.parse(refund.tax)).toEqual([{ rateBp: 2300, grossCents: 1230, netCents: 1000, vatCents: 230 }]);
    // Every product is coffee; the shop is not registered for OSS.
    expect(await any.selectFrom('tax_settings').select('oss_registered').executeTakeFirst()).toEqual({ oss_registered: 0 });
    await close();
  });
});
