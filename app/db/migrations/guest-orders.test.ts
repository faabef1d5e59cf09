/**
 * Migration 0021 on SQLite, where an order's account becomes optional by rebuilding the table: the orders and
 * their lines are kept, the foreign keys and the indexes still hold, and a guest's order (no account) can be stored.
 */
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.server';
import { migrations } from './index';

describe('orders from guests on a shop with orders already', () => {
  it('keeps every order, line and constraint while the account becomes optional', async () => {
    const { db, close } = openDatabase({ kind: 'sqlite', file: ':memory:' });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const any = db as any;
    const migrator = new Migrator({ db: any, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0020-shipments')).error).toBeUndefined();

    const at = '2026-11-01T10:00:00.000Z';
    await any.insertInto('users').values({ id: 'u1', email: 'ola@example.test', display_name: 'Ola', created_at: at, updated_at: at }).execute();
    const order = (id: string, status: string) => ({
      id, user_id: 'u1', user_email: 'ola@example.test', locale: 'pl', cart_id: 'c1', total_cents: 2539, goods_cents: 2190, delivery_cents: 349, currency: 'EUR', payment_provider: 'test',
      cart_fingerprint: `f-${id}`, payment_status: status, shipping_status: 'processing', shipping_full_name: 'Ola Nowak', shipping_address: 'Długa 5', shipping_city: 'Kraków', shipping_zip_code: '31-147', created_at: at,
    });
    await any.insertInto('orders').values([order('o1', 'succeeded'), order('o2', 'pending')]).execute();
    await any.insertInto('order_lines').values({ order_id: 'o1', position: 0, product_id: 'p1', title: 'Gayo', unit_price_cents: 2190, quantity: 1 }).execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await any.selectFrom('orders').select(['id', 'user_id', 'total_cents', 'delivery_cents', 'shipping_city', 'guest_key']).orderBy('id').execute()).toEqual([
      { id: 'o1', user_id: 'u1', total_cents: 2539, delivery_cents: 349, shipping_city: 'Kraków', guest_key: null },
      { id: 'o2', user_id: 'u1', total_cents: 2539, delivery_cents: 349, shipping_city: 'Kraków', guest_key: null },
    ]);
    // A guest's order: no account.
    await any.insertInto('orders').values({ ...order('g1', 'pending'), user_id: null, guest_key: 'k' }).execute();
    // The foreign keys hold: a line of no order is refused; the indexes too: one pending order per account and fingerprint, and per guest cart.
    await expect(any.insertInto('order_lines').values({ order_id: 'nope', position: 0, product_id: 'p1', title: 'x', unit_price_cents: 1, quantity: 1 }).execute()).rejects.toThrow(/FOREIGN KEY/);
    await expect(any.insertInto('orders').values({ ...order('o3', 'pending'), cart_fingerprint: 'f-o2' }).execute()).rejects.toThrow(/UNIQUE/);
    await expect(any.insertInto('orders').values({ ...order('g2', 'pending'), user_id: null, cart_fingerprint: 'f-g1' }).execute()).rejects.toThrow(/UNIQUE/);
    expect((await any.selectFrom('order_lines').selectAll().execute()).length).toBe(1);
    await close();
  });
});
