/**
 * Migration 0017 on a shop that sold before variants: every product becomes one variant with its price and
 * weight, carts keep what they held (now the variant), and past order lines read their variant and SKU.
 */
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { emptyDatabases, migrateEmpty } from './empty-databases';

describe.each(emptyDatabases())('a shop from before variants on %s', (_kind, open) => {
  it('gets one variant per product, carts by variant, and order lines with their variant and SKU', async () => {
    const empty = await open();
    // The tables as they were before the migration, not as the schema types have them now.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const db = empty.db as unknown as Kysely<any>;
    expect(await migrateEmpty(empty, '0016-search-words')).toBeUndefined();

    const at = '2026-11-01T10:00:00.000Z';
    const product = (id: string, price: number, grams: number | null) => ({ id, category: 'wholeBean', price_cents: price, net_weight_grams: grams, search_text: '', created_at: at, updated_at: at });
    await db.insertInto('products').values([product('gayo', 2190, 250), product('twin', 1990, null), product('toraja', 1590, 250)]).execute();
    await db
      .insertInto('product_translations')
      .values([
        { product_id: 'gayo', locale: 'en', name: 'Gayo Wine Natural', description: '', tasting_notes: '' },
        { product_id: 'twin', locale: 'en', name: 'Gayo Wine Natural', description: '', tasting_notes: '' },
        { product_id: 'toraja', locale: 'en', name: 'Toraja Sapan', description: '', tasting_notes: '' },
      ])
      .execute();
    await db.insertInto('carts').values({ id: 'cart', user_id: null, created_at: at, updated_at: at }).execute();
    await db.insertInto('cart_lines').values([{ cart_id: 'cart', product_id: 'gayo', quantity: 2, added_at: at }, { cart_id: 'cart', product_id: 'gone', quantity: 1, added_at: at }]).execute();
    await db.insertInto('users').values({ id: 'u', email: 'ola@example.test', display_name: 'Ola', password_hash: null, photo_url: null, created_at: at, updated_at: at }).execute();
    await db
      .insertInto('orders')
      .values({
        id: 'order', user_id: 'u', user_email: 'ola@example.test', locale: 'en', cart_id: null, total_cents: 4380, currency: 'EUR', payment_provider: 'test',
        payment_intent_id: null, payment_client_secret: null, cart_fingerprint: 'f', payment_status: 'succeeded', shipping_status: 'delivered',
        shipping_full_name: 'Ola', shipping_address: 'ul. Długa 5', shipping_city: 'Gdańsk', shipping_zip_code: '80-827', created_at: at, paid_at: at,
      })
      .execute();
    await db
      .insertInto('order_lines')
      .values([
        { order_id: 'order', position: 0, product_id: 'gayo', title: 'Gayo Wine Natural', unit_price_cents: 2190, quantity: 2, image: null },
        { order_id: 'order', position: 1, product_id: 'deleted-since', title: 'Old coffee', unit_price_cents: 990, quantity: 1, image: null },
      ])
      .execute();

    expect(await migrateEmpty(empty, 'latest')).toBeUndefined();
    const variants = await db.selectFrom('variants').select(['product_id', 'sku', 'net_weight_grams', 'price_cents', 'active', 'position', 'grind', 'pack_count']).orderBy('product_id').execute();
    expect(variants).toEqual([
      { product_id: 'gayo', sku: expect.stringMatching(/^GAYO-WINE-NATURAL-250(-2)?$/), net_weight_grams: 250, price_cents: 2190, active: 1, position: 0, grind: null, pack_count: null },
      { product_id: 'toraja', sku: 'TORAJA-SAPAN-250', net_weight_grams: 250, price_cents: 1590, active: 1, position: 0, grind: null, pack_count: null },
      { product_id: 'twin', sku: expect.stringMatching(/^GAYO-WINE-NATURAL(-2)?$/), net_weight_grams: null, price_cents: 1990, active: 1, position: 0, grind: null, pack_count: null },
    ]);
    expect((await db.selectFrom('products').select(['id', 'options']).orderBy('id').execute()).map((p) => p.options)).toEqual(['', '', '']);
    const gayo = await db.selectFrom('variants').select(['id', 'sku']).where('product_id', '=', 'gayo').executeTakeFirstOrThrow();
    // The cart holds the variant; a line whose product was gone was gone already.
    expect(await db.selectFrom('cart_lines').selectAll().execute()).toEqual([{ cart_id: 'cart', variant_id: gayo.id, quantity: 2, added_at: at }]);
    expect(await db.selectFrom('order_lines').select(['position', 'variant_id', 'sku', 'variant_label', 'net_weight_grams']).orderBy('position').execute()).toEqual([
      { position: 0, variant_id: gayo.id, sku: gayo.sku, variant_label: '', net_weight_grams: 250 },
      { position: 1, variant_id: null, sku: null, variant_label: '', net_weight_grams: null },
    ]);
    await empty.close();
  });
});
